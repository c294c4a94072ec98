import Observation
import ReactiveStateMacrosFree
import Testing

/// A hand-written reference property whose store also counts how often it ran (the setter's
/// `didSet`-like logic).
private final class HandWrittenReferenceModel: ReactiveState.Observable, @unchecked Sendable {
  private let registrar = ReactiveState.ObservationRegistrar()
  var stores = 0

  private var _canary = Canary()
  var canary: Canary {
    get {
      registrar.access(self, keyPath: \.canary)
      return _canary
    }
    set {
      registrar.withMutation(of: self, keyPath: \.canary, replacing: _canary, with: newValue) {
        _canary = newValue
        stores += 1
      }
    }
  }
}

/// The oracle of ``HandWrittenReferenceModel``: the macro's property with a counting `didSet`.
@Observation.Observable
private final class OracleReferenceModel {
  var canary = Canary() {
    didSet { stores += 1 }
  }
  @ObservationIgnored var stores = 0
}

/// Pins promises of the macro-free authoring helpers that a second round of mutation testing
/// found unchecked.
@Suite struct MutationFindingsAuthoringTests {
  /// Pins that the class-identity setter helper still runs the store (and the logic in it) for
  /// an assignment of the same instance, without notifying, as the `@Observable` macro runs a
  /// `didSet`.
  @Test func assigningTheSameInstanceRunsTheStoreWithoutNotifying() {
    let hand = HandWrittenReferenceModel()
    let oracle = OracleReferenceModel()
    let handFires = TrackedStorageCopyTests.fires(
      reading: { _ = hand.canary }, during: { hand.canary = hand.canary })
    let oracleFires = TrackedStorageCopyTests.oracleFires(
      reading: { _ = oracle.canary }, during: { oracle.canary = oracle.canary })
    #expect(handFires == 0)
    #expect(handFires == oracleFires)
    #expect(oracle.stores == 1)
    #expect(hand.stores == oracle.stores, "the store ran, as the macro's didSet does")
  }

  /// Pins that an observed in-place mutation keeps the property's slot token in its storage,
  /// as an observed assignment does: storage moved afterwards from that property into another
  /// (`_a = _b`) is then named on the other's write.
  @Test func anInPlaceMutationKeepsThePropertysSlotInItsStorage() {
    let pair = TrackedStorageCopyTests.Pair()
    let fired = TrackedStorageCopyTests.fires(reading: { _ = pair.b }, during: { pair.b += 1 })
    #expect(fired == 1)
    pair.moveStorageOfBIntoA()
    let reported = ObservationDiagnostics.capture { pair.a = 5 }
    #expect(reported.count == 1)
    #expect(reported.first?.message.contains("its storage was assigned from") == true)
  }

  /// Pins the documented rule that `@Tracked` storage keeps its property's slot: once `_a = _b`
  /// moved `b`'s filled storage into `a`, a read of `a` is a read of `b`'s slot, so a write of
  /// `b` reaches the reader.
  @Test func aReadThroughMovedStorageRecordsTheSlotItCarries() {
    let pair = TrackedStorageCopyTests.Pair()
    _ = TrackedStorageCopyTests.fires(reading: { _ = pair.b }, during: { pair.b = 1 })
    pair.moveStorageOfBIntoA()
    let fired = TrackedStorageCopyTests.fires(reading: { _ = pair.a }, during: { pair.b = 2 })
    #expect(fired == 1)
  }

  /// Pins that `@Derived` storage shared with another instance is named by a diagnostic even
  /// when the other instance's first use is `$property` (its uncached `Computed`), not a read.
  @Test func sharedDerivedStorageIsReportedOnAProjectedValueRead() {
    let original = TrackedStorageCopyTests.Cart()
    original.prices = [1]
    #expect(original.total == 1)
    let copy = TrackedStorageCopyTests.Cart(copying: original)
    let reported = ObservationDiagnostics.capture {
      #expect((try? copy.$total.get()) == 1)
    }
    #expect(reported.count == 1)
    #expect(reported.first?.message.contains("shares its storage with another one") == true)
  }
}
