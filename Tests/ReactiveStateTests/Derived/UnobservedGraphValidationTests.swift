import Testing

// `@testable` for the engine's refresh hook, which counts the values a read checks.
@testable import ReactiveState

/// Reads of derived values nobody observes: unlinked, such a value is stale at every read and
/// checks its inputs again, but within one read each is checked once, however many paths of
/// the graph lead to it, so a read costs time linear in the graph, not exponential in depth.
@Suite struct UnobservedGraphValidationTests {
  /// The cellx benchmark's graph (`signals.md` §3): `layers` layers of four derived values,
  /// each layer mixing the previous one, over the `a` of four models; nothing observes it.
  private struct CellxGraph {
    let sources = (0..<4).map { _ in HandModel() }
    private(set) var nodes: [Computed<Int>] = []
    private(set) var ends: [Computed<Int>] = []
    let layers: Int

    init(layers: Int) {
      self.layers = layers
      var layer: [() -> Int] = sources.map { source in { source.a } }
      for _ in 0..<layers {
        let m = layer
        let next = [
          Computed { m[1]() }, Computed { m[0]() - m[2]() }, Computed { m[1]() + m[3]() },
          Computed { m[2]() },
        ]
        nodes += next
        layer = next.map { node in { node.value } }
      }
      ends = Array(nodes.suffix(4))
    }

    /// The end values computed by plain arithmetic from the sources' values.
    func expectedEnds() -> [Int] {
      var layer = sources.map(\.a)
      for _ in 0..<layers {
        layer = [layer[1], layer[0] - layer[2], layer[1] + layer[3], layer[2]]
      }
      return layer
    }
  }

  /// Runs `body`, counting the refreshes of stale derived values that begin on this thread.
  private func countingRefreshes(_ body: () -> Void) -> Int {
    let thread = currentThreadID()
    let refreshes = LockedBox(0)
    DerivedNode.beginningRefresh.body = {
      if currentThreadID() == thread { refreshes.value += 1 }
    }
    body()
    DerivedNode.beginningRefresh.body = nil
    return refreshes.value
  }

  /// Reading one end value of a 20-layer graph of diamonds checks each of its 80 values at
  /// most once, after its sources changed and when nothing changed; every read is correct.
  /// (Checked along every path, as before 2026-12-07, these reads made 17,710 to 92,661
  /// checks each, growing by a factor of about 1.6 per layer.)
  @Test func eachValueIsCheckedOncePerRead() {
    let graph = CellxGraph(layers: 20)
    for (index, source) in graph.sources.enumerated() { source.a = index + 1 }
    #expect(graph.ends.map(\.value) == graph.expectedEnds())
    for (index, source) in graph.sources.enumerated() { source.a = 4 - index }
    for end in graph.ends {
      var value = 0
      let refreshes = countingRefreshes { value = end.value }
      #expect(refreshes <= graph.nodes.count)
      #expect(refreshes > 0, "an unlinked value is checked at every read")
      _ = value
    }
    #expect(graph.ends.map(\.value) == graph.expectedEnds())
    let unchanged = countingRefreshes { _ = graph.ends[0].value }
    #expect(unchanged <= graph.nodes.count)
  }

  /// A write made during a read (here by a derivation, on the reading thread) is seen by the
  /// rest of that read: a value found current earlier in it is checked again, not taken as
  /// current for the whole read.
  @Test func aWriteDuringTheReadIsSeenByTheRestOfIt() {
    let model = HandModel()
    let first = Computed { model.a }
    let writesThenReads = Computed { () -> Int in
      model.a = 7
      return first.value
    }
    let root = Computed { first.value * 100 + writesThenReads.value }
    #expect(root.value == 7, "the read after the write saw \(root.value % 100)")
    #expect(first.value == 7)
  }
}
