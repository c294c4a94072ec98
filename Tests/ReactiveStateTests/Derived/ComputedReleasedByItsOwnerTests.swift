import Observation
import ReactiveState
import Testing

/// One-shot registrations over a `Computed` whose owner let go of it — one made inside
/// `apply`, or released after it: they should wait for a change of its inputs, as the
/// toolchain's registrations over a computed property do.
@Suite struct ComputedReleasedByItsOwnerTests {
  /// The oracle: how often a one-shot over the computed property `sum` is called when
  /// `write` changes the model.
  static func oracleCalls(after write: (OracleModel) -> Void) -> Int {
    let oracle = OracleModel()
    let fired = Box(0)
    Observation.withObservationTracking {
      _ = oracle.sum
    } onChange: {
      fired.value += 1
    }
    write(oracle)
    return fired.value
  }

  @Test func aOneShotOverATemporaryComputedWaitsForAChangeOfItsInputs() {
    let model = HandModel()
    let fired = Box(0)
    ReactiveState.withObservationTracking {
      _ = Computed { model.a + model.b }.value
    } onChange: {
      fired.value += 1
    }
    #expect(fired.value == 0, "nothing changed yet")
    let oracleFired = Self.oracleCalls { $0.a = 1 }
    model.a = 1
    #expect(oracleFired == 1)
    #expect(fired.value == oracleFired)
  }

  @Test func theOptionsFormOverATemporaryComputedDeliversTheChange() {
    let model = HandModel()
    let log = Box<[String]>([])
    ReactiveState.withObservationTracking(options: [.willSet, .didSet]) {
      _ = Computed { model.a + model.b }.value
    } onChange: { event in
      log.value.append("\(event.kind)")
    }
    #expect(log.value.isEmpty)
    model.a = 1
    #expect(log.value == ["willSet", "didSet"])
  }

  /// A temporary value made inside another temporary one's derivation: the registration
  /// still waits for a change of what the inner one read.
  @Test func aOneShotOverNestedTemporaryComputedsWaitsForAChangeOfTheirInputs() {
    let model = HandModel()
    let fired = Box(0)
    ReactiveState.withObservationTracking {
      _ = Computed { Computed { model.a }.value + model.b }.value
    } onChange: {
      fired.value += 1
    }
    #expect(fired.value == 0, "nothing changed yet")
    model.a = 1
    #expect(fired.value == 1)
  }

  /// Re-arming from `onChange` fires once per write (it recursed at once, with no write).
  @Test func aOneShotReArmedOverATemporaryComputedFiresOncePerWrite() {
    let model = HandModel()
    let fired = Box(0)
    @Sendable func arm() {
      guard fired.value < 20 else { return }
      ReactiveState.withObservationTracking {
        _ = Computed { model.a }.value
      } onChange: {
        fired.value += 1
        arm()
      }
    }
    arm()
    #expect(fired.value == 0)
    model.a = 1
    model.a = 2
    #expect(fired.value == 2)
  }

  /// The model is alive: a change of an input reaches the registration, as a change of what
  /// the oracle's computed property reads does.
  @Test func aOneShotOverAComputedReleasedAfterApplyStillFires() {
    let model = HandModel()
    var sum: Computed<Int>? = Computed { model.a + model.b }
    let fired = Box(0)
    ReactiveState.withObservationTracking {
      _ = sum?.value
    } onChange: {
      fired.value += 1
    }
    sum = nil
    #expect(fired.value == 0, "releasing the value is no change")
    let oracleFired = Self.oracleCalls { $0.b = 1 }
    model.b = 1
    #expect(oracleFired == 1)
    #expect(fired.value == oracleFired)
    model.a = 1
    #expect(fired.value == 1, "a one-shot fires once")
  }

  /// A registration that also read a property directly keeps listening to what the released
  /// value read (it used to keep only its direct read).
  @Test func aRegistrationWithOtherReadsStillHearsTheReleasedValuesInputs() {
    let model = HandModel()
    let doubledB = Box<Computed<Int>?>(Computed { model.b * 2 })
    let calls = callsAfterReleasing(
      doubledB,
      reading: {
        _ = model.a
        _ = doubledB.value?.value
      }, thenWriting: [{ model.c = 1 }, { model.b = 1 }])
    #expect(calls == [0, 1], "c is not read; b is, through the released value")
  }

  /// A chain released at once (the outer value held the inner one): the registration ends up
  /// on the model's properties.
  @Test func aOneShotOverAReleasedChainFiresOnAChangeAtItsRoot() {
    let model = HandModel()
    let inner = Computed { model.a + 1 }
    let outer = Box<Computed<Int>?>(Computed { inner.value * 10 })
    let calls = callsAfterReleasing(
      outer, reading: { _ = outer.value?.value }, thenWriting: [{ model.b = 1 }, { model.a = 1 }])
    #expect(calls == [0, 1], "b is not read; a is, at the chain's root")
  }

