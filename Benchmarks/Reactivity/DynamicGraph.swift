/// One "Reactively" dynamic-graph configuration (milomg `config.ts`) with its expected results.
struct DynamicGraphConfig {
  let width: Int
  let totalLayers: Int
  /// Probability that a node is static (sums all its sources) rather than dynamic.
  let staticFraction: Double
  let nSources: Int
  /// Fraction of the last row that the effect and the loop read.
  let readFraction: Double
  let iterations: Int
  /// Sum of the read leaves after the run (exact, as a JS number).
  let expectedSum: Double
  /// Number of computed executions during one run after a warm-up run.
  let expectedCount: Int

  /// The suite's title, e.g. "6-10x10 - dyn25% - lazy80%".
  var title: String {
    func percent(_ fraction: Double) -> String { "\(Int(JSArithmetic.round(fraction * 100)))%" }
    let dynamic = staticFraction < 1 ? " - dyn" + percent(1 - staticFraction) : ""
    let lazy = readFraction < 1 ? " - lazy" + percent(1 - readFraction) : ""
    return "\(nSources)-\(width)x\(totalLayers)\(dynamic)\(lazy)"
  }

  /// The six configurations of milomg/js-reactivity-benchmark, in its order.
  static let suite: [DynamicGraphConfig] = [
    DynamicGraphConfig(
      width: 10, totalLayers: 5, staticFraction: 1, nSources: 2, readFraction: 0.2,
      iterations: 600_000, expectedSum: 19_199_968, expectedCount: 3_480_000),
    DynamicGraphConfig(
      width: 10, totalLayers: 10, staticFraction: 3.0 / 4.0, nSources: 6, readFraction: 0.2,
      iterations: 15_000, expectedSum: 302_310_782_860, expectedCount: 1_155_000),
    DynamicGraphConfig(
      width: 1000, totalLayers: 12, staticFraction: 0.95, nSources: 4, readFraction: 1,
      iterations: 7000, expectedSum: 29_355_933_696_000, expectedCount: 1_463_000),
    DynamicGraphConfig(
      width: 1000, totalLayers: 5, staticFraction: 1, nSources: 25, readFraction: 1,
      iterations: 3000, expectedSum: 1_171_484_375_000, expectedCount: 732_000),
    DynamicGraphConfig(
      width: 5, totalLayers: 500, staticFraction: 1, nSources: 3, readFraction: 1,
      iterations: 500, expectedSum: 3.0239642676898464e241, expectedCount: 1_246_500),
    DynamicGraphConfig(
      width: 100, totalLayers: 15, staticFraction: 0.5, nSources: 6, readFraction: 1,
      iterations: 2000, expectedSum: 15_664_996_402_790_400, expectedCount: 1_078_000),
  ]
}

/// A built rectangular graph: `width` signals, `totalLayers - 1` rows of computeds, the leaves
/// that are read, one effect reading them all, and a counter of computed executions.
struct DynamicGraph<F: ReactiveFramework> {
  let framework: F
  let sources: [SignalHandle<Double>]
  let readLeaves: [ComputedHandle<Double>]
  let counter: RunCounter

  /// Builds the graph exactly as milomg's `makeGraph` does, consuming the two pseudo-random
  /// sequences in the same order (one for the rows, a fresh one for removing leaves).
  init(_ framework: F, config: DynamicGraphConfig) {
    self.framework = framework
    let counter = RunCounter()
    self.counter = counter
    let sources = (0..<config.width).map { framework.signal(Double($0)) }
    self.sources = sources

    var rowRandom = PseudoRandom()
    var previous = sources.map(\.asComputed)
    for _ in 0..<(config.totalLayers - 1) {
      previous = previous.indices.map { index in
        let inputs = (0..<config.nSources).map { previous[(index + $0) % previous.count] }
        let isStatic = rowRandom.next() < config.staticFraction
        return isStatic
          ? Self.staticNode(framework, inputs, counter)
          : Self.dynamicNode(framework, inputs, counter)
      }
    }

    var leafRandom = PseudoRandom()
    var leaves = previous
    let skipCount = Int(JSArithmetic.round(Double(leaves.count) * (1 - config.readFraction)))
    for _ in 0..<skipCount {
      leaves.remove(at: Int((leafRandom.next() * Double(leaves.count)).rounded(.down)))
    }
    let readLeaves = leaves
    self.readLeaves = readLeaves
    framework.effect {
      for leaf in readLeaves { _ = leaf.read() }
    }
  }

  /// A static node: the sum of all its sources.
  private static func staticNode(
    _ framework: F, _ inputs: [ComputedHandle<Double>], _ counter: RunCounter
  ) -> ComputedHandle<Double> {
    framework.computed {
      counter.count += 1
      var sum = 0.0
      for input in inputs { sum += input.read() }
      return sum
    }
  }

  /// A dynamic node: the first source decides (by JS `&` and `%`) which other source to skip.
  private static func dynamicNode(
    _ framework: F, _ inputs: [ComputedHandle<Double>], _ counter: RunCounter
  ) -> ComputedHandle<Double> {
    let first = inputs[0]
    let tail = Array(inputs.dropFirst())
    return framework.computed {
      counter.count += 1
      var sum = first.read()
      let shouldDrop = JSArithmetic.bitAnd(sum, 1) != 0
      let dropIndex = JSArithmetic.remainder(sum, Double(tail.count))
      for index in tail.indices {
        if shouldDrop && Double(index) == dropIndex { continue }
        sum += tail[index].read()
      }
      return sum
    }
  }

  /// milomg's `runGraph`: one batched write per iteration, then a read of every leaf.
  /// Returns the sum of the leaves, folded as the JS `reduce` does.
  ///
  /// The JS suite always starts at iteration 0; with more iterations than sources, every
  /// write changes a source (`i + sourceIndex` differs from what the previous run left).
  /// Shortened runs, with fewer iterations than sources, would repeat the previous run's
  /// writes and change nothing: they start at `firstIteration` (continuing the previous run).
  func run(iterations: Int, from firstIteration: Int = 0) -> Double {
    for i in firstIteration..<(firstIteration + iterations) {
      let sourceIndex = i % sources.count
      framework.withBatch { sources[sourceIndex].write(Double(i + sourceIndex)) }
      for leaf in readLeaves { _ = leaf.read() }
    }
    return readLeaves.reduce(0.0) { total, leaf in leaf.read() + total }
  }
}
