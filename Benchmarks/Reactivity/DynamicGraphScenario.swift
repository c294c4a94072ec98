/// Runs one dynamic-graph configuration: build, one warm-up run (the expected count assumes
/// the graph has run before, as after milomg's warm-ups), then timed runs with the counter
/// reset. Reports µs per iteration.
///
/// With the suite's iteration count (full mode, divisor 1) every run starts at iteration 0 as in
/// the JS suite, and the last run is checked against the JS expected sum and count. Shortened
/// runs (`--quick`, or a divided baseline) each continue where the previous one stopped, so
/// that their writes still change values, and the last run is checked against the reference
/// engine replaying the same runs. In full mode (no `--quick`) the reference engine is first
/// checked itself against the JS values, so the baseline's expected values come from an oracle
/// validated against the suite; in `--quick` mode the oracle is trusted (it is the same code).
/// Counts are only checked for adapters with `exactPullCounts`.
struct DynamicGraphScenario: ReactivityScenario {
  let config: DynamicGraphConfig
  let baselineDivisor: Int
  /// milomg's test name, e.g. "6-10x10 - dyn25% - lazy80%".
  var name: String { config.title }
  var unit: String { "µs/iter" }

  func run<F: ReactiveFramework>(_ framework: F, context: ScenarioContext) -> Double {
    let iterations = context.scaled(config.iterations, minimum: 2)
    let isFull = iterations == config.iterations
    let runs = 1 + context.samples
    if !isFull && !context.harness.quick {
      let oracle = Self.fullRun(ReferenceFramework(), config)
      check(
        oracle, expected: (config.expectedSum, config.expectedCount), ReferenceFramework(),
        context, "reference engine, \(config.iterations) iterations")
    }
    let expected =
      isFull
      ? (config.expectedSum, config.expectedCount)
      : Self.replay(ReferenceFramework(), config, iterations: iterations, runs: runs)

    let graph = framework.withBuild { DynamicGraph(framework, config: config) }
    var start = 0
    _ = graph.run(iterations: iterations)
    var result = (sum: 0.0, count: 0)
    let nanoseconds = context.measureOperations(warmUps: 0) {
      if !isFull { start += iterations }
      graph.counter.count = 0
      result.sum = graph.run(iterations: iterations, from: start)
      result.count = graph.counter.count
      return iterations
    }
    framework.cleanup()
    check(result, expected: expected, framework, context, "\(iterations) iterations")
    return nanoseconds / 1000
  }

  private func check<F: ReactiveFramework>(
    _ result: (sum: Double, count: Int), expected: (sum: Double, count: Int), _ framework: F,
    _ context: ScenarioContext, _ label: String
  ) {
    context.checker.expect(
      result.sum == expected.sum, "\(label): sum \(result.sum) == \(expected.sum)")
    if framework.exactPullCounts {
      context.checker.expect(
        result.count == expected.count, "\(label): count \(result.count) == \(expected.count)")
    }
  }

  /// The JS suite's run with its iteration count: a warm-up run, then a counted run, both from
  /// iteration 0. Returns the counted run's sum and computation count.
  static func fullRun<G: ReactiveFramework>(
    _ framework: G, _ config: DynamicGraphConfig
  ) -> (sum: Double, count: Int) {
    let graph = framework.withBuild { DynamicGraph(framework, config: config) }
    _ = graph.run(iterations: config.iterations)
    graph.counter.count = 0
    let sum = graph.run(iterations: config.iterations)
    let count = graph.counter.count
    framework.cleanup()
    return (sum, count)
  }

  /// Builds a graph and makes `runs` consecutive shortened runs; returns the last run's sum
  /// and computation count.
  static func replay<G: ReactiveFramework>(
    _ framework: G, _ config: DynamicGraphConfig, iterations: Int, runs: Int
  ) -> (sum: Double, count: Int) {
    let graph = framework.withBuild { DynamicGraph(framework, config: config) }
    var sum = 0.0
    for run in 0..<runs {
      graph.counter.count = 0
      sum = graph.run(iterations: iterations, from: run * iterations)
    }
    let count = graph.counter.count
    framework.cleanup()
    return (sum, count)
  }
}
