import Foundation
import ReactiveState
import Testing

/// Writes made with an explicit `willSet`/`didSet` pair (the shape of the macro's `_modify`
/// accessor) whose `willSet` finds the object never observed, so it does nothing, while a
/// first tracked read on another thread gives the object slots before the `didSet`. The
/// `didSet` must end the write as one that was never announced: it used to move the slot's
/// version once, leaving it odd at rest — the reader missed the store, every later one-shot
/// fired at once, and later writes in flight looked settled. Found by a review; ReactiveState
/// only (the toolchain loses such a store too, as in item 19, but keeps no versions).
@Suite struct ExplicitMutationPairTests {
  /// A model whose `value` is written with an explicit pair, with a hook before the store.
  final class PairModel: ReactiveState.Observable, WritePausing, @unchecked Sendable {
    private let registrar = ReactiveState.ObservationRegistrar()
    private var _value = 0
    private var _other = 0
    var beforeStore: (() -> Void)?

    var value: Int {
      get {
        registrar.access(self, keyPath: \.value)
        return _value
      }
      set {
        registrar.willSet(self, keyPath: \.value)
        defer { registrar.didSet(self, keyPath: \.value) }
        beforeStore?()
        _value = newValue
      }
    }

    var other: Int {
      get {
        registrar.access(self, keyPath: \.other)
        return _other
      }
      set { registrar.withMutation(of: self, keyPath: \.other) { _other = newValue } }
    }
  }

  /// Whether a one-shot over `value` armed now fires by the end of `then`.
  static func oneShotOverValueFires(_ model: PairModel, then: () -> Void = {}) -> Bool {
    let fired = AtomicCounter()
    ReactiveState.withObservationTracking({ _ = model.value }, onChange: { fired.increment() })
    then()
    return fired.value == 1
  }

  @Test func aFirstReadOfThePropertyDuringTheWriteHearsTheStore() {
    let model = PairModel()
    let fired = AtomicCounter()
    holdWriteBeforeStore(model, of: 1) {
      let seen = ReactiveState.withObservationTracking {
        model.value
      } onChange: {
        fired.increment()
      }
      #expect(seen == 0, "read before the store")
    }
    #expect(fired.value == 1, "the value read (0) is no longer current (1)")
    #expect(!Self.oneShotOverValueFires(model), "and nothing is in flight afterwards")
  }

  /// The first read is of another property: no race on `value` at all.
  @Test func aFirstReadOfAnotherPropertyDuringTheWriteLeavesNoWriteInFlight() {
    let model = PairModel()
    holdWriteBeforeStore(model, of: 1) {
      ReactiveState.withObservationTracking({ _ = model.other }, onChange: {})
    }
    #expect(!Self.oneShotOverValueFires(model), "nothing changed since the read")
    #expect(Self.oneShotOverValueFires(model) { model.value = 2 }, "the next write is heard")
  }

  /// After such a write, a later write in flight still counts as in flight: a reader that
  /// reads the old value during it (on another thread) hears its store.
  @Test func aLaterWriteInFlightIsStillSeen() {
    let model = PairModel()
    holdWriteBeforeStore(model, of: 1) {
      ReactiveState.withObservationTracking({ _ = model.value }, onChange: {})
    }
    let fired = AtomicCounter()
    holdWriteBeforeStore(model, of: 2) {
      let seen = ReactiveState.withObservationTracking {
        _ = model.other
        return model.value
      } onChange: {
        fired.increment()
      }
      #expect(seen == 1)
    }
    #expect(fired.value == 1, "the reader saw 1 during the write; the value is now 2")
  }

  /// Control: the same held write on an object observed before it began.
  @Test func aWriteInFlightOnAnObservedObjectIsSeen() {
    let model = PairModel()
    ReactiveState.withObservationTracking({ _ = model.value }, onChange: {})
    model.value = 1
    let fired = AtomicCounter()
    holdWriteBeforeStore(model, of: 2) {
      _ = ReactiveState.withObservationTracking {
        _ = model.other
        return model.value
      } onChange: {
        fired.increment()
      }
    }
    #expect(fired.value == 1)
    #expect(!Self.oneShotOverValueFires(model))
  }

  /// A model whose write is made in steps, so a test can overlap two writes of `value`.
  final class SteppedModel: ReactiveState.Observable, @unchecked Sendable {
    private let registrar = ReactiveState.ObservationRegistrar()
    private let lock = NSLock()
    private var _value = 0
    var value: Int {
      get {
        registrar.access(self, keyPath: \.value)
        lock.lock()
        defer { lock.unlock() }
        return _value
      }
      set {
        beginWrite()
        store(newValue)
        endWrite()
      }
    }
    func beginWrite() { registrar.willSet(self, keyPath: \.value) }
    func store(_ newValue: Int) {
      lock.lock()
      _value = newValue
      lock.unlock()
    }
    func endWrite() { registrar.didSet(self, keyPath: \.value) }
  }

  /// Two threads' writes of one property overlap; the first ends, and a one-shot reads the
  /// value while the second is still in flight. The second's store must reach it: the version
  /// stays odd (in flight) until the second write ends. A review found a change that moved
  /// the version to even at the first write's end, and the one-shot missed the store.
  /// `readsTwo`: the one-shot reads another object too (it links instead of parking).
  @Test(arguments: [false, true])
  func aOneShotArmedWhileAnOverlappingWriteIsInFlightHearsIt(readsTwo: Bool) {
    let model = SteppedModel()
    let other = SteppedModel()
    _ = ReactiveState.withObservationTracking({ model.value }, onChange: {})
    model.value = 0  // the object has slots; that one-shot fired
    model.beginWrite()  // writer A
    onAnotherThread { model.beginWrite() }  // writer B
    model.store(1)
    model.endWrite()  // A ends, B is in flight
    let fired = AtomicCounter()
    let seen = ReactiveState.withObservationTracking {
      readsTwo ? model.value + other.value : model.value
    } onChange: {
      fired.increment()
    }
    #expect(seen == 1)
    onAnotherThread {
      model.store(2)
      model.endWrite()
    }
    #expect(model.value == 2)
    #expect(fired.value == 1, "the one-shot read 1 and the value became 2")
  }
}
