import Observation
import ReactiveStateMacrosFree
import Testing

// The toolchain's `@Observable` models below are the oracle: each `@Tracked` model must fire
// exactly as often as the macro-generated one.

private final class TrackedCounter: @unchecked Sendable {
  var value = 0
}

private struct TrackedOpaque {
  var id = 0
}

private final class TrackedReference {}

private final class TrackedEquatableReference: Equatable {
  let id: Int
  init(id: Int) { self.id = id }
  static func == (lhs: TrackedEquatableReference, rhs: TrackedEquatableReference) -> Bool {
    lhs.id == rhs.id
  }
}

private final class TrackedModel: TrackedObservable, @unchecked Sendable {
  let observationRegistrar = ReactiveState.ObservationRegistrar()
  @Tracked var int = 0
  @Tracked var string = "a"
  @Tracked var optional: Int? = nil
  @Tracked var array = [1, 2]
  @Tracked var opaque = TrackedOpaque()
  @Tracked var reference = TrackedReference()
  @Tracked var equatableReference = TrackedEquatableReference(id: 1)
  @Tracked var double = Double.nan
  @Tracked var ratio = 0.5
  @Tracked var flag = false
  @Tracked var observed = 0 {
    didSet { didSetCount += 1 }
  }
  var ignored = 0
  var didSetCount = 0
}

@Observation.Observable
private final class TrackedOracleModel {
  var int = 0
  var string = "a"
  var optional: Int? = nil
  var array = [1, 2]
  var opaque = TrackedOpaque()
  var reference = TrackedReference()
  var equatableReference = TrackedEquatableReference(id: 1)
  var double = Double.nan
  var ratio = 0.5
  var flag = false
  var observed = 0 {
    didSet { didSetCount += 1 }
  }
  @ObservationIgnored var ignored = 0
  @ObservationIgnored var didSetCount = 0
}

/// How many times a one-shot observer of `read` fires while `mutate` runs (ReactiveState).
private func trackedFires(reading read: () -> Void, during mutate: () -> Void) -> Int {
  let count = TrackedCounter()
  ReactiveState.withObservationTracking(read) { count.value += 1 }
  mutate()
  return count.value
}

/// The same measurement against the toolchain's `Observation`.
private func trackedOracleFires(reading read: () -> Void, during mutate: () -> Void) -> Int {
  let count = TrackedCounter()
  Observation.withObservationTracking(read) { count.value += 1 }
  mutate()
  return count.value
}

/// Fires for `tracked.property = value` and `oracle.property = value`, after reading it.
private func trackedAssignmentFires<Value>(
  _ trackedKeyPath: ReferenceWritableKeyPath<TrackedModel, Value>,
  _ oracleKeyPath: ReferenceWritableKeyPath<TrackedOracleModel, Value>,
  tracked: TrackedModel = TrackedModel(), oracle: TrackedOracleModel = TrackedOracleModel(),
  assign value: (TrackedModel) -> Value
) -> (tracked: Int, oracle: Int) {
  let trackedValue = value(tracked)
  let oracleValue = trackedValue
  let trackedCount = trackedFires(
    reading: { _ = tracked[keyPath: trackedKeyPath] },
    during: {
      tracked[keyPath: trackedKeyPath] = trackedValue
    })
  let oracleCount = trackedOracleFires(
    reading: { _ = oracle[keyPath: oracleKeyPath] },
    during: {
      oracle[keyPath: oracleKeyPath] = oracleValue
    })
  return (trackedCount, oracleCount)
}

@Suite("@Tracked")
struct TrackedTests {
  @Test func readRecordsAndChangeNotifies() {
    let model = TrackedModel()
    #expect(trackedFires(reading: { _ = model.int }, during: { model.int = 5 }) == 1)
    #expect(model.int == 5)
  }

