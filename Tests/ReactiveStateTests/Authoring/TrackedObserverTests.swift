import Observation
import ReactiveStateMacrosFree
import Testing

// User `willSet`/`didSet` on a `@Tracked` property: what matches the macro and what is pinned as
// a documented difference (the compiler, not `@Tracked`, decides how observers wrap the setter).

private final class ObserverLog: @unchecked Sendable {
  var events: [String] = []
}

private final class ObserverModel: TrackedObservable, @unchecked Sendable {
  let observationRegistrar = ReactiveState.ObservationRegistrar()
  let log = ObserverLog()
  @Tracked var value = 0 {
    willSet { log.events.append("willSet \(newValue)") }
    didSet { log.events.append("didSet \(oldValue)") }
  }
  @Tracked var plain = 0
}

@Observation.Observable
private final class ObserverOracle {
  @ObservationIgnored let log = ObserverLog()
  var value = 0 {
    willSet { log.events.append("willSet \(newValue)") }
    didSet { log.events.append("didSet \(oldValue)") }
  }
}

@Suite("@Tracked with property observers")
struct TrackedObserverTests {
  @Test func observersRunAroundTheRegistrar() {
    let model = ObserverModel()
    ReactiveState.withObservationTracking {
      _ = model.value
    } onChange: {
      model.log.events.append("onChange")
    }
    model.value = 1
    // Difference from the macro: the user's willSet runs before the registrar's.
    #expect(model.log.events == ["willSet 1", "onChange", "didSet 0"])

    let oracle = ObserverOracle()
    let oracleLog = oracle.log
    Observation.withObservationTracking {
      _ = oracle.value
    } onChange: {
      oracleLog.events.append("onChange")
    }
    oracle.value = 1
    #expect(oracle.log.events == ["onChange", "willSet 1", "didSet 0"])
  }

  @Test func observersRunOnEqualAssignmentWithoutNotifying() {
    let model = ObserverModel()
    let fired = ObserverLog()
    ReactiveState.withObservationTracking {
      _ = model.value
    } onChange: {
      fired.events.append("onChange")
    }
    model.value = 0
    #expect(fired.events.isEmpty)
    #expect(model.log.events == ["willSet 0", "didSet 0"])
  }

  @Test func assignmentWithObserversRecordsARead() {
    // Difference from the macro: the compiler fetches the old value through the getter.
    let model = ObserverModel()
    let fired = ObserverLog()
    ReactiveState.withObservationTracking {
      model.value = 5
    } onChange: {
      fired.events.append("observed")
    }
    model.value = 6
    #expect(fired.events == ["observed"])
  }

  @Test func assignmentWithoutObserversRecordsNothing() {
    let model = ObserverModel()
    let fired = ObserverLog()
    ReactiveState.withObservationTracking {
      model.plain = 5
    } onChange: {
      fired.events.append("observed")
    }
    model.plain = 6
    #expect(fired.events.isEmpty)
  }
}