  /// Arms a one-shot over what `apply` reads, releases `value`, then makes each write in turn:
  /// the registration's call count after each.
  private func callsAfterReleasing(
    _ value: Box<Computed<Int>?>, reading apply: () -> Void, thenWriting writes: [() -> Void]
  ) -> [Int] {
    let fired = Box(0)
    ReactiveState.withObservationTracking(apply) { fired.value += 1 }
    value.value = nil
    return writes.map { write in
      write()
      return fired.value
    }
  }

  /// The options form hears both events of the change, and no `.deinit` for the value (it is
  /// no observed object); the model's own deallocation still delivers one.
  @Test func theOptionsFormOverAReleasedComputedDeliversTheChangeAndNoValueDeinit() {
    var model: HandModel? = HandModel()
    var sum: Computed<Int>? = Computed { [model] in model!.a + model!.b }
    let log = Box<[String]>([])
    ReactiveState.withObservationTracking(options: [.willSet, .didSet, .deinit]) {
      _ = sum?.value
    } onChange: { event in
      log.value.append("\(event.kind)")
    }
    sum = nil
    #expect(log.value.isEmpty)
    model!.a = 1
    #expect(log.value == ["willSet", "didSet"])
    let deinitOnly = Box<[String]>([])
    sum = Computed { [model] in model!.a }
    ReactiveState.withObservationTracking(options: .deinit) {
      _ = sum?.value
    } onChange: { event in
      deinitOnly.value.append("\(event.kind)")
    }
    sum = nil
    #expect(deinitOnly.value.isEmpty)
    model = nil
    #expect(deinitOnly.value == ["deinit"])
  }

  /// Once the model goes too, the registration ends without a call and lets go of its
  /// closure (nothing it observes is alive).
  @Test func theRegistrationEndsWhenTheModelGoesAfterTheValue() {
    final class Captured: Sendable {}
    weak var weakCaptured: Captured?
    var model: HandModel? = HandModel()
    var sum: Computed<Int>? = Computed { [model] in model!.a + model!.b }
    let fired = Box(0)
    do {
      let captured = Captured()
      weakCaptured = captured
      ReactiveState.withObservationTracking {
        _ = sum?.value
      } onChange: {
        _ = captured
        fired.value += 1
      }
    }
    sum = nil
    #expect(weakCaptured != nil, "the registration still waits")
    model = nil
    #expect(weakCaptured == nil)
    #expect(fired.value == 0)
  }
}

/// The release racing writes on other threads: no registration is lost or fired twice.
@Suite struct ComputedReleasedWhileWritesLandTests {
  @Test func everyRegistrationOverAReleasedComputedFiresExactlyOnce() {
    let model = LockedTriple()
    let perArmer = 2_000
    let fires = (0..<2).map { _ in (0..<perArmer).map { _ in AtomicCounter() } }
    let didSets = (0..<2).map { _ in (0..<perArmer).map { _ in AtomicCounter() } }
    let closures = (0..<2).map { _ in (0..<perArmer).map { _ in CanaryWatch() } }
    let workers = (0..<3).map { _ in WorkerThread() }
    let armersDone = AtomicCounter()
    workers[0].run {
      var round = 0
      while armersDone.value < 2 {
        model[0] = round % 7
        round += 1
      }
    }
    for armer in 0..<2 {
      workers[armer + 1].run {
        for index in 0..<perArmer {
          var sum: Computed<Int>? = Computed { model[0] + model[1] }
          let canary = Canary()
          closures[armer][index].canary = canary
          ReactiveState.withObservationTracking {
            _ = sum?.value
          } onChange: {
            _ = canary
            fires[armer][index].increment()
          }
          ReactiveState.withObservationTracking(options: .didSet) {
            _ = sum?.value
          } onChange: { _ in
            _ = canary
            didSets[armer][index].increment()
          }
          sum = nil
        }
        armersDone.increment()
      }
    }
    for worker in workers { worker.wait() }
    for worker in workers { worker.stop() }
    // Quiescent: one more change reaches whatever still waits.
    model[1] = -1
    let counts = (fires + didSets).flatMap { $0.map(\.value) }
    let callsPerRegistration = Dictionary(grouping: counts) { $0 }.mapValues(\.count)
    #expect(callsPerRegistration == [1: counts.count], "registrations by number of calls")
    #expect(closures.joined().filter(\.isAlive).isEmpty, "ended registrations let go")
  }
}
