import ReactiveStateMacrosFree
import Testing

/// Pins promises of the macro-free authoring helpers that a second round of mutation testing
/// found unchecked.
@Suite struct MutationFindingsAuthoringTests {
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
