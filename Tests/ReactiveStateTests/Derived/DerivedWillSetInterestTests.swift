import Foundation
import Observation
import ReactiveState
import Testing

/// A derived value wants `willSet` from its inputs only while something downstream reacts to
/// `willSet` (a one-shot registration, an event observer): a write then walks `willSet`
/// through a derived subgraph only when that walk can reach someone.
@Suite struct DerivedWillSetInterestTests {
  /// A continuous `willSet` observer of a derived value hears every write of its input,
  /// before the store (the derived value's new value cannot be known then, so its equality
  /// cut-off applies to `didSet` only).
  @Test func continuousWillSetEventsReachAnObserverOfADerivedValue() {
    let model = HandModel()
    let tenfold = Computed { model.a * 10 }
    let both = Box<[String]>([])
    let bothToken = withContinuousObservation(options: [.willSet, .didSet]) { event in
      both.value.append("\(event.kind) \(tenfold.value)")
    }
    let willSetOnly = Box<[String]>([])
    let willSetToken = withContinuousObservation(options: [.willSet]) { event in
      willSetOnly.value.append("\(event.kind) \(tenfold.value)")
    }
    model.a = 1
    model.a = 2
    model.a = 3
    #expect(
      both.value == [
        "initial 0", "willSet 0", "didSet 10", "willSet 10", "didSet 20", "willSet 20", "didSet 30",
      ])
    #expect(willSetOnly.value == ["initial 0", "willSet 0", "willSet 10", "willSet 20"])
    withExtendedLifetime((bothToken, willSetToken)) {}
  }

  /// A one-shot re-armed from its `onChange` through a derived value fires once per write,
  /// as the toolchain's does through a computed property: the write whose `willSet` re-armed
  /// it does not fire it again at its `didSet`.
  @Test func aOneShotReArmedThroughADerivedValueFiresOncePerWrite() {
    let oracle = OracleModel()
    let oracleLog = Box<[Int]>([])
    @Sendable func armOracle() {
      Observation.withObservationTracking {
        _ = oracle.sum
      } onChange: {
        oracleLog.value.append(oracle.sum)
        armOracle()
      }
    }
    armOracle()
    let model = HandModel()
    let sum = Computed { model.a + model.b }
    let log = Box<[Int]>([])
    @Sendable func arm() {
      ReactiveState.withObservationTracking {
        _ = sum.value
      } onChange: {
        log.value.append(sum.value)
        arm()
      }
    }
    arm()
    for value in 1...3 {
      oracle.a = value
      model.a = value
    }
    #expect(oracleLog.value == [0, 1, 2])
    #expect(log.value == oracleLog.value)
  }

  @Test func willSetInterestFollowsTheOneShotsDownstream() {
    let model = HandModel()
    let doubled = Computed { model.a * 2 }
    let quadrupled = Computed { doubled.value * 2 }
    let runs = Box(0)
    let token = observe {
      _ = quadrupled.value
      runs.value += 1
    }
    #expect(model.aWillSetListeners == 0, "continuous observers react to didSet only")

    let fired = Box(0)
    ReactiveState.withObservationTracking(
      { _ = quadrupled.value }, onChange: { fired.value += 1 })
    #expect(model.aWillSetListeners == 1, "a one-shot two derived values down wants willSet")

    model.a = 1
    #expect(fired.value == 1)
    #expect(runs.value == 2)
    #expect(quadrupled.value == 4)
    #expect(model.aWillSetListeners == 0, "and stops wanting it once the one-shot fired")

    model.a = 2
    #expect(fired.value == 1)
    #expect(runs.value == 3, "the continuous observer still sees every change")
    token.cancel()
  }

  /// A one-shot registration that reads a derived value while a write of its input is in
  /// flight — after that write's `willSet` walk — is armed before the derived value is
  /// invalidated (the value is current and observed, so the read takes its cached value). The
  /// write's `didSet` walk reaches it through the derived value and fires it (late, after the
  /// store) instead of losing the change.
  @Test func aOneShotArmedDuringAWriteOfADerivedInputIsNotLost() {
    let write = WriteInFlight()
    #expect(write.earlyCalls.value == 1, "the write announced willSet first")

    let fired = AtomicCounter()
    ReactiveState.withObservationTracking(
      { _ = write.doubled.value }, onChange: { fired.increment() })
    #expect(fired.value == 0, "armed: the derived value was not invalidated yet")
    write.finish()
    #expect(fired.value == 1, "the didSet walk through the derived value fires it")
    #expect(write.doubled.value == 2)
  }
}

/// The same interleaving for registrations with events: the change is delivered late, as a
/// `.didSet` when that was requested, else as the `.willSet` it missed.
@Suite struct DerivedEventInterleavingTests {
  @Test(arguments: [
    ReactiveState.ObservationTracking.Options.willSet, .didSet, [.willSet, .didSet],
  ])
  func anEventRegistrationArmedDuringAWriteOfADerivedInputIsNotLost(
    options: ReactiveState.ObservationTracking.Options
  ) {
    let write = WriteInFlight()
    let kinds = Box<[ReactiveState.ObservationTracking.Event.Kind]>([])
    let lock = NSLock()
    ReactiveState.withObservationTracking(options: options) {
      _ = write.doubled.value
    } onChange: { event in
      lock.withLock { kinds.value.append(event.kind) }
    }
    #expect(lock.withLock { kinds.value.isEmpty }, "armed before the derived value changed")
    write.finish()
    let expected: ReactiveState.ObservationTracking.Event.Kind =
      options.contains(.didSet) ? .didSet : .willSet
    #expect(lock.withLock { kinds.value } == [expected])
  }
}

/// A derived value over a `GatedModel`, kept current and linked by an observer, and a write
/// of its input paused on another thread after announcing `willSet` (a parked one-shot makes
/// it announce): a registration armed meanwhile reads the cached value and misses that
/// `willSet`.
private final class WriteInFlight: @unchecked Sendable {
  let model = GatedModel()
  let doubled: Computed<Int>
  /// Calls of the parked one-shot that made the write announce `willSet`.
  let earlyCalls = AtomicCounter()
  private let keeper: ObservationToken
  private let written = DispatchSemaphore(value: 0)

  init() {
    let model = model
    let doubled = Computed { model.a * 2 }
    self.doubled = doubled
    keeper = observe { _ = doubled.value }
    let early = earlyCalls
    ReactiveState.withObservationTracking({ _ = model.a }, onChange: { early.increment() })
    model.pausesInMutation = true
    let written = written
    Thread.detachNewThread {
      model.a = 1
      written.signal()
    }
    model.inMutation.wait()
  }

  /// Lets the write store and return, then stops the observer.
  func finish() {
    model.resume.signal()
    written.wait()
    keeper.cancel()
  }
}

/// One observable property whose writes can pause between `willSet` and the store, to force
/// an interleaving with another thread.
private final class GatedModel: ReactiveState.Observable, @unchecked Sendable {
  private let registrar = ReactiveState.ObservationRegistrar()
  private var _a = 0
  var pausesInMutation = false
  let inMutation = DispatchSemaphore(value: 0)
  let resume = DispatchSemaphore(value: 0)

  var a: Int {
    get {
      registrar.access(self, keyPath: \.a)
      return _a
    }
    set {
      registrar.withMutation(of: self, keyPath: \.a) {
        if pausesInMutation {
          inMutation.signal()
          resume.wait()
        }
        _a = newValue
      }
    }
  }
}
