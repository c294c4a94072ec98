import ReactiveState
import Testing

/// Behaviour of derived values that the third round of mutation testing of
/// `Sources/ReactiveState/Derived/` found unpinned: each test fails with a mutant of that code
/// the rest of the suite let pass.
@Suite struct MutationFindingsDerivedRound3Tests {
  /// Pins that a value orphaned while stale (its observer's run was still queued on a
  /// scheduler when it was cancelled) still ends its lingering when later changes stop at the
  /// stale derived value it reads: the second such change drops its links and that value's.
  @Test func anOrphanLeftStaleWhenItsObserverGoesStillDropsItsLinks() {
    let model = HandModel()
    let doubled = Computed { model.a * 2 }
    let orphan = Computed { doubled.value + 1 }
    let scheduler = ManualScheduler()
    let token = observe(scheduler: scheduler) { _ = orphan.value }
    scheduler.flush()
    model.a = 1  // the run is queued: `orphan` and `doubled` stay stale
    #expect(scheduler.pendingCount == 1)
    token.cancel()
    scheduler.flush()
    #expect(model.aDidSetListeners == 1)
    model.a = 2  // stops at the stale `doubled`
    #expect(model.aDidSetListeners == 1, "kept through the first change")
    model.a = 3
    #expect(model.aDidSetListeners == 0, "dropped by the second change after it was orphaned")
    #expect(orphan.value == 7)
  }

  /// Pins that a one-shot registration over a temporary derived value (made and released
  /// inside `apply`) whose upstream links went before the installation — an untracked read
  /// recomputed it, unobserved, after `apply` wrote its input — is told of that write at once:
  /// with no links left, nothing could tell it of a change, so one is assumed.
  @Test func aOneShotOverATemporaryValueLeftUnlinkedHearsTheWriteMadeInItsApply() {
    let model = HandModel()
    let fired = Box(0)
    ReactiveState.withObservationTracking(
      {
        let temporary = Computed { model.a * 2 }
        #expect(temporary.value == 0)
        model.a = 1
        #expect(ReactiveState.withoutObservationTracking { temporary.value } == 2)
      }, onChange: { fired.value += 1 })
    #expect(fired.value == 1, "the write made after the tracked read is a change")
  }

  /// Pins that an orphan whose lingering ends while this thread holds it (checking its inputs,
  /// one of whose computations has another thread write an input) drops its links when the
  /// check releases it: its derived inputs, orphaned in turn, then linger and go too.
  @Test func anOrphanWhoseLingeringEndsWhileItIsCheckedDropsItsLinksAfterTheCheck() {
    let model = HandModel()
    let writeDuringCheck = LockedBox(false)
    let first = Computed { () -> Bool in
      let nonNegative = model.a >= 0
      if writeDuringCheck.value {
        writeDuringCheck.value = false
        onAnotherThread { model.b += 1 }  // reaches the orphan through `second`: the last change
      }
      return nonNegative
    }
    let second = Computed { model.b >= 0 && model.a > -100 }
    let orphan = Computed { (first.value ? 1 : 0) + (second.value ? 10 : 0) }
    observe { _ = orphan.value }.cancel()
    model.a = 1  // the first change it lingers through
    writeDuringCheck.value = true
    #expect(orphan.value == 11)  // settled unchanged: its links go as its lock is released
    #expect(model.aDidSetListeners == 2, "`first` and `second`, lingering")
    model.a = 2
    #expect(model.aDidSetListeners == 2, "kept through the first change")
    model.a = 3
    #expect(model.aDidSetListeners == 0, "its inputs, orphaned by the drop, lingered and went")
    model.a = -1
    #expect(orphan.value == 10)
  }

  /// Found on the way: a one-shot whose `apply` read a temporary derived value that read
  /// nothing (a constant) never fires, as the toolchain's registration over a computed
  /// property that reads nothing observable (it installs none). Until session 43 it fired
  /// right after `apply`, which re-arming code (a view that re-evaluates on `onChange`) turns
  /// into an endless loop. A temporary value that read an input still fires (the test above).
  @Test func aOneShotOverATemporaryConstantValueNeverFires() {
    let model = HandModel()
    let fired = Box(0)
    ReactiveState.withObservationTracking(
      {
        _ = model.b
        _ = Computed { 42 }.value
      }, onChange: { fired.value += 1 })
    #expect(fired.value == 0, "nothing changed")
    model.a = 1
    #expect(fired.value == 0, "not read")
    model.b = 1
    #expect(fired.value == 1, "the direct read still fires")
  }
}
