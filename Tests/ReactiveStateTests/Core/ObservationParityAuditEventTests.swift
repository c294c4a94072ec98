import Foundation
@_spi(SwiftUI) import Observation
import ReactiveState
import Testing

/// Behaviour-parity audit, part 2: the registrar's `willSet`/`didSet` edges, the SPI's
/// non-one-shot tracking (the closest thing 6.3.1 has to SE-0506's events) and tracking nested
/// in a continuous observer, each run against both engines.
@Suite struct ObservationParityAuditEventTests {
  struct MutationFailure: Error {}

  /// §3.3 item 31: `withMutation` is `willSet; defer { didSet }; mutation()`, so a mutation
  /// that throws still announces both edges. The oracle hears them through its SPI
  /// willSet/didSet tracking, ReactiveState through the options form and `observe`.
  @Test func aThrowingMutationStillAnnouncesWillSetAndDidSet() {
    let theirs = ParityRound3Oracle()
    let ours = ParityRound3Model()
    let theirLog = Box<[String]>([])
    let ourLog = Box<[String]>([])
    _ = Observation.withObservationTracking {
      _ = theirs.a
    } willSet: { _ in
      theirLog.value.append("willSet")
    } didSet: { tracking in
      theirLog.value.append("didSet")
      tracking.cancel()
    }
    ReactiveState.withObservationTracking(options: [.willSet, .didSet]) {
      _ = ours.a
    } onChange: { event in
      ourLog.value.append("\(event.kind)")
    }
    let runs = Box(0)
    let token = observe {
      _ = ours.a
      runs.value += 1
    }
    #expect(throws: MutationFailure.self) {
      try theirs.registrar.withMutation(of: theirs, keyPath: \.a) { throw MutationFailure() }
    }
    #expect(throws: MutationFailure.self) {
      try ours.registrar.withMutation(of: ours, keyPath: \.a) { throw MutationFailure() }
    }
    #expect(theirLog.value == ["willSet", "didSet"])
    #expect(ourLog.value == theirLog.value)
    #expect(runs.value == 2, "the continuous observer re-ran after the throwing mutation")
    token.cancel()
  }

  /// §3.4 item 32 against SE-0506's continuous form: the SPI's willSet/didSet tracking is not
  /// one-shot, delivers `willSet` (old value visible, `changed` names the key path) then
  /// `didSet` (new value visible) for every mutation, and stops when cancelled.
  /// `withContinuousObservation(options: [.willSet, .didSet])` delivers the same sequence.
  @Test func continuousEventsMatchTheSPIsWillSetDidSetTracking() {
    let theirs = ParityRound3Oracle()
    let theirLog = Box<[String]>([])
    // The SPI returns `apply`'s result; its handlers receive the tracking to cancel.
    let tracking = Box<Observation.ObservationTracking?>(nil)
    Observation.withObservationTracking {
      _ = theirs.a
    } willSet: { received in
      tracking.value = received
      let name = received.changed == \ParityRound3Oracle.a ? "a" : "?"
      theirLog.value.append("willSet \(name) \(theirs.storedA)")
    } didSet: { _ in
      theirLog.value.append("didSet \(theirs.storedA)")
    }
    let ours = ParityRound3Model()
    let ourLog = Box<[String]>([])
    let token = withContinuousObservation(options: [.willSet, .didSet]) { event in
      _ = ours.a
      switch event.kind {
      case .willSet:
        let name = event.matches(\ParityRound3Model.a) ? "a" : "?"
        ourLog.value.append("willSet \(name) \(ours.storedA)")
      case .didSet: ourLog.value.append("didSet \(ours.storedA)")
      default: break
      }
    }
    for value in [1, 2] {
      theirs.a = value
      ours.a = value
    }
    theirs.b = 1
    ours.b = 1
    tracking.value?.cancel()
    token.cancel()
    theirs.a = 3
    ours.a = 3
    #expect(theirLog.value == ["willSet a 0", "didSet 1", "willSet a 1", "didSet 2"])
    #expect(ourLog.value == theirLog.value)
  }

  /// §3.1 item 7 ("nested calls record their reads in the enclosing scope too") with a
  /// continuous observer as the enclosing scope: a one-shot nested in its run makes what the
  /// one-shot read a dependency of the run. The oracle's continuous observer is the re-arming
  /// loop `observe` replaces (`MigratingFromObservation`, step 3).
  @Test func aOneShotNestedInAContinuousRunMakesItsReadsTheRunsDependencies() {
    let theirs = OracleModel()
    let theirRuns = Box(0)
    let theirInner = Box(0)
    @Sendable func arm() {
      Observation.withObservationTracking {
        theirRuns.value += 1
        _ = theirs.a
        Observation.withObservationTracking({ _ = theirs.b }, onChange: { theirInner.value += 1 })
      } onChange: {
        arm()
      }
    }
    arm()
    let ours = HandModel()
    let ourRuns = Box(0)
    let ourInner = Box(0)
    let token = observe {
      ourRuns.value += 1
      _ = ours.a
      ReactiveState.withObservationTracking({ _ = ours.b }, onChange: { ourInner.value += 1 })
    }
    theirs.b = 1
    ours.b = 1
    #expect(theirRuns.value == 2)
    #expect(theirInner.value == 1)
    #expect(ourRuns.value == theirRuns.value, "the nested one-shot's read of b re-runs the run")
    #expect(ourInner.value == theirInner.value)
    // The first run's inner one-shot fired; the second run armed another one.
    theirs.b = 2
    ours.b = 2
    #expect(theirRuns.value == 3)
    #expect(theirInner.value == 2)
    #expect(ourRuns.value == theirRuns.value)
    #expect(ourInner.value == theirInner.value)
    token.cancel()
  }

  /// SE-0506, "Alternatives considered": the plain `withObservationTracking` acts as the
  /// options form with `.willSet` alone. The same script on the oracle's plain form and on
  /// ReactiveState's options form: one event, before the first store of a tracked property,
  /// and nothing after it.
  @Test func theWillSetOptionAloneActsAsThePlainForm() {
    let theirs = OracleModel()
    let ours = HandModel()
    let theirLog = Box<[String]>([])
    let ourLog = Box<[String]>([])
    Observation.withObservationTracking {
      _ = theirs.a + theirs.b
    } onChange: {
      theirLog.value.append("a=\(theirs.a) b=\(theirs.b)")
    }
    ReactiveState.withObservationTracking(options: .willSet) {
      _ = ours.a + ours.b
    } onChange: { event in
      ourLog.value.append("a=\(ours.a) b=\(ours.b)")
      #expect(event.kind == .willSet)
      #expect(event.matches(\HandModel.b))
    }
    for model in [theirs, ours] as [any ScriptModel] {
      model.c = 1
      model.a = 0  // equal: no notification
      model.b = 1
      model.b = 2
      model.a = 3
    }
    #expect(theirLog.value == ["a=0 b=0"])
    #expect(ourLog.value == theirLog.value)
  }

  /// SE-0506, "Behavior & Example Usage": "any weak reference to the object will be nil when
  /// a `.deinit` event is received" — for the options form and the continuous form.
  @Test func aWeakReferenceIsNilAtTheDeinitEvent() {
    let weak = WeakHandModel()
    let seen = Box<[String]>([])
    var model: HandModel? = HandModel()
    weak.model = model
    ReactiveState.withObservationTracking(options: .deinit) {
      _ = weak.model?.a
    } onChange: { event in
      seen.value.append("options \(event.kind) nil=\(weak.model == nil)")
    }
    let token = withContinuousObservation(options: .deinit) { event in
      _ = weak.model?.b
      guard event.kind != .initial else { return }
      seen.value.append("continuous \(event.kind) nil=\(weak.model == nil)")
    }
    model = nil
    #expect(seen.value.sorted() == ["continuous deinit nil=true", "options deinit nil=true"])
    token.cancel()
  }

  /// §3.2 item 12 for the event forms: the SPI's willSet/didSet handlers run on the thread
  /// that performs the mutation, and so do the events of SE-0506's options form and of the
  /// continuous form (without a scheduler).
  @Test func eventsRunOnTheMutatingThread() {
    let theirs = ParityRound3Oracle()
    let ours = ParityRound3Model()
    let mutator = LockedBox<UInt>(0)
    let onMutator = LockedBox<[String]>([])
    @Sendable func note(_ name: String) {
      onMutator.value.append("\(name) \(currentThreadID() == mutator.value)")
    }
    let tracking = LockedBox<Observation.ObservationTracking?>(nil)
    Observation.withObservationTracking {
      _ = theirs.a
    } willSet: { received in
      tracking.value = received
      note("SPI willSet")
    } didSet: { _ in
      note("SPI didSet")
    }
    ReactiveState.withObservationTracking(options: [.willSet, .didSet]) {
      _ = ours.a
    } onChange: { event in
      note("options \(event.kind)")
    }
    let token = withContinuousObservation(options: [.willSet, .didSet]) { event in
      _ = ours.a
      if event.kind != .initial { note("continuous \(event.kind)") }
    }
    onAnotherThread {
      mutator.value = currentThreadID()
      theirs.a = 1
      ours.a = 1
    }
    tracking.value?.cancel()
    token.cancel()
    #expect(
      onMutator.value.sorted() == [
        "SPI didSet true", "SPI willSet true", "continuous didSet true",
        "continuous willSet true", "options didSet true", "options willSet true",
      ])
  }

  /// A continuous observer started inside a one-shot's `apply` is independent: its reads do
  /// not become the one-shot's dependencies, as with SE-0506's `withContinuousObservation`
  /// (whose first run happens later, on a runner task). Deliberate difference from
  /// swift-navigation's `observe`, whose synchronous first run is a nested
  /// `withObservationTracking` and leaks its reads into the enclosing scope (its PR #286; the
  /// oracle's nesting below shows that leak).
  @Test func aContinuousObserverStartedInsideApplyIsIndependent() {
    let theirs = OracleModel()
    let theirFired = Box(0)
    Observation.withObservationTracking {
      _ = theirs.a
      Observation.withObservationTracking({ _ = theirs.b }, onChange: {})  // a nested first run
    } onChange: {
      theirFired.value += 1
    }
    theirs.b = 1
    #expect(theirFired.value == 1, "a nested first run's read is the enclosing scope's")

    let ours = HandModel()
    let ourFired = Box(0)
    let tokens = Box<[ObservationToken]>([])
    ReactiveState.withObservationTracking {
      _ = ours.a
      tokens.value.append(observe { _ = ours.b })
      tokens.value.append(withContinuousObservation(options: .didSet) { _ in _ = ours.c })
    } onChange: {
      ourFired.value += 1
    }
    ours.b = 1
    ours.c = 1
    #expect(ourFired.value == 0, "the continuous observers' reads are their own")
    ours.a = 1
    #expect(ourFired.value == 1)
    for token in tokens.value { token.cancel() }
  }
}
