import Foundation
import ReactiveState
import Testing

/// Bad input and misuse stay bounded: observer cycles stop (with a diagnostic), callbacks may
/// mutate what they observe, `deinit` may mutate observed state, observing objects that die
/// during the observation is harmless, and long chains of synchronous deliveries do not
/// overflow the stack. (The 1M-observer fan-out is in `MemoryAndScaleTests`.)
@Suite struct MisuseTests {
  /// Model types used only here, so their diagnostics can be told apart in the process-wide log.
  final class PingPongModel: ReactiveState.Observable, @unchecked Sendable {
    private let registrar = ReactiveState.ObservationRegistrar()
    private var _ping = 0
    private var _pong = 0
    var ping: Int {
      get {
        registrar.access(self, keyPath: \.ping)
        return _ping
      }
      set { registrar.withMutation(of: self, keyPath: \.ping) { _ping = newValue } }
    }
    var pong: Int {
      get {
        registrar.access(self, keyPath: \.pong)
        return _pong
      }
      set { registrar.withMutation(of: self, keyPath: \.pong) { _pong = newValue } }
    }
  }

  @Test func twoObserversFeedingEachOtherStopWithADiagnostic() {
    let model = PingPongModel()
    let runs = Box(0)
    var tokens: [ObservationToken] = []
    let reported = ObservationDiagnostics.capture {
      tokens.append(
        observe {
          runs.value += 1
          model.pong = model.ping + 1
        })
      tokens.append(
        observe {
          runs.value += 1
          model.ping = model.pong + 1
        })
    }.map(\.message)
    #expect(runs.value < 1_000, "bounded")
    #expect(reported.contains { $0.contains("PingPongModel") })
    model.ping = -100  // both still hear outside changes afterwards, and stop again
    #expect(runs.value < 2_000)
    withExtendedLifetime(tokens) {}
  }

