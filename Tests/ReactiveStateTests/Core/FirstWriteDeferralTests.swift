import Foundation
import Observation
import ReactiveState
import Testing

/// One-shots armed inside the mutation of the very first write of a never-observed object, on
/// the writing thread (from a `didSet` of the backing storage, say): the write began with no
/// property slots, so nothing noted it, and it learns only at its end that slots appeared.
/// As with an object observed before (`DeferralAndEpochReviewTests`), such a one-shot waits for
/// the next write, as the toolchain's does (the oracle); it used to fire at the end of the
/// write it was armed in. A registration armed meanwhile on another thread may have read the
/// old value: that one still fires.
@Suite struct FirstWriteDeferralTests {
  /// A fresh model for `engine`: no property was ever read in a tracking scope.
  private func freshModel(_ engine: Engine) -> any DeferralModel {
    engine == .observation ? OracleDeferralModel() : HandDeferralModel()
  }

  /// The one-shot reads one property, so it parks in the slot it creates.
  @Test(arguments: Engine.allCases)
  func oneShotArmedInsideFirstEverWriteWaitsForNextWrite(engine: Engine) {
    let model = freshModel(engine)
    let fired = Box(0)
    model.onStoredX = { engine.track({ _ = model.x }, onChange: { fired.value += 1 }) }
    model.x = 1
    #expect(fired.value == 0, "\(engine): fired at the end of the write it was armed in")
    model.onStoredX = nil
    model.x = 2
    #expect(fired.value == 1, "\(engine)")
  }

  /// The tracked closure itself makes the first write, and reads the property inside it
  /// (after the store): that read saw the write, so the write is the closure's own and
  /// nothing fires until the next write.
  @Test(arguments: Engine.allCases)
  func aFirstWriteByTheTrackedClosureThatReadsInsideItIsItsOwn(engine: Engine) {
    let model = freshModel(engine)
    let fired = Box(0)
    model.onStoredX = { _ = model.x }
    engine.track({ model.x = 1 }, onChange: { fired.value += 1 })
    #expect(fired.value == 0, "\(engine): fired for the closure's own write")
    model.onStoredX = nil
    model.x = 2
    #expect(fired.value == 1, "\(engine)")
  }

  /// Armed directly inside `withMutation`, before the store, next to an options-form one, on
  /// the plain and on a main-thread-confined registrar (whose one-shots park with plain
  /// stores): both wait for the next write, as on an object observed before (see
  /// `OptionsFormInsideUnannouncedWriteTests`).
  @Test(arguments: [false, true])
  func oneShotsArmedInsideWithMutationOfAFreshObjectWaitForNextWrite(confined: Bool) {
    actingAsMainThread {
      let model = HandModel(confinedToMainThread: confined)
      let plain = Box(0)
      let events = Box(0)
      model.registrar.withMutation(of: model, keyPath: \.a) {
        ReactiveState.withObservationTracking({ _ = model.a }, onChange: { plain.value += 1 })
        ReactiveState.withObservationTracking(options: [.willSet]) {
          _ = model.a
        } onChange: { _ in
          events.value += 1
        }
      }
      #expect(plain.value == 0, "confined: \(confined)")
      #expect(events.value == 0, "confined: \(confined)")
      model.a = 1
      #expect(plain.value == 1, "confined: \(confined)")
      #expect(events.value == 1, "confined: \(confined)")
    }
  }

  /// Linked instead of parked: the one-shot reads two properties, or a second one-shot finds
  /// the first parked (which, set aside at the write's end, can then only link).
  @Test(arguments: Engine.allCases, [false, true])
  func linkedOneShotsArmedInsideFirstEverWriteWaitForNextWrite(engine: Engine, twoOfOne: Bool) {
    let model = freshModel(engine)
    let fired = Box(0)
    model.onStoredX = {
      if twoOfOne {
        engine.track({ _ = model.x }, onChange: { fired.value += 1 })
        engine.track({ _ = model.x }, onChange: { fired.value += 10 })
      } else {
        engine.track({ _ = model.x + model.y }, onChange: { fired.value += 1 })
      }
    }
    model.x = 1
    #expect(fired.value == 0, "\(engine): fired at the end of the write it was armed in")
    model.onStoredX = nil
    model.x = 2
    #expect(fired.value == (twoOfOne ? 11 : 1), "\(engine)")
  }

