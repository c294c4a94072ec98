import Foundation
import Observation
import ReactiveState
import Testing

/// Observation parity: each test runs the same script against the toolchain's Observation
/// (the oracle) and ReactiveState and expects the same outcome — the semantics items of
/// `swift-observation.md` §3.1–3.3 that we match on purpose.
@Suite struct OneShotTrackingParityTests {
  @Test(arguments: Engine.allCases)
  func applyRunsOnceAndReturnsItsResult(engine: Engine) {
    let model = engine.makeModel()
    let runs = Box(0)
    let result = engine.track(
      {
        runs.value += 1
        return model.a + 41
      }, onChange: {})
    #expect(result == 41)
    #expect(runs.value == 1)
  }

  @Test(arguments: Engine.allCases)
  func firesOnceBeforeTheStoreOnTheFirstMutation(engine: Engine) {
    let model = engine.makeModel()
    let seen = Box<[Int]>([])
    engine.track({ _ = model.a }, onChange: { seen.value.append(model.a) })
    model.a = 1
    model.a = 2
    // onChange ran once, inside the first setter, and saw the old value.
    #expect(seen.value == [0])
    #expect(model.a == 2)
  }

  @Test(arguments: Engine.allCases)
  func unreadAndIgnoredPropertiesNeverFire(engine: Engine) {
    let model = engine.makeModel()
    let fired = Box(0)
    engine.track(
      {
        _ = model.a
        _ = model.ignored
      }, onChange: { fired.value += 1 })
    model.b = 5
    model.ignored = 5
    #expect(fired.value == 0)
    model.a = 5
    #expect(fired.value == 1)
  }

  @Test(arguments: Engine.allCases)
  func sameKeyPathOnAnotherInstanceDoesNotFire(engine: Engine) {
    let first = engine.makeModel()
    let second = engine.makeModel()
    let fired = Box(0)
    engine.track({ _ = first.a }, onChange: { fired.value += 1 })
    second.a = 3
    #expect(fired.value == 0)
  }

  @Test(arguments: Engine.allCases)
  func nothingReadMeansOnChangeIsNotEvenEvaluated(engine: Engine) {
    let model = engine.makeModel()
    let made = Box(0)
    func makeHandler() -> @Sendable () -> Void {
      made.value += 1
      return {}
    }
    switch engine {
    case .observation: Observation.withObservationTracking({ _ = 1 }, onChange: makeHandler())
    case .reactiveState: ReactiveState.withObservationTracking({ _ = 1 }, onChange: makeHandler())
    }
    #expect(made.value == 0)
    switch engine {
    case .observation: Observation.withObservationTracking({ _ = model.a }, onChange: makeHandler())
    case .reactiveState:
      ReactiveState.withObservationTracking({ _ = model.a }, onChange: makeHandler())
    }
    #expect(made.value == 1)
  }

  @Test(arguments: Engine.allCases)
  func plainAssignmentInsideApplyRecordsNothingButInPlaceMutationReads(engine: Engine) {
    let model = engine.makeModel()
    let fired = Box(0)
    engine.track({ model.b = 7 }, onChange: { fired.value += 1 })
    model.b = 8
    #expect(fired.value == 0)
    engine.track({ model.c += 1 }, onChange: { fired.value += 1 })
    #expect(fired.value == 0, "the scope's own in-place mutation does not fire it")
    model.c = 10
    #expect(fired.value == 1)
  }

  @Test(arguments: Engine.allCases)
  func computedPropertiesTrackWhatTheyRead(engine: Engine) {
    let model = engine.makeModel()
    let fired = Box(0)
    engine.track({ _ = model.sum }, onChange: { fired.value += 1 })
    model.c = 1
    #expect(fired.value == 0)
    model.b = 1
    #expect(fired.value == 1)
  }

