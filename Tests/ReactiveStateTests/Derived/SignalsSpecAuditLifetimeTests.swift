import Foundation
import ReactiveState
import Testing

/// The signals research note's statements (`signals.md` §2.6, §4, §5.2–5.3) about errors,
/// untracked reads, self-invalidating derivations, edges and threads that no other test
/// pinned, run against `Computed`.
@Suite struct SignalsSpecAuditLifetimeTests {
  /// §4.2 (littensy/charm#69: "a computed that throws on its first evaluation returns nil
  /// forever afterwards"): a value whose first computation throws, observed through a chain,
  /// caches that error for every reader until an input changes, then recovers — for its
  /// observer and for reads outside tracking (the lock-free path for an `Int`).
  @Test func aValueWhoseFirstComputationThrowsRecoversWhileObserved() throws {
    struct Failure: Error {}
    let model = HandModel()
    model.a = -1
    let computations = Box(0)
    let checked = Computed { () throws -> Int in
      computations.value += 1
      if model.a < 0 { throw Failure() }
      return model.a
    }
    let doubled = Computed { () throws -> Int in try checked.get() * 2 }
    let seen = Box<[String]>([])
    let token = observe {
      do { seen.value.append("\(try doubled.get())") } catch { seen.value.append("error") }
    }
    for _ in 0..<3 {
      #expect(throws: Failure.self) { try checked.get() }
      #expect(throws: Failure.self) { try doubled.get() }
    }
    model.b = 1  // not an input
    #expect(computations.value == 1, "the error is cached for every reader")
    model.a = 2
    #expect(seen.value == ["error", "4"])
    #expect(try checked.get() == 2)
    #expect(try doubled.get() == 4)
    #expect(computations.value == 2)
    withExtendedLifetime(token) {}
  }

  /// §1 "untracked reads" and the docs' "inside any of these closures,
  /// `withoutObservationTracking` reads state without making it a dependency": a derived value
  /// read untracked inside an observer or inside another derivation is no dependency of
  /// either, is still current when read, and keeps no edge to its input.
  @Test func anUntrackedReadOfADerivedValueIsNoDependency() {
    let model = HandModel()
    let doubled = Computed { model.a * 2 }
    let runs = Box<[Int]>([])
    let token = observe {
      runs.value.append(model.b + withoutObservationTracking { doubled.value })
    }
    let outerComputations = Box(0)
    let outer = Computed {
      outerComputations.value += 1
      return model.c + withoutObservationTracking { doubled.value }
    }
    let seen = Box<[Int]>([])
    let outerToken = observe { seen.value.append(outer.value) }
    model.a = 1
    #expect(runs.value == [0], "not the observer's dependency")
    #expect(seen.value == [0], "not the derivation's dependency")
    #expect(outerComputations.value == 1)
    #expect(model.aDidSetListeners == 0, "nothing links the derived value to its input")
    model.b = 10
    #expect(runs.value == [0, 12], "the untracked read is current")
    model.c = 1
    #expect(seen.value == [0, 3])
    withExtendedLifetime((token, outerToken)) {}
  }

  /// alien-signals#21 ("a computed that writes its own dependency is not re-evaluated"): a
  /// derivation that advances the input it read. Its cached value is stale as soon as its
  /// computation returns, so every read outside tracking recomputes until it settles, and each
  /// returns the value derived from the state at that read.
  @Test func aDerivationThatWritesItsInputIsRecomputedByTheNextRead() {
    let model = HandModel()
    let advancing = Computed { () -> Int in
      let value = model.a
      if value < 3 { model.a = value + 1 }
      return value
    }
    for read in 0..<6 {
      let state = model.a
      #expect(advancing.value == state, "read \(read)")
    }
    #expect(model.a == 3)
  }

  /// §2.6 and the docs' "read without observers it keeps no upstream edges": a diamond read
  /// only outside tracking — its inner values read inside its derivations — links nothing to
  /// its input, recomputes only after a change, and is freed with its last reference.
  @Test func anUnobservedDiamondKeepsNoEdgesAndIsFreed() {
    let model = HandModel()
    let computations = Box(0)
    weak var weakBottom: Computed<Int>?
    weak var weakLeft: Computed<Int>?
    do {
      let left = Computed { model.a + 1 }
      let right = Computed { model.a * 10 }
      let bottom = Computed {
        computations.value += 1
        return left.value + right.value
      }
      (weakBottom, weakLeft) = (bottom, left)
      for value in 1...3 {
        model.a = value
        #expect(bottom.value == 11 * value + 1)
        #expect(bottom.value == 11 * value + 1)
        #expect(model.aDidSetListeners == 0, "no edge while unobserved")
      }
      #expect(computations.value == 3, "once per change, none per read")
    }
    #expect(weakBottom == nil)
    #expect(weakLeft == nil)
  }

