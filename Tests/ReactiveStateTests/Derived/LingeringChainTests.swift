import Foundation
import ReactiveState
import Testing

/// A derived value whose last observer left lingers through two changes of its inputs, also
/// when it reads them only through other derived values that the first change left stale (a
/// change that stops at such a value counts for it): the rule of the `Computed` docs, beyond
/// `SignalsSpecAuditLifetimeTests`' plain case. `top` reads a chain of `depth` values over
/// `model.a` (see ``SignalsSpecAuditLifetimeTests/chain(_:on:top:)``).
@Suite struct LingeringChainTests {
  /// Writes that reach derived values the orphan does not read — one of them stale, so the
  /// walk stops there too — are no change of its inputs: it keeps its edges until the second
  /// change of `a`.
  @Test(arguments: [1, 3])
  func unrelatedChangesDoNotEndTheLingering(depth: Int) {
    let model = HandModel()
    let top = SignalsSpecAuditLifetimeTests.chain(depth, on: model) { $0 }
    let other = Computed { model.b * 2 }
    let otherEnd = Computed { other.value + 1 }
    let otherToken = observe { _ = otherEnd.value }
    observe { _ = top.value }.cancel()
    model.b = 1
    withTransaction {
      model.b = 2
      model.b = 3  // stops at `other`, stale until the transaction ends
    }
    #expect(model.aDidSetListeners == 1, "unrelated writes: still lingering")
    model.a = 1
    model.b = 4
    #expect(model.aDidSetListeners == 1, "one change of its inputs: still lingering")
    model.a = 2
    #expect(model.aDidSetListeners == 0, "dropped by the second change")
    #expect(top.value == 2 + depth)
    withExtendedLifetime(otherToken) {}
  }

  /// Observed again between the changes, then left again: the count starts over, and the
  /// second change after the last observer left drops the edges.
  @Test(arguments: [1, 3])
  func anOrphanObservedAgainLingersThroughTwoChangesAfterItsLastObserverLeftAgain(depth: Int) {
    let model = HandModel()
    let top = SignalsSpecAuditLifetimeTests.chain(depth, on: model) { $0 }
    let seen = Box<[Int]>([])
    observe { seen.value.append(top.value) }.cancel()
    model.a = 1
    let token = observe { seen.value.append(top.value) }
    #expect(model.aDidSetListeners == 1)
    token.cancel()
    model.a = 2
    #expect(model.aDidSetListeners == 1, "one change since its observer left")
    model.a = 3
    #expect(model.aDidSetListeners == 0, "dropped by the second change")
    #expect(seen.value == [depth, 1 + depth])
    #expect(top.value == 3 + depth)
  }

  /// An observer that leaves while the value is stale (inside a transaction, before it ran
  /// again): the chain behind it is stale already, and the next two changes still reach it.
  @Test(arguments: [1, 3])
  func anOrphanLeftStaleDropsItsEdgesByTheSecondChangeAfter(depth: Int) {
    let model = HandModel()
    let top = SignalsSpecAuditLifetimeTests.chain(depth, on: model) { $0 }
    let seen = Box<[Int]>([])
    let token = observe { seen.value.append(top.value) }
    withTransaction {
      model.a = 1
      token.cancel()
    }
    model.a = 2
    #expect(model.aDidSetListeners == 1, "one change since its observer left")
    model.a = 3
    #expect(model.aDidSetListeners == 0, "dropped by the second change")
    #expect(seen.value == [depth], "the observer left before it ran again")
    #expect(top.value == 3 + depth)
    let again = observe { seen.value.append(top.value) }
    model.a = 4
    #expect(seen.value == [depth, 3 + depth, 4 + depth], "linked again when observed")
    again.cancel()
  }

  /// A one-shot registration over the chain's end fires at the first change (inside its
  /// `willSet`, during the walk): the value it leaves lingers through that change and the next.
  @Test(arguments: [1, 3])
  func aValueAFiredOneShotLeftDropsItsEdgesByTheSecondChange(depth: Int) {
    let model = HandModel()
    let top = SignalsSpecAuditLifetimeTests.chain(depth, on: model) { $0 }
    let fired = Box(0)
    ReactiveState.withObservationTracking {
      _ = top.value
    } onChange: {
      fired.value += 1
    }
    model.a = 1
    #expect(fired.value == 1)
    #expect(model.aDidSetListeners == 1, "lingering through the change that fired it")
    model.a = 2
    #expect(model.aDidSetListeners == 0, "dropped by the second change")
    #expect(top.value == 2 + depth)
  }

  /// Four threads observe the chain's end, read it and leave, while another writes its input.
  /// Once they are done, two changes drop every edge, whatever state the churn left.
  @Test func observersChurningOnThreadsLeaveNoEdgesTwoChangesAfterTheyAreGone() {
    let model = LockedTriple()
    var end = Computed { model[0] + 1 }
    for _ in 1..<3 {
      let upstream = end
      end = Computed { upstream.value + 1 }
    }
    let last = end
    let top = Computed { last.value }
    let wrong = AtomicCounter()
    let churn: @Sendable (UInt64) -> Void = { seed in
      var random = SplitMix64(seed: seed)
      for _ in 0..<400 {
        switch random.below(3) {
        case 0:
          let token = observe { if top.value < 3 { wrong.increment() } }
          if random.oneIn(2) { _ = top.value }
          token.cancel()
        case 1:
          ReactiveState.withObservationTracking({ _ = top.value }, onChange: {})
        default:
          if top.value < 3 { wrong.increment() }
        }
      }
    }
    let writer: @Sendable () -> Void = {
      for value in 1...400 { model[0] = value }
    }
    let churners = (0..<4).map { seed -> @Sendable () -> Void in { churn(UInt64(seed)) } }
    runConcurrently([writer] + churners)
    // A one-shot left pending counts as an observer: fire any that are.
    model[0] = 1_000
    model[0] = 1_001
    model[0] = 1_002
    #expect(model.firstDidSetListeners == 0, "every edge dropped")
    #expect(top.value == 1_005)
    #expect(wrong.value == 0)
  }
}
