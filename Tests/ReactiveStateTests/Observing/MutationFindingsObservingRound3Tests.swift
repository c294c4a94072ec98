import ReactiveState
import Testing

/// Behaviour of the options form's registration that the third mutation-testing round of the
/// observing layer found unpinned (its other findings joined the suites of their topics).
@Suite struct MutationFindingsObservingRound3Tests {
  /// A write that announces itself only at its end (nobody listened to `willSet` when it
  /// began) delivers `.willSet` to a registration armed during it on another thread. A write
  /// of the property by a third thread, made from that `.willSet` callback, must not stand in
  /// for the mutation's `.didSet`: the `.didSet` comes after the callback returned, from the
  /// mutation's own end (see `EventObserver`).
  @Test func anotherThreadsWriteFromTheWillSetCallbackOfALateAnnouncementIsNotItsDidSet() {
    let model = HandDeferralModel()
    ReactiveState.withObservationTracking({ _ = model.x }, onChange: {})
    model.x = 0  // the property has a slot, and nobody listens to it now
    let log = LockedBox<[String]>([])
    model.onStoredX = {
      model.onStoredX = nil
      onAnotherThread {
        ReactiveState.withObservationTracking(options: [.willSet, .didSet]) {
          _ = model.x
        } onChange: { event in
          log.value.append("\(event.kind)")
          guard event.kind == .willSet else { return }
          onAnotherThread { model.x = 5 }
          log.value.append("willSet returns")
        }
      }
    }
    model.x = 1
    #expect(log.value == ["willSet", "willSet returns", "didSet"])
    #expect(model.x == 5)
  }
}
