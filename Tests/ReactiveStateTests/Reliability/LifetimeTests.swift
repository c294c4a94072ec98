import Foundation
import ReactiveState
import Testing

/// Leaks and lifetime: every model, observer closure, token, derived value and view node is
/// freed once nothing needs it (cancel, fire, unmount, deallocation of what it observed), and
/// no registration outlives its object. Proven with weak references to the objects and to a
/// `Canary` captured by each callback (a callback's captures live exactly as long as the
/// engine keeps the callback).
@Suite struct LifetimeTests {
  // MARK: One-shot

  @Test func aFiredOneShotReleasesItsClosure() {
    let model = HandModel()
    weak var weakCanary: Canary?
    do {
      let canary = Canary()
      weakCanary = canary
      ReactiveState.withObservationTracking({ _ = model.a }, onChange: { _ = canary })
    }
    #expect(weakCanary != nil, "a pending registration keeps its closure")
    model.a = 1
    #expect(weakCanary == nil, "after firing it is released")
  }

  @Test func aPendingOneShotDoesNotKeepItsModelAliveAndDiesWithIt() {
    weak var weakModel: HandModel?
    weak var weakCanary: Canary?
    let fired = Box(0)
    do {
      let model = HandModel()
      let other = HandModel()
      weakModel = model
      let canary = Canary()
      weakCanary = canary
      ReactiveState.withObservationTracking(
        { _ = model.a + other.a },
        onChange: {
          _ = canary
          fired.value += 1
        })
    }
    #expect(weakModel == nil, "observers never retain what they observe")
    #expect(weakCanary == nil, "once every observed object is gone, the closure is released")
    #expect(fired.value == 0, "without being called (6.3.1 parity)")
  }

  @Test func aCancelledEventObserverReleasesItsClosure() {
    let model = HandModel()
    weak var weakCanary: Canary?
    let kinds = Box<[String]>([])
    do {
      let canary = Canary()
      weakCanary = canary
      ReactiveState.withObservationTracking(options: [.willSet, .didSet]) {
        _ = model.a
      } onChange: { event in
        _ = canary
        kinds.value.append("\(event.kind)")
        event.cancel()
      }
    }
    model.a = 1
    #expect(kinds.value == ["willSet"])
    #expect(weakCanary == nil)
    model.a = 2
    #expect(kinds.value == ["willSet"])
  }

  @Test func aDeinitOnlyEventObserverIsReleasedWithTheLastObject() {
    weak var weakCanary: Canary?
    let kinds = Box<[String]>([])
    var model: HandModel? = HandModel()
    do {
      let canary = Canary()
      weakCanary = canary
      ReactiveState.withObservationTracking(options: [.deinit]) {
        _ = model?.a
      } onChange: { event in
        _ = canary
        kinds.value.append("\(event.kind)")
      }
    }
    #expect(weakCanary != nil)
    model = nil
    #expect(kinds.value == ["deinit"])
    #expect(weakCanary == nil)
  }

  // MARK: Continuous

  @Test func cancellingOrDroppingATokenReleasesTheObserver() {
    let model = HandModel()
    weak var weakCanary: Canary?
    weak var weakToken: ObservationToken?
    var token: ObservationToken?
    do {
      let canary = Canary()
      weakCanary = canary
      token = observe {
        _ = canary
        _ = model.a
      }
      weakToken = token
    }
    token?.cancel()
    model.a = 1
    token = nil
    #expect(weakToken == nil)
    #expect(weakCanary == nil, "the body and its captures are gone")

    do {
      let canary = Canary()
      weakCanary = canary
      _ = withContinuousObservation(options: [.didSet]) { _ in
        _ = canary
        _ = model.b
      }
    }
    #expect(weakCanary == nil, "an unkept token ends its observation at once")
    model.b = 1
  }

  /// A run that a write starts on its own thread holds no retain of the observer; a
  /// cancellation that finds it running (here: the token dropped on another thread) retains
  /// it for the run. The observer must stay alive until the run ends, then be freed, and
  /// never run again.
  @Test func aTokenDroppedDuringARunFreesTheObserverWhenTheRunEnds() {
    let model = HandModel()
    let entered = DispatchSemaphore(value: 0)
    let resume = DispatchSemaphore(value: 0)
    let runs = LockedBox(0)
    let (token, canary) = observeWithCanary {
      let value = model.a
      runs.value += 1
      if value == 1 {
        entered.signal()
        resume.wait()
      }
    }
    let writer = WorkerThread()
    writer.run { model.a = 1 }
    entered.wait()
    token.value = nil  // cancels and lets go while the run is blocked on the writer thread
    #expect(canary.isAlive, "the running body still holds its captures")
    resume.signal()
    writer.wait()
    writer.stop()
    #expect(!canary.isAlive, "freed when the cancelled run ended")
    model.a = 2
    #expect(runs.value == 2)
  }

