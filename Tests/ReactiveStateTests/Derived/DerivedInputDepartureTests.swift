import Foundation
import ReactiveState
import ReactiveStateMacrosFree
import Testing

/// A derived value reads two objects and one of them is deallocated: no change (the value
/// computed meanwhile stands), and later changes of the other input still reach whoever
/// observes the value. The departure used to mark the value stale without telling anyone, and
/// a stale value stops every later walk before its subscribers. Found by a review.
@Suite struct DerivedInputDepartureTests {
  /// A derived value reads two objects; one is deallocated (no change: the value stands), then
  /// the other one changes. The observer of the derived value must see that change.
  @Test func aChangeAfterAnInputsObjectWentStillReachesTheObserver() {
    let holder = LockedBox<HandModel?>(HandModel())
    let other = HandModel()
    let value = Computed("value", isEqual: ==) { (holder.value?.a ?? -1) + 1000 * other.a }
    let seen = LockedBox<[Int]>([])
    let token = observe { seen.value.append(value.value) }
    #expect(seen.value == [0])
    holder.value = nil  // the object goes: no change
    other.a = 1
    #expect(seen.value.last == 999, "the observer missed a change of the other input")
    other.a = 2
    #expect(seen.value.last == 1999, "the observer missed a change of the other input")
    token.cancel()
  }

  @Test func sameWithAScheduler() {
    let holder = LockedBox<HandModel?>(HandModel())
    let other = HandModel()
    let value = Computed("value", isEqual: ==) { (holder.value?.a ?? -1) + 1000 * other.a }
    let seen = LockedBox<[Int]>([])
    let scheduler = ManualScheduler()
    let token = observe(scheduler: scheduler) { seen.value.append(value.value) }
    holder.value = nil
    other.a = 1
    scheduler.flush()
    #expect(seen.value.last == 999, "the observer missed a change of the other input")
    token.cancel()
  }

  @MainActor
  @Test func sameInAView() {
    struct Reader: View {
      let value: Computed<Int>
      var body: some View { Text("\(value.value)") }
    }
    let holder = LockedBox<HandModel?>(HandModel())
    let other = HandModel()
    let value = Computed("value", isEqual: ==) { (holder.value?.a ?? -1) + 1000 * other.a }
    let host = ViewHost(Reader(value: value), mode: .manual)
    holder.value = nil
    other.a = 1
    host.flush()
    #expect(host.texts == ["999"])
  }
}
