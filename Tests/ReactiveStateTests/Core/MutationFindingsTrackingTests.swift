import ReactiveState
import Testing

/// Behaviour of the tracking layer that mutation testing of `Sources/ReactiveState/Tracking/`
/// found unpinned: each test fails with a mutant of that code the rest of the suite let pass.
@Suite struct MutationFindingsTrackingTests {
  /// Pins that a property read again after a derived value computed inside the same run
  /// (whose scope re-stamps it) links the observer to it once, and it hears each edge once.
  @Test func aPropertyReadAgainAfterANestedComputationIsLinkedOnce() {
    let model = HandModel()
    let doubled = Computed { model.a * 2 }
    let events = Box<[String]>([])
    let token = withContinuousObservation(options: [.willSet, .didSet]) { event in
      let before = model.a
      let derived = doubled.value  // computed in this run: its scope reads `a` too
      let other = model.b  // so the next read of `a` is not taken for a repeat of the last
      events.value.append("\(event.kind) \(before) \(derived) \(other) \(model.a)")
    }
    model.a = 1
    model.a = 2
    #expect(
      events.value == [
        "initial 0 0 0 0", "willSet 0 0 0 0", "didSet 1 2 0 1", "willSet 1 2 0 1",
        "didSet 2 4 0 2",
      ])
    #expect(model.aDidSetListeners == 2, "the observer and the derived value, once each")
    withExtendedLifetime(token) {}
  }

  /// Pins that a derived value linked to a property after a write's walk, while the observer
  /// that walk reached still waits, makes the next write of it walk again (and reach it).
  @Test func aDerivedValueLinkedWhileAnObserverWaitsHearsTheNextWrite() {
    let model = HandModel()
    let token = observe(scheduler: ManualScheduler()) { _ = model.a + model.b }
    model.a = 1  // walked: the observer waits for its scheduler
    let doubled = Computed { model.a * 2 }
    ReactiveState.withObservationTracking {
      _ = doubled.value  // links the derived value to `a`
    } onChange: {
    }
    model.a = 2
    #expect(doubled.value == 4, "the second write must not skip its walk")
    withExtendedLifetime(token) {}
  }

  /// Pins that an observer parked in a property's slot runs at every write of it, also at a
  /// write that skips its walk (the observers that the last walk reached still wait).
  @Test func aParkedObserverRunsAtAWriteThatSkipsItsWalk() {
    let model = HandModel()
    let parkedRuns = Box<[Int]>([])
    let parked = observe { parkedRuns.value.append(model.a) }
    let waiting = observe(scheduler: ManualScheduler()) { _ = model.a + model.b }
    model.a = 1  // walked: the scheduled observer waits
    model.a = 2  // nothing consumed a change since: no walk
    #expect(model.aHasParkedContinuousObserver)
    #expect(parkedRuns.value == [0, 1, 2])
    withExtendedLifetime((parked, waiting)) {}
  }
}