  @Test func scheduledObserversFeedingEachOtherStopWithADiagnostic() {
    // Each run is its own scheduler job, so no run re-runs inline: the chain of runs, each
    // caused by the one before, is what is bounded.
    let model = PingPongModel()
    let scheduler = ManualScheduler()
    let runs = Box(0)
    let tokens = [
      observe(scheduler: scheduler) {
        runs.value += 1
        model.pong = model.ping + 1
      },
      observe(scheduler: scheduler) {
        runs.value += 1
        model.ping = model.pong + 1
      },
    ]
    var ran = 0
    let reported = ObservationDiagnostics.capture {
      model.ping = 1
      ran = scheduler.flush()  // returns: before the bound, it never would
    }.map(\.message)
    #expect(ran == continuousRerunLimit)
    #expect(
      reported.contains {
        $0.contains("scheduled runs in a row") && $0.contains("PingPongModel")
          && $0.contains("To fix:")
      })
    #expect(scheduler.pendingCount == 0)
    let before = runs.value
    model.ping = -100  // a change from outside the chain reaches them again
    #expect(scheduler.flush() == continuousRerunLimit)
    #expect(runs.value == before + continuousRerunLimit)
    withExtendedLifetime(tokens) {}
  }

  @Test func observersFeedingEachOtherInATransactionStop() {
    let model = PingPongModel()
    let tokens = [
      observe(scheduler: nil) { model.pong = model.ping + 1 },
      observe(scheduler: nil) { model.ping = model.pong + 1 },
    ]
    let reported = ObservationDiagnostics.capture { withTransaction { model.ping = 1_000 } }
    #expect(reported.contains { $0.message.contains("end of a transaction") })
    withExtendedLifetime(tokens) {}
  }

  @Test func aDerivedValueReadingItselfFailsWithADiagnostic() {
    let holder = Box<Computed<Int>?>(nil)
    let looping = Computed("LoopingTotal") { (try holder.value?.get() ?? 0) + 1 }
    holder.value = looping
    var failure: DerivedValueCycle?
    let reported = ObservationDiagnostics.capture {
      do { _ = try looping.get() } catch let error as DerivedValueCycle { failure = error } catch {}
    }
    #expect(failure?.name == "LoopingTotal")
    #expect(reported.contains { $0.message.contains("LoopingTotal reads itself") })
    holder.value = nil
  }

  // MARK: Reentrancy

  @Test func callbacksMayMutateAndRearmWhatTheyObserve() {
    let model = HandModel()
    let seen = Box<[Int]>([])
    @Sendable func arm() {
      ReactiveState.withObservationTracking(
        { _ = model.a },
        onChange: {
          seen.value.append(model.a)  // the old value (willSet)
          if model.a < 3 { model.a += 1 }  // reentrant write of what it observes
          arm()
        })
    }
    arm()
    model.a = 1  // onChange runs in willSet: its own write lands first, then this store
    #expect(seen.value == [0])
    #expect(model.a == 1, "the outer assignment stores last")
    model.a = 2  // reaches the tracker re-armed inside the first onChange, once
    #expect(seen.value == [0, 1])
    #expect(model.a == 2)
    let runs = Box(0)
    let token = observe {
      runs.value += 1
      if model.b < 5 { model.b += 1 }  // converges: stops writing at 5
    }
    #expect(model.b == 5)
    #expect(runs.value == 6)
    withExtendedLifetime(token) {}
  }

  @Test func threeHundredObserversChainedThroughSynchronousDeliveriesComplete() {
    let models = (0..<301).map { _ in HandModel() }
    let tokens = (0..<300).map { index in
      observe { models[index + 1].a = models[index].a }
    }
    models[0].a = 7
    #expect(models[300].a == 7)
    withExtendedLifetime(tokens) {}
  }

  // MARK: Deinit

  final class WritesOnDeinit: @unchecked Sendable {
    let target: HandModel
    init(_ target: HandModel) { self.target = target }
    deinit { target.a += 1 }
  }

  @Test func mutationsFromDeinitReachObservers() {
    let model = HandModel()
    let fired = Box(0)
    let runs = Box(0)
    ReactiveState.withObservationTracking({ _ = model.a }, onChange: { fired.value += 1 })
    let token = observe {
      runs.value += 1
      _ = model.a
    }
    do { _ = WritesOnDeinit(model) }
    #expect(fired.value == 1)
    #expect(runs.value == 2)
    // A closure whose captures write on deinit: released after firing, inside the delivery.
    do {
      let writer = WritesOnDeinit(model)
      ReactiveState.withObservationTracking({ _ = model.b }, onChange: { _ = writer })
    }
    model.b = 1
    #expect(model.a == 2)
    #expect(runs.value == 3)
    withExtendedLifetime(token) {}
  }

  final class SelfWritingModel: ReactiveState.Observable, @unchecked Sendable {
    private let registrar = ReactiveState.ObservationRegistrar()
    private var _value = 0
    let onDeinitValue: Int
    init(_ onDeinitValue: Int) { self.onDeinitValue = onDeinitValue }
    var value: Int {
      get {
        registrar.access(self, keyPath: \.value)
        return _value
      }
      set { registrar.withMutation(of: self, keyPath: \.value) { _value = newValue } }
    }
    deinit { value = onDeinitValue }
  }

  @Test func anObjectMutatingItselfInDeinitNotifiesItsObservers() {
    let seen = Box<[Int]>([])
    do {
      let model = SelfWritingModel(42)
      ReactiveState.withObservationTracking(
        { _ = model.value }, onChange: { seen.value.append(-1) })
    }
    #expect(seen.value == [-1], "the write in deinit is a change like any other")
  }

  // MARK: Deallocated objects

  @Test func anObjectDeallocatedWhileBeingTrackedInstallsNothing() {
    let fired = Box(0)
    var model: HandModel? = HandModel()
    let survivor = HandModel()
    ReactiveState.withObservationTracking(
      {
        _ = model?.a
        model = nil  // dies between the read and the install
      }, onChange: { fired.value += 1 })
    #expect(fired.value == 0)
    ReactiveState.withObservationTracking(
      {
        var local: HandModel? = HandModel()
        _ = local?.a
        local = nil
        _ = survivor.a
      }, onChange: { fired.value += 1 })
    survivor.a = 1
    #expect(fired.value == 1, "the live part of the observation still works")
    let runs = Box(0)
    let token = observe {
      runs.value += 1
      _ = HandModel().a  // observes a temporary that dies during the run
      _ = survivor.b
    }
    survivor.b = 1
    #expect(runs.value == 2)
    withExtendedLifetime(token) {}
  }

  /// Tracking that read nothing (the object behind the weak reference is gone) installs
  /// nothing: objects allocated afterwards, possibly at the dead one's address, and written,
  /// reach neither the one-shot nor the continuous observer.
  @Test func observingThroughAWeakReferenceToADeadObjectIsANoOp() {
    let box = WeakHandModel()
    do {
      let model = HandModel()
      box.model = model
    }
    let fired = Box(0)
    let runs = Box(0)
    ReactiveState.withObservationTracking({ _ = box.model?.a }, onChange: { fired.value += 1 })
    let token = observe {
      runs.value += 1
      _ = box.model?.b
    }
    #expect(runs.value == 1)
    let fresh = (0..<8).map { _ in HandModel() }
    for model in fresh {
      model.a = 1
      model.b = 1
    }
    #expect(fired.value == 0)
    #expect(runs.value == 1)
    withExtendedLifetime((token, fresh)) {}
  }
}
