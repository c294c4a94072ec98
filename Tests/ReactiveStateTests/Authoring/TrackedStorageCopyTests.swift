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

  final class Pair: TrackedObservable, @unchecked Sendable {
    let observationRegistrar = ReactiveState.ObservationRegistrar()
    @Tracked var a = 0
    @Tracked var b = 0
    func moveStorageOfBIntoA() { _a = _b }
  }

  /// Deliberately different from the macro, where `_a = _b` copies a value: `@Tracked` storage
  /// carries its property's cached slot, so after the assignment `a`'s writes notify `b`'s
  /// observers. Not detected in optimised builds (the check would cost every write); debug
  /// builds, which run these tests, name the mistake.
  @Test func storageAssignedFromAnotherPropertyOfTheObjectIsReportedOnWrite() {
    let pair = Pair()
    _ = Self.fires(reading: { _ = pair.b }, during: { pair.b = 1 })  // fills b's token
    pair.moveStorageOfBIntoA()
    let reported = ObservationDiagnostics.capture { pair.a = 5 }
    #expect(reported.count == 1)
    #expect(reported.first?.message.contains("its storage was assigned from") == true)
    let untouched = Pair()
    #expect(ObservationDiagnostics.capture { untouched.a = 5 }.isEmpty)
  }

  final class Cart: TrackedObservable, @unchecked Sendable {
    let observationRegistrar = ReactiveState.ObservationRegistrar()
    @Tracked var prices: [Int] = []
    @Derived({ (cart: Cart) in cart.prices.reduce(0, +) }) var total: Int
    init() {}
    init(copying other: Cart) {
      _prices = other._prices
      _total = other._total
    }
  }

  /// `@Derived` storage assigned from another instance used to serve that instance's value.
  /// The copy now computes its own, on each read, tracks what it reads, and says why.
  @Test func derivedStorageAssignedFromAnotherInstanceDerivesFromItsNewInstance() {
    let original = Cart()
    original.prices = [1]
    #expect(original.total == 1)
    let copy = Cart(copying: original)
    var reported = ObservationDiagnostics.capture {
      copy.prices = [100]
      #expect(copy.total == 100)
      #expect((try? copy.$total.get()) == 100)
    }
    #expect(reported.count == 1)  // once per storage
    #expect(reported.first?.message.contains("shares its storage with another one") == true)
    #expect(original.total == 1)
    // The copy's reads are tracked: a change of its prices reaches an observer of its total.
    let fired = Self.fires(reading: { _ = copy.total }, during: { copy.prices = [100, 5] })
    #expect(fired == 1)
    #expect(copy.total == 105)
    // The original keeps its cached value and its own dependencies.
    reported = ObservationDiagnostics.capture {
      let originalFired = Self.fires(
        reading: { _ = original.total }, during: { original.prices = [2] })
      #expect(originalFired == 1)
    }
    #expect(reported.isEmpty)
    #expect(original.total == 2)
  }

  /// The first instance to read keeps the cache, even a copy: the other one's values stay
  /// right, computed on each read.
  @Test func whicheverInstanceReadsFirstKeepsTheCachedValue() {
    let original = Cart()
    original.prices = [1]
    let copy = Cart(copying: original)
    copy.prices = [2]
    #expect(copy.total == 2)
    #expect(copy.$total === copy.$total)
    let reported = ObservationDiagnostics.capture {
      #expect(original.total == 1)
      original.prices = [1, 3]
      #expect(original.total == 4)
    }
    #expect(reported.count == 1)
    #expect(copy.total == 2)
  }
}