  /// A transaction's queue holds no retain of the observers waiting in it; a cancellation
  /// of a waiting observer (here: its token dropped on another thread) retains it for the
  /// queue. The observer must survive until the transaction's end reaches it, then be freed
  /// without running.
  @Test func aTokenDroppedWhileItsObserverWaitsInATransactionFreesItAtTheEnd() {
    let model = HandModel()
    let runs = LockedBox(0)
    let (token, canary) = observeWithCanary {
      _ = model.a
      runs.value += 1
    }
    withTransaction {
      model.a = 1  // postponed to the end of this transaction
      let dropper = WorkerThread()
      dropper.run { token.value = nil }
      dropper.wait()
      dropper.stop()
      #expect(canary.isAlive, "kept for the transaction that queued it")
    }
    #expect(!canary.isAlive, "freed when the transaction's end reached it")
    #expect(runs.value == 1, "cancelled: the postponed run does not happen")
  }

  @Test func aContinuousObserverDoesNotKeepItsModelAlive() {
    weak var weakModel: HandModel?
    let runs = Box(0)
    let survivor = HandModel()
    var token: ObservationToken?
    do {
      let model = HandModel()
      weakModel = model
      let weakBox = Box<HandModel?>(model)
      token = observe {
        runs.value += 1
        _ = weakBox.value?.a
        _ = survivor.a
      }
      weakBox.value = nil
    }
    #expect(weakModel == nil)
    survivor.a = 1
    #expect(runs.value == 2, "the observer outlives the dead model's registrations and still works")
    token?.cancel()
    survivor.a = 2
    #expect(runs.value == 2)
  }

  // MARK: Derived values

  @Test func computedValuesAreFreedWhenTheirLastReaderGoes() {
    let model = HandModel()
    weak var weakComputed: Computed<Int>?
    var token: ObservationToken?
    do {
      let doubled = Computed { model.a * 2 }
      weakComputed = doubled
      _ = doubled.value
      token = observe { _ = doubled.value }
    }
    #expect(weakComputed != nil, "kept by the observer that reads it")
    model.a = 1
    withExtendedLifetime(token) {}
    token = nil
    #expect(weakComputed == nil, "inputs never keep a derived value alive")
    model.a = 2
  }

  @Test func aComputedChainIsFreedAndDoesNotKeepItsModel() {
    weak var weakModel: HandModel?
    weak var weakLast: Computed<Int>?
    do {
      let model = HandModel()
      weakModel = model
      let first = Computed { model.a + 1 }
      let second = Computed { first.value * 2 }
      weakLast = second
      #expect(second.value == 2)
      model.a = 1
      #expect(second.value == 4)
    }
    #expect(weakLast == nil)
    #expect(weakModel == nil)
  }

  // MARK: Async sequence

  @Test func aFinishedIterationReleasesItsClosure() async {
    let model = HandModel()
    weak var weakCanary: Canary?
    do {
      let canary = Canary()
      weakCanary = canary
      var iterator = ObservedValues<Int, Never>.untilFinished {
        _ = canary
        return model.a >= 1 ? .finish : .next(model.a)
      }.makeAsyncIterator()
      #expect(await iterator.next() == 0)
      model.a = 1
      #expect(await iterator.next() == nil)
    }
    #expect(weakCanary == nil)
    model.a = 2
  }

  // MARK: Many cycles

  /// Arm, fire, cancel, drop in a loop: nothing accumulates (every weak reference clears).
  @Test func mixedChurnLeavesNothingBehind() {
    let model = HandModel()
    var canaries: [() -> Canary?] = []
    for round in 0..<1_000 {
      let canary = Canary()
      canaries.append { [weak canary] in canary }
      switch round % 4 {
      case 0:
        ReactiveState.withObservationTracking({ _ = model.a }, onChange: { _ = canary })
      case 1:
        let token = observe {
          _ = canary
          _ = model.b
        }
        if round % 8 == 1 { token.cancel() }
      case 2:
        let derived = Computed { model.a + model.b }
        let token = observe {
          _ = canary
          _ = derived.value
        }
        model.b += 1
        token.cancel()
      default:
        ReactiveState.withObservationTracking(options: [.didSet]) {
          _ = model.c
        } onChange: { _ in
          _ = canary
        }
        model.c += 1
      }
    }
    model.a += 1
    #expect(canaries.allSatisfy { $0() == nil })
  }
}
