import ReactiveState
import Testing

/// Behaviour of the observing layer (the options form's registration, transactions, one-shot
/// installation and diagnostics) that the third mutation-testing round found unpinned.
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

  /// An object read only through derived values is reported once, by the first of them to go:
  /// the next one to go finds its deallocation reported already, and the registration ends
  /// silently when that value was its last link (one `.deinit` per deallocated object, as
  /// for an object read through two computed properties).
  @Test func anObjectReadThroughTwoDerivedValuesIsReportedOnce() {
    var object: HandModel? = HandModel()
    var first: Computed<Int>? = Computed { [weak object] in object?.a ?? -1 }
    var second: Computed<Int>? = Computed { [weak object] in (object?.a ?? -1) + 1 }
    let log = Box<[String]>([])
    ReactiveState.withObservationTracking(options: [.deinit]) {
      _ = first!.value
      _ = second!.value
    } onChange: { event in
      log.value.append("\(event.kind)")
    }
    object = nil
    #expect(log.value.isEmpty, "reported when a value goes")
    first = nil
    #expect(log.value == ["deinit"])
    second = nil
    #expect(log.value == ["deinit"], "reported twice")
  }
}
