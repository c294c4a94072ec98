/// One case of the kairo suite: builds a graph and returns its `iter()` step.
protocol KairoCase {
  var name: String { get }
  /// Builds the case's graph with `framework`; the returned step checks its own invariants.
  func build<F: ReactiveFramework>(_ framework: F, checker: ResultChecker) -> () -> Void
}

/// Runs a kairo case as milomg does: build once, call `iter()` three times as warm-up, then time
/// samples of up to 500 `iter()` calls (fewer when one call is slow, so a sample lasts about
/// `targetSampleNanoseconds`). Reports µs per `iter()`.
struct KairoScenario<Case: KairoCase>: ReactivityScenario {
  let kairoCase: Case
  let baselineDivisor = 1

  init(_ kairoCase: Case) { self.kairoCase = kairoCase }

  var name: String { "kairo " + kairoCase.name }
  var unit: String { "µs/iter" }

  func run<F: ReactiveFramework>(_ framework: F, context: ScenarioContext) -> Double {
    let iter = framework.withBuild { kairoCase.build(framework, checker: context.checker) }
    iter()
    iter()
    let start = nowNanoseconds()
    iter()
    let once = Double(nowNanoseconds() - start)
    let calls = max(1, min(500, Int(context.targetSampleNanoseconds / max(once, 1))))
    let nanoseconds = context.measureOperations(warmUps: 0) {
      for _ in 0..<calls { iter() }
      return calls
    }
    framework.cleanup()
    return nanoseconds / 1000
  }
}

/// Stand-in for the suite's `busy()`: a 100-step loop the optimiser cannot delete.
@inline(never) func busy() -> Int {
  let seed = opaqueInt(0)
  var total = 0
  for step in 0..<100 { total &+= step ^ seed }
  return total
}

/// Counts effect runs (the JS suite's `Counter`).
final class RunCounter {
  var count = 0
}
