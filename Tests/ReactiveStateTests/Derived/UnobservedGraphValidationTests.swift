import Testing

// `@testable` for the engine's refresh hook, which counts the values a read checks.
@testable import ReactiveState

/// Reads of derived values nobody observes: unlinked, such a value is stale at every read and
/// checks its inputs again, but within one read each is checked once, however many paths of
/// the graph lead to it, so a read costs time linear in the graph, not exponential in depth.
/// A write on the reading thread during the read — also one made during a value's own check,
/// and an input's abandonment — makes the values checked before it check again (three tests
/// came from a review of the change; the last four, which pin when a pass ends and how it is
/// numbered, from a round of mutation testing).
@Suite struct UnobservedGraphValidationTests {
  /// The cellx benchmark's graph (`signals.md` §3): `layers` layers of four derived values,
  /// each layer mixing the previous one, over the `a` of four pairs; nothing observes it.
  private struct CellxGraph {
    /// Locked storage (`ComputedTests`' pair; its `a` is read): the threads test writes the
    /// sources while other threads read them.
    let sources = (0..<4).map { _ in LockedPair() }
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
    for (index, source) in graph.sources.enumerated() { source.set(index + 1) }
    #expect(graph.ends.map(\.value) == graph.expectedEnds())
    for (index, source) in graph.sources.enumerated() { source.set(4 - index) }
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

