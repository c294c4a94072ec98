import Foundation
import ReactiveState
import Testing

/// A one-shot registration that read exactly one property, with no other `willSet` listener
/// on it, is parked in that property's slot instead of being linked into the graph. These
/// tests pin what must stay true across the two paths: registration order, a re-arm from
/// `onChange` not reached by the same write, release without a call, and exactly-once
/// delivery when many threads park, fire and recycle observers on one property.
@Suite struct ParkedOneShotTests {
  /// The parked registration (the first) is called before graph listeners registered after
  /// it, in registration order. ReactiveState only: the toolchain's order is unspecified.
  @Test func aParkedRegistrationIsCalledBeforeLaterGraphRegistrations() {
    let model = HandModel()
    let calls = Box<[String]>([])
    ReactiveState.withObservationTracking({ _ = model.a }, onChange: { calls.value.append("solo") })
    ReactiveState.withObservationTracking(
      { _ = model.a + model.b }, onChange: { calls.value.append("pair") })
    ReactiveState.withObservationTracking(
      { _ = model.a }, onChange: { calls.value.append("second solo") })
    model.a = 1
    #expect(calls.value == ["solo", "pair", "second solo"])
    model.a = 2
    #expect(calls.value.count == 3, "all three were one-shots")
  }

  /// An `onChange` that re-arms on the same property parks a new registration while the write
  /// that fired it is still announcing itself: that write must not reach it, with or without
  /// graph listeners on the property (the graph walk happens before the first call).
  @Test(arguments: [false, true])
  func aReArmFromOnChangeWaitsForTheNextWrite(withGraphListener: Bool) {
    let model = HandModel()
    let fires = Box(0)
    let graphFires = Box(0)
    @Sendable func arm() {
      ReactiveState.withObservationTracking(
        { _ = model.a },
        onChange: {
          fires.value += 1
          arm()
        })
    }
    arm()
    if withGraphListener {
      ReactiveState.withObservationTracking(
        { _ = model.a + model.b }, onChange: { graphFires.value += 1 })
    }
    for value in 1...3 {
      model.a = value
      #expect(fires.value == value, "one call per write")
    }
    #expect(graphFires.value == (withGraphListener ? 1 : 0))
  }

  /// A parked registration whose object goes away is released without being called (the
  /// 6.3.1 behaviour, as for linked registrations).
  @Test func aParkedRegistrationIsReleasedUncalledWithItsObject() {
    var model: HandModel? = HandModel()
    let fired = Box(false)
    weak var canary: Canary?
    do {
      let captured = Canary()
      canary = captured
      ReactiveState.withObservationTracking(
        { _ = model!.a },
        onChange: {
          _ = captured
          fired.value = true
        })
    }
    #expect(canary != nil, "pending: the registration keeps its closure")
    model = nil
    #expect(canary == nil, "released with the object")
    #expect(!fired.value)
  }

  /// Threads arm one-property one-shots on one shared property and write it, over and over:
  /// parks, fires, re-parks of pooled observers and missed-change reclaims all race. Every
  /// registration is called exactly once (a final write flushes the last ones) and every
  /// closure is released.
  @Test func manyThreadsParkingOnOnePropertyCallEachRegistrationOnce() {
    let model = ReactiveProbeModel()  // storage behind a lock: the model itself is race-free
    let threads = 4
    let rounds = 5_000
    let armed = AtomicCounter()
    let calls = AtomicCounter()
    let doubleCalls = AtomicCounter()
    let released = AtomicCounter()
    let group = DispatchGroup()
    for thread in 0..<threads {
      group.enter()
      Thread.detachNewThread {
        for round in 0..<rounds {
          let once = CallOnceProbe(released: released)
          ReactiveState.withObservationTracking(
            { _ = model.value },
            onChange: {
              if once.call() { calls.increment() } else { doubleCalls.increment() }
            })
          armed.increment()
          if round % 3 != 0 { model.value = thread * rounds + round + 1 }
        }
        group.leave()
      }
    }
    group.wait()
    model.value = -1
    #expect(doubleCalls.value == 0)
    #expect(calls.value == armed.value)
    #expect(released.value == armed.value, "no registration outlives its call")
  }
}

/// Counts its own calls and its release.
private final class CallOnceProbe: @unchecked Sendable {
  private let lock = NSLock()
  private var called = false
  private let released: AtomicCounter

  init(released: AtomicCounter) { self.released = released }

  deinit { released.increment() }

  /// True the first time.
  func call() -> Bool {
    lock.lock()
    defer { lock.unlock() }
    if called { return false }
    called = true
    return true
  }
}

/// Where registrations go: the first one-property one-shot parks, the rest link.
@Suite struct ParkingPlacementTests {
  @Test func onlyAOnePropertyOneShotWithNoOtherWillSetListenerParks() {
    let probe = HandModel()
    let calls = Box<[String]>([])
    ReactiveState.withObservationTracking(
      { _ = probe.a + probe.b }, onChange: { calls.value.append("two properties") })
    #expect(!probe.aHasParkedOneShot, "two properties read: linked")
    #expect(probe.aWillSetListeners == 1)
    probe.b = 1  // fires and unlinks it
    #expect(probe.aWillSetListeners == 0)

    ReactiveState.withObservationTracking(
      { _ = probe.a }, onChange: { calls.value.append("a") })
    #expect(probe.aHasParkedOneShot, "one property, nobody else listening: parked")
    #expect(probe.aWillSetListeners == 0)
    ReactiveState.withObservationTracking(
      { _ = probe.a }, onChange: { calls.value.append("b") })
    #expect(probe.aWillSetListeners == 1, "the place is taken: the second one links")
    probe.a = 1
    #expect(calls.value == ["two properties", "a", "b"])
    #expect(!probe.aHasParkedOneShot && probe.aWillSetListeners == 0, "all gone")
  }
}
