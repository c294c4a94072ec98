/// CellX (after Riim/cellx `perf/perf.html`): `layers` layers of four computeds, each layer
/// mixing the previous one, with an effect on every computed. The timed part reads the four end
/// values, writes all four sources in one batch, and reads the end values again. Every sample
/// builds a fresh graph (construction is not timed). Reports ms per update.
///
/// Besides the JS suite's end values, each sample checks how many effects the batch re-ran:
/// each at most once, after the batch. With equality cut-off, exactly those whose computed
/// changed, as counted by the reference engine on the same graph; without cut-off, all
/// `4 * layers` (every computed is downstream of the sources).
struct CellxScenario: ReactivityScenario {
  let layers: Int
  let baselineDivisor = 1
  var name: String { "cellx \(layers)" }
  var unit: String { "ms" }

  /// End values before and after the update (the same for 1000 and 2500 layers).
  private let expectedBefore: [Double] = [-3, -6, -2, 2]
  private let expectedAfter: [Double] = [-2, -4, 2, 3]

  func run<F: ReactiveFramework>(_ framework: F, context: ScenarioContext) -> Double {
    let expectedRuns =
      framework.hasEqualityCutoff ? Self.effectRuns(ReferenceFramework(), self) : 4 * layers
    let nanoseconds = context.measure {
      let effectRuns = RunCounter()
      let (sources, ends) = framework.withBuild { build(framework, effectRuns: effectRuns) }
      effectRuns.count = 0
      let start = nowNanoseconds()
      let before = ends.map { $0.read() }
      framework.withBatch {
        for (index, source) in sources.enumerated() { source.write(Double(4 - index)) }
      }
      let after = ends.map { $0.read() }
      let elapsed = nowNanoseconds() - start
      framework.cleanup()
      context.checker.expect(before == expectedBefore, "before \(before) == \(expectedBefore)")
      context.checker.expect(after == expectedAfter, "after \(after) == \(expectedAfter)")
      context.checker.expect(
        effectRuns.count == expectedRuns,
        "effect runs in the batch \(effectRuns.count) == \(expectedRuns)")
      return (elapsed, 1)
    }
    return nanoseconds / 1_000_000
  }

  /// The number of effects that `framework` re-runs for the batched update of the sources.
  static func effectRuns<G: ReactiveFramework>(_ framework: G, _ scenario: Self) -> Int {
    let effectRuns = RunCounter()
    let (sources, _) = framework.withBuild { scenario.build(framework, effectRuns: effectRuns) }
    effectRuns.count = 0
    framework.withBatch {
      for (index, source) in sources.enumerated() { source.write(Double(4 - index)) }
    }
    framework.cleanup()
    return effectRuns.count
  }

  /// Builds the graph; every effect run adds one to `effectRuns` (when given).
  func build<F: ReactiveFramework>(
    _ framework: F, effectRuns: RunCounter = RunCounter()
  ) -> ([SignalHandle<Double>], [ComputedHandle<Double>]) {
    let sources = (1...4).map { framework.signal(Double($0)) }
    var layer = sources.map(\.asComputed)
    for _ in 0..<layers {
      let m = layer
      let next = [
        framework.computed { m[1].read() },
        framework.computed { m[0].read() - m[2].read() },
        framework.computed { m[1].read() + m[3].read() },
        framework.computed { m[2].read() },
      ]
      for node in next {
        framework.effect {
          _ = node.read()
          effectRuns.count += 1
        }
      }
      layer = next
    }
    return (sources, layer)
  }
}