  /// A one-shot armed after a nested write of the same property (which fires the one armed
  /// before it) waits too: it read the version that nested write left, and the outer write's
  /// end moves it on.
  @Test(arguments: Engine.allCases)
  func oneShotArmedAfterANestedWriteOfTheSamePropertyWaitsForNextWrite(engine: Engine) {
    let model = freshModel(engine)
    let fired = Box<[String]>([])
    let depth = Box(0)
    model.onStoredX = {
      depth.value += 1
      defer { depth.value -= 1 }
      guard depth.value == 1 else { return }
      engine.track({ _ = model.x }, onChange: { fired.value.append("before") })
      model.x = 10  // nested write of the same property: fires "before"
      engine.track({ _ = model.x }, onChange: { fired.value.append("after") })
    }
    model.x = 11
    #expect(fired.value == ["before"], "\(engine)")
    model.onStoredX = nil
    model.x = 2
    #expect(fired.value == ["before", "after"], "\(engine)")
  }

  /// The options form, next to the same registration on an object observed before (whose
  /// write has a slot and announces itself at its end): `.willSet` alone waits for the next
  /// write, as the plain form; with `.didSet` it hears that write's `didSet`, as the
  /// toolchain's registrar delivers it to a registration armed during the write.
  @Test(arguments: [
    ObservationTracking.Options.willSet, .didSet, [.willSet, .didSet],
  ])
  func optionsFormArmedInsideFirstEverWriteHearsWhatItHearsOnAnObservedObject(
    options: ObservationTracking.Options
  ) {
    func events(observedBefore: Bool) -> [[String]] {
      eventsOfARegistrationArmedInsideAWriteOfX(
        options: options, observedBefore: observedBefore, reading: { model in { _ = model.x } })
    }
    let expected = options.contains(.didSet) ? [["didSet"], ["didSet"]] : [[], ["willSet"]]
    #expect(events(observedBefore: true) == expected)
    #expect(events(observedBefore: false) == expected)
  }

  /// While the first write is inside its mutation, before its store, this thread arms a
  /// one-shot and another thread arms one too, reading the old value: the other thread's
  /// fires at the end of the write (its change would be lost otherwise), this thread's waits
  /// for the next write. `otherFirst`: the other thread's is armed first (and parks).
  @Test(arguments: [false, true])
  func onlyTheWritingThreadsOneShotWaits(otherFirst: Bool) {
    let model = PausingModel()
    let mine = AtomicCounter()
    let others = AtomicCounter()
    let otherSaw = LockedBox(-1)
    @Sendable func armOther() {
      onAnotherThread {
        otherSaw.value = ReactiveState.withObservationTracking {
          model.value
        } onChange: {
          others.increment()
        }
      }
    }
    model.beforeStore = {
      model.beforeStore = nil
      if otherFirst { armOther() }
      ReactiveState.withObservationTracking({ _ = model.value }, onChange: { mine.increment() })
      if !otherFirst { armOther() }
    }
    model.value = 1
    #expect(otherSaw.value == 0)
    #expect(others.value == 1, "the other thread read 0, and the value is 1")
    #expect(mine.value == 0, "armed inside the write, on the writing thread")
    model.value = 2
    #expect(mine.value == 1)
  }
}

/// The events an options-form registration hears when it is armed inside a write of `x` (from
/// the model's `onStoredX`), reading what `reads` returns for the model: by the end of that
/// write, and by the end of the next. `observedBefore`: the model was observed before that
/// write, so its write has a slot and announces itself at its end.
func eventsOfARegistrationArmedInsideAWriteOfX(
  options: ObservationTracking.Options, observedBefore: Bool,
  reading reads: (HandDeferralModel) -> @Sendable () -> Void
) -> [[String]] {
  let model = HandDeferralModel()
  if observedBefore {
    ReactiveState.withObservationTracking({ _ = model.x }, onChange: {})
    model.x = 0
  }
  let read = reads(model)
  let kinds = Box<[String]>([])
  model.onStoredX = {
    model.onStoredX = nil
    ReactiveState.withObservationTracking(options: options) {
      read()
    } onChange: { event in
      kinds.value.append("\(event.kind)")
    }
  }
  model.x = 1
  let afterArmingWrite = kinds.value
  model.x = 2
  return [afterArmingWrite, kinds.value]
}
