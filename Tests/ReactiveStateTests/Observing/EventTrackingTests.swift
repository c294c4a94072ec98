import ReactiveState
import Testing

/// SE-0506's options form: ordering of willSet/didSet/deinit, didSet sees the new value,
/// key-path matching, cancellation.
@Suite struct EventTrackingTests {
  @Test func willSetThenDidSetOfTheFirstMutationOnly() {
    let model = HandModel()
    let events = Box<[String]>([])
    ReactiveState.withObservationTracking(options: [.willSet, .didSet]) {
      _ = model.a
      _ = model.b
    } onChange: { event in
      events.value.append("\(event.kind) a=\(model.a) matchesA=\(event.matches(\HandModel.a))")
    }
    model.a = 5
    model.a = 6
    model.b = 1
    #expect(events.value == ["willSet a=0 matchesA=true", "didSet a=5 matchesA=true"])
  }

  /// The `.didSet` delivered belongs to the mutation whose `.willSet` was delivered, not to
  /// a write of the same property that the `.willSet` handler made.
  @Test func didSetIsTheDeliveredMutationsWhenTheWillSetHandlerWritesTheProperty() {
    let model = HandModel()
    let events = Box<[String]>([])
    ReactiveState.withObservationTracking(options: [.willSet, .didSet]) {
      _ = model.a
    } onChange: { event in
      events.value.append("\(event.kind) a=\(model.a)")
      if event.kind == .willSet { model.a = 5 }
    }
    model.a = 1
    #expect(events.value == ["willSet a=0", "didSet a=1"])
    #expect(model.a == 1)
  }

  @Test func didSetOnlySeesTheNewValue() {
    let model = HandModel()
    let seen = Box<[Int]>([])
    ReactiveState.withObservationTracking(options: .didSet) {
      _ = model.b
    } onChange: { _ in
      seen.value.append(model.b)
    }
    model.b = 7
    #expect(seen.value == [7])
  }

  @Test func cancellingAtWillSetSuppressesTheDidSet() {
    let model = HandModel()
    let kinds = Box<[String]>([])
    ReactiveState.withObservationTracking(options: [.willSet, .didSet]) {
      _ = model.a
    } onChange: { event in
      kinds.value.append("\(event.kind)")
      event.cancel()
    }
    model.a = 1
    #expect(kinds.value == ["willSet"])
  }

  @Test func deinitEventWhenTheTrackedObjectIsDeallocated() {
    let kinds = Box<[String]>([])
    var model: HandModel? = HandModel()
    ReactiveState.withObservationTracking(options: [.deinit]) {
      _ = model?.a
    } onChange: { event in
      kinds.value.append("\(event.kind) matches=\(event.matches(\HandModel.a))")
    }
    model?.a = 3  // .willSet/.didSet not requested: nothing, and the tracking stays
    #expect(kinds.value.isEmpty)
    model = nil
    #expect(kinds.value == ["deinit matches=false"])
  }

  /// A documented choice: an object deallocated before `apply` returns is not reported (the
  /// tracking never saw it alive); objects still alive stay tracked.
  @Test func anObjectDeallocatedDuringApplyIsNotReported() {
    let kinds = Box<[String]>([])
    var gone: HandModel? = HandModel()
    let kept = HandModel()
    ReactiveState.withObservationTracking(options: [.willSet, .deinit]) {
      _ = gone?.a
      _ = kept.a
      gone = nil
    } onChange: { event in
      kinds.value.append("\(event.kind)")
    }
    #expect(kinds.value.isEmpty)
    kept.a = 1
    #expect(kinds.value == ["willSet"])
  }

  @Test func eventOrderingWithAllOptions() {
    let kinds = Box<[String]>([])
    var model: HandModel? = HandModel()
    let other = HandModel()
    ReactiveState.withObservationTracking(options: [.willSet, .didSet, .deinit]) {
      _ = model?.a
      _ = other.a
    } onChange: { event in
      kinds.value.append("\(event.kind)")
    }
    model = nil
    other.a = 1
    #expect(kinds.value == ["deinit", "willSet", "didSet"])
  }

  /// A change that reaches a continuous event observer through a `Computed` names the written
  /// property, as the one-shot form's event does (and as a computed property's would: its
  /// getter read that property). Its key path used to be nil.
  @Test func anEventThroughADerivedValueNamesTheWrittenProperty() {
    let model = HandModel()
    let doubled = Computed { model.a * 2 }
    let continuous = Box<[Bool]>([])
    let token = withContinuousObservation(options: [.willSet, .didSet]) { event in
      _ = doubled.value
      if event.kind != .initial { continuous.value.append(event.matches(\HandModel.a)) }
    }
    let oneShot = Box<[Bool]>([])
    ReactiveState.withObservationTracking(options: [.willSet, .didSet]) {
      _ = doubled.value
    } onChange: { event in
      oneShot.value.append(event.matches(\HandModel.a))
    }
    model.a = 1
    #expect(oneShot.value == [true, true])
    #expect(continuous.value == [true, true])
    token.cancel()
  }

  /// A resource that must not be copied (SE-0506 declares the options form's result
  /// `~Copyable`).
  struct Handle: ~Copyable {
    let descriptor: Int
  }

  @Test func theResultMayBeNoncopyable() {
    let model = HandModel()
    model.a = 3
    let events = Box<[String]>([])
    let handle = ReactiveState.withObservationTracking(options: [.didSet]) {
      Handle(descriptor: model.a)
    } onChange: { event in
      events.value.append("\(event.kind)")
    }
    #expect(handle.descriptor == 3)
    model.a = 4
    #expect(events.value == ["didSet"], "the reads made while building the result are tracked")
  }
}
