/// The S.js-style micro-benchmarks (milomg `sBench.ts`, after solidjs/solid's `bench.cjs`).
///
/// Each case builds `sourceCount` signals (reading each three times), then — timed — creates
/// its effects, runs its update step inside one `withBatch`, and disposes everything with
/// `cleanup()`. A group's time is the sum of its cases' times (the fastest of the harness's
/// samples each), in ms. Effects report to a `SBenchProbe` so every case checks how often its
/// effects ran and what the last one saw.
struct SBenchScenario: ReactivityScenario {
  /// The three rows of the JS suite.
  enum Group: String {
    case createSignals, createComputations, updateSignals
  }

  let group: Group
  let baselineDivisor = 1
  var name: String { "S-bench " + group.rawValue }
  var unit: String { "ms" }

  func run<F: ReactiveFramework>(_ framework: F, context: ScenarioContext) -> Double {
    // COUNT = 1e5 in the JS suite; kept a multiple of 1000 so every case divides evenly.
    let count = max(1000, context.scaled(100_000) / 1000 * 1000)
    let cases = SBenchCases(framework: framework, checker: context.checker)
    var totalNanoseconds = 0.0
    for benchCase in cases.cases(in: group, count: count) {
      totalNanoseconds += context.measure {
        cases.probe.reset()
        let sources = framework.withBuild { cases.createSignals(benchCase.sourceCount) }
        for source in sources {
          _ = source.read()
          _ = source.read()
          _ = source.read()
        }
        let start = nowNanoseconds()
        let update = framework.withBuild { benchCase.setUp(sources) }
        framework.withBatch(update)
        framework.cleanup()
        let elapsed = nowNanoseconds() - start
        context.checker.expect(
          cases.probe.runs == benchCase.expectedRuns,
          "\(benchCase.name): effect runs \(cases.probe.runs) == \(benchCase.expectedRuns)")
        context.checker.expect(
          cases.probe.last == benchCase.expectedLast,
          "\(benchCase.name): last effect value \(cases.probe.last) == \(benchCase.expectedLast)")
        return (elapsed, 1)
      }
    }
    return totalNanoseconds / 1_000_000
  }
}

/// Where S-bench effects report: how many ran and the value the latest one computed.
final class SBenchProbe {
  var runs = 0
  var last = 0.0

  func reset() {
    runs = 0
    last = 0
  }

  @inline(__always) func record(_ value: Double) {
    runs += 1
    last = value
  }
}

/// One S-bench case: how many signals it needs, how it builds its effects, and what to expect.
struct SBenchCase {
  let name: String
  let sourceCount: Int
  let expectedRuns: Int
  let expectedLast: Double
  /// Creates the effects over the given signals; returns the update step to run in a batch.
  let setUp: ([SignalHandle<Double>]) -> () -> Void
}

/// The S-bench cases for one adapter.
struct SBenchCases<F: ReactiveFramework> {
  let framework: F
  let checker: ResultChecker
  let probe = SBenchProbe()

  func createSignals(_ count: Int) -> [SignalHandle<Double>] {
    (0..<count).map { framework.signal(Double($0)) }
  }

  func cases(in group: SBenchScenario.Group, count n: Int) -> [SBenchCase] {
    switch group {
    case .createSignals:
      return [
        SBenchCase(name: "createSignals", sourceCount: 0, expectedRuns: 0, expectedLast: 0) {
          _ in
          let signals = self.createSignals(n)
          return { consume(signals.count) }
        }
      ]
    case .createComputations:
      return [
        create("create0to1", n: n, sources: 0, perSource: 0),
        create("create1to1", n: n, sources: n, perSource: 1),
        create("create2to1", n: n / 2, sources: n, perSource: 2),
        create("create4to1", n: n / 4, sources: n, perSource: 4),
        create("create1000to1", n: n / 1000, sources: n, perSource: 1000),
        fanOut("create1to2", n: n, sources: n / 2, perSource: 2),
        fanOut("create1to4", n: n, sources: n / 4, perSource: 4),
        fanOut("create1to8", n: n, sources: n / 8, perSource: 8),
        fanOut("create1to1000", n: n, sources: n / 1000, perSource: 1000),
      ]
    case .updateSignals:
      return [
        update("update1to1", writes: 4 * n, sources: 1, effects: 1),
        update("update2to1", writes: 2 * n, sources: 2, effects: 1),
        update("update4to1", writes: n, sources: 4, effects: 1),
        update("update1000to1", writes: n / 250, sources: 1000, effects: 1),
        update("update1to2", writes: n, sources: 1, effects: 2),
        update("update1to4", writes: n, sources: 1, effects: 4),
        update("update1to1000", writes: n / 10, sources: 1, effects: 1000),
      ]
    }
  }

  /// `n` effects, each summing `perSource` consecutive signals (none for `create0to1`, whose
  /// effect returns its index).
  private func create(_ name: String, n: Int, sources: Int, perSource: Int) -> SBenchCase {
    // The last effect sums signals (n - 1) * perSource ..< n * perSource (or returns n - 1).
    let last =
      perSource == 0
      ? Double(n - 1) : Double(((n - 1) * perSource..<n * perSource).reduce(0, +))
    return SBenchCase(name: name, sourceCount: sources, expectedRuns: n, expectedLast: last) {
      signals in
      for i in 0..<n {
        if perSource == 0 {
          self.framework.effect { self.probe.record(Double(i)) }
        } else {
          let inputs = Array(signals[(i * perSource)..<((i + 1) * perSource)])
          self.effectSumming(inputs)
        }
      }
      return {}
    }
  }

  /// `perSource` effects on each of the first `n / perSource` signals.
  private func fanOut(_ name: String, n: Int, sources: Int, perSource: Int) -> SBenchCase {
    SBenchCase(
      name: name, sourceCount: sources, expectedRuns: n, expectedLast: Double(n / perSource - 1)
    ) { signals in
      for i in 0..<(n / perSource) {
        for _ in 0..<perSource { self.effectSumming([signals[i]]) }
      }
      return {}
    }
  }

  /// `effects` effects summing all `sources` signals; the step writes `0..<writes` to the first
  /// signal in one batch, so each effect runs once more, seeing `writes - 1` plus the others.
  private func update(_ name: String, writes: Int, sources: Int, effects: Int) -> SBenchCase {
    let others = Double((1..<max(1, sources)).reduce(0, +))
    return SBenchCase(
      name: name, sourceCount: sources, expectedRuns: 2 * effects,
      expectedLast: Double(writes - 1) + others
    ) { signals in
      for _ in 0..<effects { self.effectSumming(signals) }
      let first = signals[0]
      return {
        for i in 0..<writes { first.write(Double(i)) }
      }
    }
  }

  private func effectSumming(_ inputs: [SignalHandle<Double>]) {
    let probe = probe
    if inputs.count == 1 {
      let input = inputs[0]
      framework.effect { probe.record(input.read()) }
    } else {
      framework.effect {
        var sum = 0.0
        for input in inputs { sum += input.read() }
        probe.record(sum)
      }
    }
  }
}
