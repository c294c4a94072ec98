import ReactiveState
import Testing

/// `ObservationRegistrar.didSet` without its `willSet` is unsupported; what it does is
/// documented (README, "willSet and didSet come in pairs"; the `didSet(_:keyPath:)` contract),
/// and these tests pin it. Corrected after the session-41 documentation audit, which found the
/// old wording ("the property looks written") false for a property never announced before.
@Suite struct LoneDidSetTests {
  /// On a property whose writes were never announced with `willSet`, a lone `didSet` ends as a
  /// write announced late: a pending one-shot fires, and nothing is left behind.
  @Test func onAPropertyNeverAnnouncedItIsAWriteAnnouncedLate() {
    let model = HandModel()
    let pending = Box(0)
    withObservationTracking {
      _ = model.a
    } onChange: {
      pending.value += 1
    }
    model.registrar.didSet(model, keyPath: \.a)
    #expect(pending.value == 1, "the pending one-shot fired")
    let later = armedOnAnotherThread(reading: model)
    #expect(later.value == 0, "a one-shot armed afterwards waits for a write")
    model.a = 1
    #expect(later.value == 1)
  }

  /// After an announced write (a `willSet`/`didSet` pair), a lone `didSet` leaves the property
  /// looking written, with a write in flight, until its next write: a one-shot armed on
  /// another thread meanwhile fires at once.
  @Test func afterAnAnnouncedWriteItLeavesThePropertyLookingWritten() {
    let model = HandModel()
    withObservationTracking {
      _ = model.a
    } onChange: {
    }
    model.registrar.willSet(model, keyPath: \.a)
    model.registrar.didSet(model, keyPath: \.a)
    model.registrar.didSet(model, keyPath: \.a)
    let fired = armedOnAnotherThread(reading: model)
    #expect(fired.value == 1, "armed while a write looks in flight, it fires at once")
  }

  /// Arms a one-shot on `model.a` on another thread; the box counts its calls.
  private func armedOnAnotherThread(reading model: HandModel) -> LockedBox<Int> {
    let fired = LockedBox(0)
    onAnotherThread {
      withObservationTracking {
        _ = model.a
      } onChange: {
        fired.value += 1
      }
    }
    return fired
  }
}
