import Foundation
import ReactiveState
import Testing

/// Behaviour of derived values that mutation testing of `Sources/ReactiveState/Derived/`
/// found unpinned: each test fails with a mutant of that code the rest of the suite let pass.
@Suite struct MutationFindingsDerivedTests {
  /// Pins that an orphan whose lingering ends while this thread reads it (a change held back
  /// at a stale input) is left stale when its edges go, so it validates by version again.
  @Test func anOrphanDroppingItsEdgesDuringItsOwnReadStillSeesLaterChanges() {
    let model = HandModel()
    let writeDuringCheck = LockedBox(false)
    let first = Computed("first") { () -> Bool in
      let nonNegative = model.a >= 0
      if writeDuringCheck.value {
        writeDuringCheck.value = false
        // The orphan is locked by this thread; `second` is stale, unlocked and marked.
        onAnotherThread { model.b += 1 }
      }
      return nonNegative
    }
    let second = Computed("second") { model.b >= 0 && model.a > -100 }
    let orphan = Computed("orphan") { (first.value ? 1 : 0) + (second.value ? 10 : 0) }
    observe { _ = orphan.value }.cancel()  // subscribed, then orphaned: lingering
    model.a = 1  // the first change it lingers through; its stale inputs are marked
    writeDuringCheck.value = true
    // The second change reaches it through `second` while its check runs: its edges go when
    // this read releases its lock, after the read settled it unchanged.
    #expect(orphan.value == 11)
    model.a = -1
    #expect(orphan.value == 10, "unlinked, the value must validate its inputs on every read")
  }

  /// Pins that a derivation which stops reading a temporary derived value releases it at
  /// once, and with it that value's links to its inputs.
  @Test func aTemporaryValueTheDerivationStopsReadingIsReleasedWithItsLinks() {
    let model = HandModel()
    let outer = Computed { () -> Int in
      guard model.b == 0 else { return -1 }
      let inner = Computed { model.a * 2 }
      return inner.value
    }
    let seen = Box<[Int]>([])
    let token = observe { seen.value.append(outer.value) }
    #expect(model.aDidSetListeners == 1, "observed through the temporary value")
    model.b = 1
    #expect(seen.value == [0, -1])
    #expect(model.aDidSetListeners == 0, "the value no longer read is gone, and its links too")
    withExtendedLifetime(token) {}
  }

  /// Pins that a derivation reading itself does not become its own input: read again with
  /// nothing changed, it is neither recomputed nor reported again.
  @Test func aValueThatReadsItselfIsNotItsOwnInput() {
    let model = HandModel()
    let holder = Box<Computed<Int>?>(nil)
    let computations = Box(0)
    let selfish = Computed("selfish") { () -> Int in
      computations.value += 1
      return model.a + ((try? holder.value?.get()) ?? 0)
    }
    holder.value = selfish
    let first = ObservationDiagnostics.capture { #expect(selfish.value == 0) }
    #expect(first.count == 1)
    let second = ObservationDiagnostics.capture { #expect(selfish.value == 0) }
    #expect(second.isEmpty, "nothing it read changed: no computation, no cycle")
    #expect(computations.value == 1)
    holder.value = nil
  }
}