  @Test func unreadAndIgnoredPropertiesDoNotNotify() {
    let model = TrackedModel()
    #expect(trackedFires(reading: { _ = model.int }, during: { model.string = "b" }) == 0)
    #expect(
      trackedFires(reading: { _ = (model.int, model.ignored) }, during: { model.ignored = 3 }) == 0)
    #expect(trackedFires(reading: { _ = model.int }, during: { TrackedModel().int = 3 }) == 0)
  }

  @Test func equalIntDoesNotNotify() {
    let result = trackedAssignmentFires(\.int, \.int) { _ in 0 }
    #expect(result.tracked == 0)
    #expect(result.tracked == result.oracle)
    let changed = trackedAssignmentFires(\.int, \.int) { _ in 1 }
    #expect(changed.tracked == 1)
    #expect(changed.tracked == changed.oracle)
  }

  @Test func equalStringDoesNotNotify() {
    let result = trackedAssignmentFires(\.string, \.string) { _ in "a" }
    #expect(result.tracked == 0)
    #expect(result.tracked == result.oracle)
    let changed = trackedAssignmentFires(\.string, \.string) { _ in "b" }
    #expect(changed.tracked == 1)
    #expect(changed.tracked == changed.oracle)
  }

  // Int, Double, Bool and String take the setter's direct comparison (see `_shouldNotify`).
  @Test func equalBoolAndDoubleDoNotNotify() {
    for (value, fires) in [(false, 0), (true, 1)] {
      let result = trackedAssignmentFires(\.flag, \.flag) { _ in value }
      #expect(result.tracked == fires)
      #expect(result.tracked == result.oracle)
    }
    for (value, fires) in [(0.5, 0), (-0.5, 1)] {
      let result = trackedAssignmentFires(\.ratio, \.ratio) { _ in value }
      #expect(result.tracked == fires)
      #expect(result.tracked == result.oracle)
    }
  }

  @Test func canonicallyEqualStringDoesNotNotify() {
    let tracked = TrackedModel()
    let oracle = TrackedOracleModel()
    tracked.string = "caf\u{E9}"
    oracle.string = "caf\u{E9}"
    // The same text with a combining accent: `==`, with different code units.
    let result = trackedAssignmentFires(\.string, \.string, tracked: tracked, oracle: oracle) {
      _ in "cafe\u{301}"
    }
    #expect(result.tracked == 0)
    #expect(result.tracked == result.oracle)
  }

  @Test func nilToNilDoesNotNotify() {
    let result = trackedAssignmentFires(\.optional, \.optional) { _ in nil }
    #expect(result.tracked == 0)
    #expect(result.tracked == result.oracle)
    let changed = trackedAssignmentFires(\.optional, \.optional) { _ in 3 }
    #expect(changed.tracked == 1)
    #expect(changed.tracked == changed.oracle)
  }

  @Test func equalArrayDoesNotNotify() {
    let result = trackedAssignmentFires(\.array, \.array) { _ in [1, 2] }
    #expect(result.tracked == 0)
    #expect(result.tracked == result.oracle)
    let changed = trackedAssignmentFires(\.array, \.array) { _ in [1, 2, 3] }
    #expect(changed.tracked == 1)
    #expect(changed.tracked == changed.oracle)
  }

  @Test func nonEquatableStructAlwaysNotifies() {
    let result = trackedAssignmentFires(\.opaque, \.opaque) { _ in TrackedOpaque() }
    #expect(result.tracked == 1)
    #expect(result.tracked == result.oracle)
  }

  @Test func classIdentityDecides() {
    let shared = TrackedReference()
    let tracked = TrackedModel()
    let oracle = TrackedOracleModel()
    tracked.reference = shared
    oracle.reference = shared
    let same = trackedAssignmentFires(\.reference, \.reference, tracked: tracked, oracle: oracle) {
      _ in
      shared
    }
    #expect(same.tracked == 0)
    #expect(same.tracked == same.oracle)
    let new = trackedAssignmentFires(\.reference, \.reference, tracked: tracked, oracle: oracle) {
      _ in
      TrackedReference()
    }
    #expect(new.tracked == 1)
    #expect(new.tracked == new.oracle)
  }

  @Test func equatableClassComparesWithEquality() {
    let equalInstance = trackedAssignmentFires(\.equatableReference, \.equatableReference) { _ in
      TrackedEquatableReference(id: 1)
    }
    #expect(equalInstance.tracked == 0)
    #expect(equalInstance.tracked == equalInstance.oracle)
    let different = trackedAssignmentFires(\.equatableReference, \.equatableReference) { _ in
      TrackedEquatableReference(id: 2)
    }
    #expect(different.tracked == 1)
    #expect(different.tracked == different.oracle)
  }

  @Test func nanAlwaysNotifies() {
    let result = trackedAssignmentFires(\.double, \.double) { _ in Double.nan }
    #expect(result.tracked == 1)
    #expect(result.tracked == result.oracle)
  }

  @Test func userDidSetRunsOnEqualAssignment() {
    let tracked = TrackedModel()
    let oracle = TrackedOracleModel()
    let result = trackedAssignmentFires(\.observed, \.observed, tracked: tracked, oracle: oracle) {
      _ in
      0
    }
    #expect(result.tracked == 0)
    #expect(result.tracked == result.oracle)
    #expect(tracked.didSetCount == 1)
    #expect(tracked.didSetCount == oracle.didSetCount)
  }

  @Test func equalAssignmentStillStores() {
    let model = TrackedModel()
    let replacement = TrackedEquatableReference(id: 1)
    model.equatableReference = replacement
    #expect(model.equatableReference === replacement)
  }
}
