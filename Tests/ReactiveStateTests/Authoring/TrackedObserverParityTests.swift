import Observation
import ReactiveStateMacrosFree
import Testing

// The toolchain's `@Observable` macro is the oracle. With a `willSet` or `didSet` on a
// `@Tracked` property, the compiler (not `@Tracked`) decides how assignments and in-place
// mutations reach the wrapper: these tests pin where that differs from the macro, so the
// documentation states it.

private final class ObserverParityCount: @unchecked Sendable {
  var fired = 0
}

private final class ObserverParityModel: TrackedObservable, @unchecked Sendable {
  let observationRegistrar = ReactiveState.ObservationRegistrar()
  @Tracked var plain = 0
  @Tracked var simpleDidSet = 0 { didSet {} }
  @Tracked var willSetOnly = 0 { willSet {} }
  @Tracked var didSetReadingOldValue = 0 { didSet { _ = oldValue } }
}

@Observation.Observable
private final class ObserverParityOracle {
  var plain = 0
  var simpleDidSet = 0 { didSet {} }
  var willSetOnly = 0 { willSet {} }
  var didSetReadingOldValue = 0 { didSet { _ = oldValue } }
}

/// How many times a one-shot observer of `read` fires while `write` runs (ReactiveState).
private func firesTracked(reading read: () -> Void, during write: () -> Void) -> Int {
  let count = ObserverParityCount()
  ReactiveState.withObservationTracking(read) { count.fired += 1 }
  write()
  return count.fired
}

/// The same measurement against the toolchain's `Observation`.
private func firesOracle(reading read: () -> Void, during write: () -> Void) -> Int {
  let count = ObserverParityCount()
  Observation.withObservationTracking(read) { count.fired += 1 }
  write()
  return count.fired
}

@Suite struct TrackedObserverParityTests {
  /// The macro's `_modify` notifies every in-place mutation, even one that leaves the value
  /// equal. So does `@Tracked`'s — but with an observer on the property the compiler routes
  /// `+= 0` through the getter and the setter, whose equality rule finds nothing changed.
  @Test func anUnchangingInPlaceMutationOfAPropertyWithObserversDoesNotNotify() {
    let model = ObserverParityModel()
    let oracle = ObserverParityOracle()
    #expect(firesTracked(reading: { _ = model.plain }, during: { model.plain += 0 }) == 1)
    #expect(firesOracle(reading: { _ = oracle.plain }, during: { oracle.plain += 0 }) == 1)
    let tracked = [
      firesTracked(reading: { _ = model.simpleDidSet }, during: { model.simpleDidSet += 0 }),
      firesTracked(reading: { _ = model.willSetOnly }, during: { model.willSetOnly += 0 }),
      firesTracked(
        reading: { _ = model.didSetReadingOldValue }, during: { model.didSetReadingOldValue += 0 }),
    ]
    let macro = [
      firesOracle(reading: { _ = oracle.simpleDidSet }, during: { oracle.simpleDidSet += 0 }),
      firesOracle(reading: { _ = oracle.willSetOnly }, during: { oracle.willSetOnly += 0 }),
      firesOracle(
        reading: { _ = oracle.didSetReadingOldValue },
        during: { oracle.didSetReadingOldValue += 0 }),
    ]
    #expect(macro == [1, 1, 1])
    #expect(tracked == [0, 0, 0], "documented difference: the setter's equality rule decides")
    // A mutation that changes the value notifies once, as with the macro.
    #expect(
      firesTracked(reading: { _ = model.simpleDidSet }, during: { model.simpleDidSet += 1 }) == 1)
  }

  /// An assignment inside a tracking scope records a read only when the compiler fetches the
  /// old value: for a `didSet` that reads `oldValue`, not for a `willSet` alone or a `didSet`
  /// that does not (SE-0268). The macro never records one.
  @Test func anAssignmentRecordsAReadOnlyForADidSetThatReadsOldValue() {
    let model = ObserverParityModel()
    func readsRecorded(by assign: () -> Void, then write: () -> Void) -> Int {
      firesTracked(reading: assign, during: write)
    }
    #expect(readsRecorded(by: { model.simpleDidSet = 1 }, then: { model.simpleDidSet = 2 }) == 0)
    #expect(readsRecorded(by: { model.willSetOnly = 1 }, then: { model.willSetOnly = 2 }) == 0)
    #expect(
      readsRecorded(
        by: { model.didSetReadingOldValue = 1 }, then: { model.didSetReadingOldValue = 2 }) == 1)
    let oracle = ObserverParityOracle()
    #expect(
      firesOracle(
        reading: { oracle.didSetReadingOldValue = 1 },
        during: { oracle.didSetReadingOldValue = 2 }) == 0)
  }
}
