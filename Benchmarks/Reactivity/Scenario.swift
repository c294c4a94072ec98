/// One scenario of the suite, runnable with any `ReactiveFramework` adapter.
///
/// `run` builds the graph, checks the scenario's expected results (through `context.checker`)
/// and returns the measured time in the scenario's `unit`.
protocol ReactivityScenario {
  /// Row name, e.g. "kairo diamond".
  var name: String { get }
  /// Unit of the returned time, e.g. "µs/iter".
  var unit: String { get }
  /// How much to divide the work by when running the (much slower) Observation baseline.
  var baselineDivisor: Int { get }
  func run<F: ReactiveFramework>(_ framework: F, context: ScenarioContext) -> Double
}

/// What a scenario run needs besides the adapter.
struct ScenarioContext {
  let harness: BenchmarkHarness
  /// Collects failed expectations of this run.
  let checker: ResultChecker
  /// Work divisor for slow adapters (1 = the JS suite's amounts of work).
  let divisor: Int
  /// Scales a full-mode count by `--quick` and the divisor; never below `minimum`.
  func scaled(_ full: Int, minimum: Int = 1) -> Int {
    max(minimum, harness.iterations(full) / divisor)
  }

  /// Timed samples per measurement, the same for both engines: fewer than the harness's
  /// default, because one sample of these scenarios is a whole graph run (seconds for the
  /// baseline).
  var samples: Int { Self.samples(quick: harness.quick) }

  /// ``samples`` for a run with or without `--quick`.
  static func samples(quick: Bool) -> Int { quick ? 1 : 3 }

  /// Duration one kairo sample aims for (the number of `iter()` calls adapts to it).
  var targetSampleNanoseconds: Double { harness.quick ? 10e6 : 100e6 }

  /// Runs `body` (returning elapsed nanoseconds and operations) `warmUps` times untimed, then
  /// `samples` times; returns the fastest sample's nanoseconds per operation (as the JS
  /// suite does; see ``BenchmarkHarness/measure(samples:warmUps:_:)``).
  func measure(warmUps: Int = 1, _ body: () -> (UInt64, Int)) -> Double {
    harness.measure(samples: samples, warmUps: warmUps, body)
  }

  /// `measure` for bodies that return their operation count.
  func measureOperations(warmUps: Int = 1, _ body: () -> Int) -> Double {
    measure(warmUps: warmUps) {
      let start = nowNanoseconds()
      let operations = body()
      return (nowNanoseconds() - start, operations)
    }
  }
}

/// Counts failed expectations inside timed loops (cheaply) and reports them once afterwards.
final class ResultChecker {
  private(set) var failures = 0
  private(set) var firstFailure: String?

  @inline(__always) func expect(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { record(message()) }
  }

  @inline(never) private func record(_ message: String) {
    failures += 1
    if firstFailure == nil { firstFailure = message }
  }

  /// Reports to the harness (a failure makes the benchmark exit non-zero).
  func report(to harness: BenchmarkHarness, scenario: String, adapter: String) {
    harness.check(
      failures == 0,
      "\(scenario) [\(adapter)]: \(firstFailure ?? "") (\(failures) failed expectation(s))")
  }
}

/// A value compared by identity, like a freshly built JS object or array: a computed returning
/// one always counts as changed.
final class FreshObject<Value>: Equatable {
  let value: Value
  init(_ value: Value) { self.value = value }
  static func == (lhs: FreshObject, rhs: FreshObject) -> Bool { lhs === rhs }
}
