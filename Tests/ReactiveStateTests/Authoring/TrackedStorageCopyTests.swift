import Observation
import ReactiveStateMacrosFree
import Testing

/// A copy initializer that copies a `@Tracked` property's storage (`_values = other._values`,
/// as one writes with the macro's `_values`) used to copy its cached slot token too: the copy
/// then recorded reads on the original's registrar and its writes notified nobody. Checked
/// against the toolchain's `@Observable` (the oracle). Found by a review.
@Suite struct TrackedStorageCopyTests {
  final class Clonable: TrackedObservable, @unchecked Sendable {
    let observationRegistrar = ReactiveState.ObservationRegistrar()
    @Tracked var values: [Int] = []
    init() {}
    init(copying other: Clonable) { _values = other._values }
  }

  @Observation.Observable
  final class OracleClonable: @unchecked Sendable {
    var values: [Int] = []
    init() {}
    init(copying other: OracleClonable) { _values = other._values }
  }

  /// How often a one-shot armed by `read` fires during `mutate`, per engine.
  static func fires(reading read: () -> Void, during mutate: () -> Void) -> Int {
    let count = Box(0)
    ReactiveState.withObservationTracking(read) { count.value += 1 }
    mutate()
    return count.value
  }

  static func oracleFires(reading read: () -> Void, during mutate: () -> Void) -> Int {
    let count = Box(0)
    Observation.withObservationTracking(read) { count.value += 1 }
    mutate()
    return count.value
  }

  @Test func aCopyNotifiesItsOwnObserversAndNotTheOriginals() {
    let original = Clonable()
    // Observed and written once: the storage's token is filled.
    _ = Self.fires(reading: { _ = original.values }, during: { original.values = [1] })
    let clone = Clonable(copying: original)
    let originalFires = Self.fires(reading: { _ = original.values }, during: { clone.values = [2] })
    let cloneFires = Self.fires(reading: { _ = clone.values }, during: { clone.values = [3] })

    let oracleOriginal = OracleClonable()
    _ = Self.oracleFires(
      reading: { _ = oracleOriginal.values }, during: { oracleOriginal.values = [1] })
    let oracleClone = OracleClonable(copying: oracleOriginal)
    let oracleOriginalFires = Self.oracleFires(
      reading: { _ = oracleOriginal.values }, during: { oracleClone.values = [2] })
    let oracleCloneFires = Self.oracleFires(
      reading: { _ = oracleClone.values }, during: { oracleClone.values = [3] })

    #expect(originalFires == oracleOriginalFires)
    #expect(cloneFires == oracleCloneFires)
    #expect(cloneFires == 1)
    #expect(original.values == [1])
    #expect(clone.values == [3])
  }
}