  /// §2.6 "when it loses its last subscriber, it unlinks upstream": a derived value that an
  /// observed derivation stops reading loses its edge to its input (after the lingering
  /// window) and is pushed nothing; read again, it recomputes once and is linked again.
  @Test func aValueAnObservedDerivationStopsReadingDropsItsEdges() {
    let model = HandModel()
    let innerComputations = Box(0)
    let inner = Computed {
      innerComputations.value += 1
      return model.a * 2
    }
    let outer = Computed { model.c == 0 ? inner.value : model.b }
    let seen = Box<[Int]>([])
    let token = observe { seen.value.append(outer.value) }
    #expect(model.aDidSetListeners == 1)
    model.c = 1  // stops reading `inner`
    model.a = 1
    model.a = 2
    #expect(model.aDidSetListeners == 0, "read by no one: its edge is dropped")
    #expect(innerComputations.value == 1, "and nothing was computed for it")
    model.c = 0
    #expect(seen.value.last == 4)
    #expect(innerComputations.value == 2)
    #expect(model.aDidSetListeners == 1, "linked again")
    model.a = 3
    #expect(seen.value.last == 6)
    withExtendedLifetime(token) {}
  }

  /// §2.6 and the docs' "when its last observer goes away it … drops them at the second
  /// [change of its inputs]", for an orphan with a chain of derived values behind it: `top`
  /// reads the property and the chain's end, and after its observer left, two changes end
  /// its lingering. The chain it then orphans is stale (the first change reached it, and
  /// nobody read it), and a stale value passes on no later change: it used to linger, linked
  /// to the property, until read or freed — no change could ever end its lingering.
  @Test(arguments: [1, 3])
  func theStaleChainBehindAnExpiringOrphanDropsItsEdgesToo(depth: Int) {
    let model = HandModel()
    let top = Self.chain(depth, on: model) { model.a + $0 }
    let seen = Box<[Int]>([])
    var token = observe { seen.value.append(top.value) }
    token.cancel()
    model.a = 1
    model.a = 2
    #expect(model.aDidSetListeners == 0, "dropped by the second change")
    #expect(top.value == 2 + 2 + depth)
    token = observe { seen.value.append(top.value) }
    model.a = 3
    #expect(seen.value == [depth, 4 + depth, 6 + depth], "linked again when observed")
    token.cancel()
  }

  /// The same for an orphan that reads nothing but the chain: its first change leaves the
  /// chain stale, so the second change stops at the chain's first value. It used to stay
  /// linked to the property until read or freed (every write walking to that first value);
  /// the change held back there now counts for the orphan behind the stale chain.
  @Test(arguments: [1, 3])
  func anOrphanReadingOnlyDerivedValuesDropsItsEdgesByTheSecondChange(depth: Int) {
    let model = HandModel()
    let top = Self.chain(depth, on: model) { $0 }
    let token = observe { _ = top.value }
    token.cancel()
    model.a = 1
    model.a = 2
    #expect(model.aDidSetListeners == 0, "dropped by the second change")
    #expect(top.value == 2 + depth)
  }

  /// §2.4 "each node recomputed at most once per change" and the docs' "computations of one
  /// value are serialised", across threads: after each write, four threads read the value at
  /// once. Observed, the write's own thread brought it up to date (no reader computes);
  /// unobserved, exactly one reader computes it. No two computations ever overlap, and every
  /// read is the derivation of the write.
  @Test(arguments: [false, true])
  func concurrentReadersOfOneChangeComputeItOnce(observed: Bool) {
    let model = LockedPair()
    let computations = AtomicCounter()
    let occupancy = Occupancy()
    let sum = Computed { () -> Int in
      computations.increment()
      occupancy.enter()
      defer { occupancy.leave() }
      let (a, b) = model.both
      usleep(100)  // widens the window in which another reader could compute too
      return a + b
    }
    let token = observed ? observe { _ = sum.value } : nil
    let wrongCounts = AtomicCounter()
    let wrongValues = AtomicCounter()
    for round in 1...50 {
      model.set(round)
      let before = computations.value
      let start = DispatchSemaphore(value: 0)
      let done = DispatchGroup()
      for _ in 0..<4 {
        done.enter()
        Thread.detachNewThread {
          start.wait()
          if sum.value != 2 * round { wrongValues.increment() }
          done.leave()
        }
      }
      for _ in 0..<4 { start.signal() }
      done.wait()
      if computations.value - before != (observed ? 0 : 1) { wrongCounts.increment() }
    }
    #expect(wrongCounts.value == 0, "one computation per change, whoever reads it")
    #expect(wrongValues.value == 0)
    #expect(occupancy.overlaps == 0, "computations of one value never overlap")
    withExtendedLifetime(token) {}
  }
}

extension SignalsSpecAuditLifetimeTests {
  /// `depth` derived values in a chain, each its predecessor plus 1, the first `model.a + 1`,
  /// and a last one reading the chain's end through `top` (which may read more).
  static func chain(
    _ depth: Int, on model: HandModel, top: @escaping @Sendable (Int) -> Int
  ) -> Computed<Int> {
    var end = Computed { model.a + 1 }
    for _ in 1..<max(depth, 1) {
      let upstream = end
      end = Computed { upstream.value + 1 }
    }
    let last = end
    return Computed { top(last.value) }
  }
}

/// Counts the threads inside a section and how often one entered while another was inside.
private final class Occupancy: @unchecked Sendable {
  private let lock = NSLock()
  private var inside = 0
  private var overlapCount = 0

  func enter() {
    lock.lock()
    inside += 1
    if inside > 1 { overlapCount += 1 }
    lock.unlock()
  }

  func leave() {
    lock.lock()
    inside -= 1
    lock.unlock()
  }

  var overlaps: Int {
    lock.lock()
    defer { lock.unlock() }
    return overlapCount
  }
}
