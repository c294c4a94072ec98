/// Runs one dynamic-graph configuration: build, one warm-up run (the expected count assumes
/// the graph has run before), then timed runs with the counter reset. Reports µs per iteration.
///
/// With the suite's iteration count the result is checked against the JS expected sum and count.
/// With fewer iterations (`--quick`, or a divided baseline) the expected values are those of
/// the reference adapter over the same iterations; in `--quick`, the adapter first makes one
/// untimed validation pass at the full iteration count when that pass is cheap enough.
/// Counts are only checked for adapters with `exactPullCounts`.
struct DynamicGraphScenario: ReactivityScenario {
  let config: DynamicGraphConfig
  let baselineDivisor: Int
  var name: String { "dynamic " + config.title }
  var unit: String { "µs/iter" }

  func run<F: ReactiveFramework>(_ framework: F, context: ScenarioContext) -> Double {
    if context.harness.quick && context.divisor == 1 {
      let full = Self.warmAndCount(framework, config: config, iterations: config.iterations)
      check(full, expected: (config.expectedSum, config.expectedCount), framework, context, "full")
    }
    let iterations = context.scaled(config.iterations, minimum: 2 * config.width)
    let expected =
      iterations == config.iterations
      ? (config.expectedSum, config.expectedCount)
      : Self.warmAndCount(ReferenceFramework(), config: config, iterations: iterations)

    let graph = framework.withBuild { DynamicGraph(framework, config: config) }
    _ = graph.run(iterations: iterations)
    var result = (sum: 0.0, count: 0)
    let nanoseconds = measureScenario(context.harness) {
      graph.counter.count = 0
      result.sum = graph.run(iterations: iterations)
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

  /// Builds a graph, runs it once, then runs it again counting computations.
  static func warmAndCount<G: ReactiveFramework>(
    _ framework: G, config: DynamicGraphConfig, iterations: Int
  ) -> (sum: Double, count: Int) {
    let graph = framework.withBuild { DynamicGraph(framework, config: config) }
    _ = graph.run(iterations: iterations)
    graph.counter.count = 0
    let sum = graph.run(iterations: iterations)
    let count = graph.counter.count
    framework.cleanup()
    return (sum, count)
  }
}
