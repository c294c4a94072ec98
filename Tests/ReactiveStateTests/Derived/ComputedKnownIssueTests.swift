import Observation
import ReactiveState
import Testing

/// Open defects of one-shot registrations over a `Computed` whose owner is gone, recorded as
/// known issues: each test fails (reports an unexpected pass) once the defect is fixed, so
/// the `withKnownIssue` can then be removed.
@Suite struct ComputedKnownIssueTests {
  /// The oracle fires only when an input of the computed property changes.
  @Test func aOneShotOverATemporaryComputedWaitsForAChange() {
    let oracle = OracleModel()
    let oracleFired = Box(0)
    Observation.withObservationTracking {
      _ = oracle.sum
    } onChange: {
      oracleFired.value += 1
    }
    let model = HandModel()
    let fired = Box(0)
    ReactiveState.withObservationTracking {
      _ = Computed { model.a + model.b }.value
    } onChange: {
      fired.value += 1
    }
    #expect(oracleFired.value == 0)
    withKnownIssue("abandoning the temporary Computed counts as a missed change") {
      #expect(fired.value == oracleFired.value, "nothing changed yet")
    }
  }

  /// The model is alive: a change of an input must still reach the registration.
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
    model.a = 1
    withKnownIssue("the released node ends the registration without a call") {
      #expect(fired.value == 1)
    }
  }
}
