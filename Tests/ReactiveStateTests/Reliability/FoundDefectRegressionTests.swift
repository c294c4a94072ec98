import Foundation
import ReactiveState
import Testing

/// The defects the reliability suite found in ReactiveState, each reduced to a deterministic
/// test (the fuzzers' minimal scripts, the lifetime checks). Fixed in the commits named in
/// the test comments; these keep them fixed.
@Suite struct FoundDefectRegressionTests {
  /// Events fuzz: one `.deinit` event per deallocated object, not one per tracked property;
  /// with three tracked properties the registration also leaked.
  @Test func oneDeinitEventPerObjectAndTheRegistrationEnds() {
    weak var weakCanary: Canary?
    let kinds = Box<[String]>([])
    var model: HandModel? = HandModel()
    do {
      let canary = Canary()
      weakCanary = canary
      ReactiveState.withObservationTracking(options: [.deinit]) {
        _ = model?.a
        _ = model?.b
        _ = model?.c
      } onChange: { event in
        _ = canary
        kinds.value.append("\(event.kind)")
      }
    }
    model = nil
    #expect(kinds.value == ["deinit"])
    #expect(weakCanary == nil)
  }

  /// Continuous fuzz: a property read again after a derived value that read it (the derived
  /// value's computation re-stamped it) was linked twice, so each write ran the observer twice.
  @Test func aReReadAfterADerivedValueDoesNotDoubleTheRuns() {
    let model = HandModel()
    let total = Computed { model.a + model.b }
    let runs = Box(0)
    let token = observe {
      runs.value += 1
      _ = model.b
      _ = total.value
      _ = model.b
    }
    model.b += 1
    #expect(runs.value == 2)
    model.b = 5
    #expect(runs.value == 3)
    withExtendedLifetime(token) {}
  }

  /// The same through a nested one-shot tracking scope inside the observer's body.
  @Test func aReReadAfterANestedScopeDoesNotDoubleTheRuns() {
    let model = HandModel()
    let runs = Box(0)
    let token = observe {
      runs.value += 1
      _ = model.a
      ReactiveState.withObservationTracking({ _ = model.a }, onChange: {})
      _ = model.a
    }
    model.a = 1
    #expect(runs.value == 2)
    withExtendedLifetime(token) {}
  }

  /// Lifetime: an `ObservedValues` iterator dropped mid-iteration no longer keeps its closure
  /// (the observer held its iteration strongly: a cycle through the iteration's token).
  @Test func aDroppedIteratorReleasesItsClosure() async {
    let model = HandModel()
    weak var weakCanary: Canary?
    do {
      let canary = Canary()
      weakCanary = canary
      var iterator = ObservedValues {
        _ = canary
        return model.a
      }.makeAsyncIterator()
      #expect(await iterator.next() == 0)
      model.a = 1
    }
    #expect(weakCanary == nil)
    model.a = 2
  }

  /// Review: a first observation that reads the old value while a write to the never-observed
  /// object is between its (skipped) `willSet` and its store. The write then finds slots and
  /// counts itself as a late mutation; it used to tell only `didSet` listeners, so the armed
  /// one-shot never fired although what it read was already stale.
  @Test func aWriteRacingTheFirstObservationReachesTheOneShot() {
    let model = PausingModel()
    let fired = AtomicCounter()
    let seen = interleaveFirstReadWithWrite(model) {
      var seen = -1
      ReactiveState.withObservationTracking({ seen = model.value }, onChange: { fired.increment() })
      #expect(fired.value == 0)
      return seen
    }
    #expect(seen == 0, "the reader ran before the store")
    #expect(fired.value == 1, "the late mutation reaches the observer armed meanwhile")
  }
}