  @Test(arguments: Engine.allCases)
  func nestedTrackingMergesInnerReadsIntoTheOuterScope(engine: Engine) {
    let model = engine.makeModel()
    let outer = Box(0)
    let inner = Box(0)
    engine.track(
      {
        _ = model.a
        engine.track({ _ = model.b }, onChange: { inner.value += 1 })
      }, onChange: { outer.value += 1 })
    model.b = 1
    #expect(inner.value == 1)
    #expect(outer.value == 1)
    model.a = 1
    #expect(outer.value == 1, "the outer observer already fired and is gone")
    #expect(inner.value == 1, "the inner one-shot already fired and is gone")
  }

  @Test(arguments: Engine.allCases)
  func outerReadsAreNotGivenToTheInnerScope(engine: Engine) {
    let model = engine.makeModel()
    let outer = Box(0)
    let inner = Box(0)
    engine.track(
      {
        _ = model.a
        engine.track({ _ = model.b }, onChange: { inner.value += 1 })
        _ = model.c
      }, onChange: { outer.value += 1 })
    model.c = 1
    #expect(outer.value == 1)
    #expect(inner.value == 0)
  }

  @Test(arguments: Engine.allCases)
  func reArmingInsideOnChangeCatchesTheNextMutationNotTheCurrentOne(engine: Engine) {
    let model = engine.makeModel()
    let seen = Box<[Int]>([])
    @Sendable func arm() {
      engine.track({ seen.value.append(model.a) }, onChange: { arm() })
    }
    arm()
    model.a = 1
    model.a = 2
    // Each re-arm reads the old value (willSet edge): [initial, before 1, before 2].
    #expect(seen.value == [0, 0, 1])
  }

  @Test(arguments: Engine.allCases)
  func registrationsAreNotDeduplicated(engine: Engine) {
    let model = engine.makeModel()
    let fired = Box(0)
    for _ in 0..<3 { engine.track({ _ = model.a }, onChange: { fired.value += 1 }) }
    model.a = 1
    #expect(fired.value == 3)
    model.a = 2
    #expect(fired.value == 3)
  }

  @Test(arguments: Engine.allCases)
  func firedObserverReleasesItsClosure(engine: Engine) {
    let model = engine.makeModel()
    weak var weakToken: Box<Int>?
    do {
      let token = Box(0)
      weakToken = token
      engine.track({ _ = model.a }, onChange: { token.value += 1 })
    }
    #expect(weakToken != nil, "a pending registration keeps its closure alive")
    model.a = 1
    #expect(weakToken == nil, "after firing, the closure is released")
  }

  @Test(arguments: Engine.allCases)
  func deallocatingTheObservedObjectReleasesPendingObserversWithoutACall(engine: Engine) {
    let fired = Box(0)
    weak var weakToken: Box<Int>?
    do {
      let model = engine.makeModel()
      let token = Box(0)
      weakToken = token
      engine.track(
        { _ = model.a },
        onChange: {
          token.value += 1
          fired.value += 1
        })
    }
    #expect(weakToken == nil)
    #expect(fired.value == 0)
  }

  @Test(arguments: Engine.allCases)
  func equalityRuleSkipsEqualAssignmentsButModifyAlwaysNotifies(engine: Engine) {
    let model = engine.makeModel()
    let fired = Box(0)
    engine.track({ _ = model.a }, onChange: { fired.value += 1 })
    model.a = 0
    #expect(fired.value == 0)
    model.a += 0
    #expect(fired.value == 1)
  }

  @Test(arguments: Engine.allCases)
  func firesOnTheMutatingThread(engine: Engine) async {
    let model = engine.makeModel()
    let firedOnMutatingThread = LockedBox(false)
    let mutatorThread = LockedBox<UInt>(0)
    engine.track(
      { _ = model.a },
      onChange: { firedOnMutatingThread.value = currentThreadID() == mutatorThread.value })
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      Thread.detachNewThread {
        mutatorThread.value = currentThreadID()
        model.a = 1
        done.resume()
      }
    }
    #expect(firedOnMutatingThread.value)
  }
}
