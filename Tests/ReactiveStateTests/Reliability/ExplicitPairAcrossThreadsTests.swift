import Foundation
import ReactiveState
import Testing

/// An explicit `willSet`/`didSet` pair split across threads (an `inout` access held across a
/// suspension): nothing may look in flight once the write is over. A review found it broken
/// by a per-thread count of open pairs (since removed).
@Suite struct ExplicitPairAcrossThreadsTests {
  typealias SteppedModel = ExplicitMutationPairTests.SteppedModel

  /// Whether a one-shot over `model.value` armed now (nothing written after) fires.
  static func oneShotFiresWithNoWrite(_ read: () -> Void) -> Bool {
    let fired = AtomicCounter()
    ReactiveState.withObservationTracking({ read() }, onChange: { fired.increment() })
    return fired.value == 1
  }

  /// An explicit pair whose `willSet` runs on one thread and whose `didSet` on another (the
  /// write is fully over; e.g. `await f(&model.a)`, whose `_modify` access ends after the task
  /// resumed elsewhere): nothing may look in flight afterwards. Observation does not care
  /// which thread calls `didSet`.
  @Test func aPairSplitAcrossThreadsLeavesNoWriteInFlight() {
    let model = SteppedModel()
    _ = ReactiveState.withObservationTracking({ model.value }, onChange: {})
    model.value = 0  // the object has slots
    onAnotherThread { model.beginWrite() }
    onAnotherThread {
      model.store(1)
      model.endWrite()
    }
    #expect(model.value == 1)
    #expect(!Self.oneShotFiresWithNoWrite { _ = model.value }, "no write is in flight")
  }

  /// An SE-0506 registration hears a pair whose `didSet` runs on another thread: that `didSet`
  /// ends the mutation it waits for. It took the `didSet` for another mutation (it matched
  /// pairs by thread), waited for ever, and took every later write on this thread for one
  /// nested in that mutation: nothing more was delivered.
  @Test(arguments: [
    ObservationTracking.Options.didSet, [.willSet, .didSet],
  ])
  func anEventRegistrationHearsAPairEndedOnAnotherThread(options: ObservationTracking.Options) {
    let model = SteppedModel()
    let kinds = LockedBox<[String]>([])
    ReactiveState.withObservationTracking(options: options) {
      _ = model.value
    } onChange: { event in
      kinds.value.append("\(event.kind)")
    }
    let expected = options.contains(.willSet) ? ["willSet", "didSet"] : ["didSet"]
    model.beginWrite()
    onAnotherThread {
      model.store(1)
      model.endWrite()
    }
    #expect(kinds.value == expected)
    let later = LockedBox<[String]>([])
    ReactiveState.withObservationTracking(options: options) {
      _ = model.value
    } onChange: { event in
      later.value.append("\(event.kind)")
    }
    model.value = 2
    #expect(kinds.value == expected, "one-shot per mutation")
    #expect(later.value == expected, "a later registration hears an ordinary write")
  }

  /// The case pairs were matched by thread for: another thread's whole write of the property
  /// lands inside the mutation a registration waits for (between its `willSet` and its
  /// store). Its `didSet` must not end the mutation: the registration's `didSet` comes after
  /// the mutation's own store.
  @Test func anEventRegistrationPassesOverTheDidSetOfAWriteInsideItsMutation() {
    let model = SteppedModel()
    let seen = LockedBox<[String]>([])
    ReactiveState.withObservationTracking(options: [.willSet, .didSet]) {
      _ = model.value
    } onChange: { event in
      seen.value.append("\(event.kind) \(model.value)")
    }
    model.beginWrite()
    onAnotherThread { model.value = 1 }
    #expect(seen.value == ["willSet 0"])
    model.store(2)
    model.endWrite()
    #expect(seen.value == ["willSet 0", "didSet 2"])
  }
}
