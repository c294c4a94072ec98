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
}