  /// Two threads read an unobserved graph of diamonds while a third writes its sources: each
  /// thread's passes are its own, so what one thread found current never counts as current
  /// for another. Once the threads are done, a write and a read on this thread give the
  /// values plain arithmetic gives. (Run under ThreadSanitizer by `.ci/run`.)
  @Test func threadsReadingWhileAnotherWritesLeaveNoValueTakenAsCurrentForOthers() {
    let graph = CellxGraph(layers: 12)
    runConcurrently(threads: 3) { thread in
      for step in 0..<300 {
        if thread == 0 {
          for (index, source) in graph.sources.enumerated() { source.set(step + index) }
        } else {
          for end in graph.ends { _ = end.value }
        }
      }
    }
    for (index, source) in graph.sources.enumerated() { source.set(7 * index - 5) }
    #expect(graph.ends.map(\.value) == graph.expectedEnds())
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

  /// A derivation that reads a property and then writes it makes its own value stale: a
  /// second read of it in the same read of an unobserved value sees the write (the pass's
  /// renumbering must not date the value's computation after its own write).
  @Test func aValueThatWritesItsOwnInputIsCheckedAgainInTheSameRead() {
    let model = HandModel()
    let readsThenWrites = Computed { () -> Int in
      let seen = model.a
      if seen == 0 { model.a = 1 }
      return seen
    }
    let root = Computed { readsThenWrites.value * 10 + readsThenWrites.value }
    let value = root.value
    #expect(value == 1, "the second read returned the value from before the write")
    #expect(readsThenWrites.value == 1)
  }

  /// A value settled unchanged by a check of its inputs during which one of its own inputs
  /// was written (by a derived input's computation, after that input was compared) is stale:
  /// a later read of it in the same read of an unobserved value sees the write.
  @Test func aValueSettledAcrossAWriteIsCheckedAgainInTheSameRead() {
    let model = HandModel()
    let writesWhenBMoves = Computed { () -> Int in
      if model.b == 1 { model.a = 5 }
      return 0
    }
    let sum = Computed { model.a + writesWhenBMoves.value }
    let root = Computed { () -> Int in
      _ = model.b
      return sum.value * 10 + sum.value
    }
    #expect(root.value == 0)
    model.b = 1
    // The first read of `sum` settles it before the write is visible to it (as before the
    // pass); the second must see it.
    let value = root.value
    #expect(value % 10 == 5, "the second read of sum returned \(value % 10)")
    #expect(sum.value == 5)
  }

  /// A derived value whose input goes away during a read of unobserved values (its owner
  /// freed by a derivation: the input is abandoned, its version moves) is checked again by a
  /// later read in the same read, and recomputes without the freed value.
  @Test func aDerivedInputFreedDuringTheReadIsSeenByTheRestOfIt() {
    let holder = ComputedHolder()
    let model = HandModel()
    holder.strong = Computed { model.a + 5 }
    holder.weak = holder.strong
    let readsWeakly = Computed { holder.weak?.value ?? -1 }
    let frees = Computed { () -> Int in
      if model.b == 1 { holder.strong = nil }
      return 0
    }
    let root = Computed { () -> Int in
      _ = model.b
      let first = readsWeakly.value
      _ = frees.value
      return first * 10 + readsWeakly.value
    }
    #expect(root.value == 55)
    model.b = 1
    let value = root.value
    #expect(holder.weak == nil)
    #expect(value == 49, "root is \(value): the second read kept the freed value's 5")
  }

  /// A read's pass ends with the read: the next read on the same thread checks the values
  /// again, also when the only write since was made on another thread (which renumbers no
  /// pass of this thread), so it sees that write.
  @Test func aWriteOnAnotherThreadBetweenTwoReadsIsSeenByTheSecond() {
    let source = LockedPair()
    let doubled = Computed { source.a * 2 }
    let root = Computed { doubled.value + 1 }
    #expect(root.value == 1)
    onAnotherThread { source.setA(5) }
    let value = root.value
    #expect(value == 11, "the second read took the first read's check as current: \(value)")
    #expect(doubled.value == 10)
  }

  /// Pass numbers are unique across threads, not only within one: a new thread's first read
  /// does not take a value that another new thread's first read checked, before a write, as
  /// current (each thread's serial starts from its own identity).
  @Test func anotherThreadsPassDoesNotCountAsThisThreadsPass() {
    let source = LockedPair()
    let doubled = Computed { source.a * 2 }
    let root = Computed { doubled.value + 1 }
    let first = LockedBox(0)
    onAnotherThread { first.value = root.value }
    source.setA(5)
    let second = LockedBox(0)
    onAnotherThread { second.value = root.value }
    #expect(first.value == 1)
    #expect(second.value == 11, "a pass of the first thread counted for the second")
  }

  /// Each write renumbers the pass anew, also a write right after another with nothing
  /// computed between them: a value checked (and found unchanged) after the first write is
  /// checked again after the second, which changed its input.
  @Test func eachOfTwoWritesDuringTheReadRenumbersThePass() {
    let model = HandModel()
    let readsA = Computed { model.a }
    let readsB = Computed { model.b }
    // Read once, so both properties have versions that writes move.
    #expect(readsA.value == 0 && readsB.value == 0)
    let root = Computed { () -> Int in
      model.a = 1
      let before = readsB.value
      model.b = 5
      return before * 10 + readsB.value
    }
    let value = root.value
    #expect(value == 5, "the read after the second write returned \(value % 10)")
  }

  /// An announced write (one with a `willSet` listener, so the version moves when it begins)
  /// renumbers the pass when it begins, not only when it ends: code that runs inside the write
  /// after the value is stored, and reads a value checked earlier in the read, sees the new
  /// value.
  @Test func aReadInsideAnAnnouncedWriteAfterTheStoreSeesTheNewValue() {
    let model = WriteHookModel()
    let readsA = Computed { model.a }
    #expect(readsA.value == 0)
    let listener = withContinuousObservation(options: .willSet) { _ in _ = model.a }
    let root = Computed { () -> Int in
      let before = readsA.value
      var during = -1
      model.setA(5) { during = readsA.value }
      return before * 10 + during
    }
    let value = root.value
    #expect(value == 5, "the read inside the write returned \(value % 10)")
    withExtendedLifetime(listener) {}
  }
}

/// Holds a derived value strongly until a derivation drops it, and weakly for another one.
private final class ComputedHolder: @unchecked Sendable {
  var strong: Computed<Int>?
  weak var weak: Computed<Int>?
}

/// A model whose write runs code after storing the value, before the write ends (between its
/// `willSet` and its `didSet`).
private final class WriteHookModel: ReactiveState.Observable, @unchecked Sendable {
  private let registrar = ReactiveState.ObservationRegistrar()
  private var _a = 0
  var a: Int {
    registrar.access(self, keyPath: \.a)
    return _a
  }

  /// Sets `a` to `value`, then runs `body` inside the same write.
  func setA(_ value: Int, thenRun body: () -> Void) {
    registrar.withMutation(of: self, keyPath: \.a) {
      _a = value
      body()
    }
  }
}
