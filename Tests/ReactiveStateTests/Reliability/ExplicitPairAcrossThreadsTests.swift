import Foundation
import ReactiveState
import Testing

/// Explicit `willSet`/`didSet` pairs that are not nested on one thread: a pair split across
/// threads (an `inout` access held across a suspension), and a lone `didSet` inside another
/// property's pair. Nothing may look in flight once the writes are over. A review found both
/// broken by a per-thread count of open pairs; the count is per property now.
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

  /// A lone `didSet` of one property made inside an explicit pair of another (e.g. code run
  /// during a `_modify` yield) must not make the outer pair's own `didSet` look lone.
  @Test func aLoneDidSetInsideAnotherPropertysPairLeavesNoWriteInFlight() {
    let model = HandModel()
    _ = ReactiveState.withObservationTracking({ model.a + model.b }, onChange: {})
    // b was written on another thread before (its slot names a mutating thread).
    onAnotherThread { model.b = 5 }
    onAnotherThread { model.a = 1 }
    func announceB() { model.registrar.didSet(model, keyPath: \.b) }
    func mutate(_ value: inout Int, _ during: () -> Void) {
      during()
      value += 1
    }
    mutate(&model.a) { announceB() }
    #expect(model.a == 2)
    // Read on another thread than this one (the slot names this thread as the writer).
    let aFired = LockedBox(true)
    let bFired = LockedBox(true)
    onAnotherThread {
      aFired.value = Self.oneShotFiresWithNoWrite { _ = model.a }
      bFired.value = Self.oneShotFiresWithNoWrite { _ = model.b }
    }
    #expect(!aFired.value, "a's pair is over")
    #expect(!bFired.value, "b's lone didSet is over")
  }
}
