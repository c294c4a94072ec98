import Observation
import ReactiveStateMacrosFree
import Testing

// The macro's equality rule through the hand-written accessor helper
// `registrar.withMutation(of:keyPath:replacing:with:_:)`, checked against `@Observable`.

private final class HelperCounter: @unchecked Sendable {
  var value = 0
}

private struct HelperOpaque {}

private final class HelperReference {}

private final class HelperEquatableReference: Equatable {
  let id: Int
  init(id: Int) { self.id = id }
  static func == (lhs: HelperEquatableReference, rhs: HelperEquatableReference) -> Bool {
    lhs.id == rhs.id
  }
}

private final class HelperModel: ReactiveState.Observable, @unchecked Sendable {
  private let registrar = ReactiveState.ObservationRegistrar()

  private var _int = 0
  var int: Int {
    get {
      registrar.access(self, keyPath: \.int)
      return _int
    }
    set {
      registrar.withMutation(of: self, keyPath: \.int, replacing: _int, with: newValue) {
        _int = newValue
      }
    }
  }

  private var _string = "a"
  var string: String {
    get {
      registrar.access(self, keyPath: \.string)
      return _string
    }
    set {
      registrar.withMutation(of: self, keyPath: \.string, replacing: _string, with: newValue) {
        _string = newValue
      }
    }
  }

  private var _optional: Int? = nil
  var optional: Int? {
    get {
      registrar.access(self, keyPath: \.optional)
      return _optional
    }
    set {
      registrar.withMutation(
        of: self, keyPath: \.optional, replacing: _optional, with: newValue
      ) {
        _optional = newValue
      }
    }
  }

  private var _array = [1, 2]
  var array: [Int] {
    get {
      registrar.access(self, keyPath: \.array)
      return _array
    }
    set {
      registrar.withMutation(of: self, keyPath: \.array, replacing: _array, with: newValue) {
        _array = newValue
      }
    }
  }

  private var _opaque = HelperOpaque()
  var opaque: HelperOpaque {
    get {
      registrar.access(self, keyPath: \.opaque)
      return _opaque
    }
    set {
      registrar.withMutation(of: self, keyPath: \.opaque, replacing: _opaque, with: newValue) {
        _opaque = newValue
      }
    }
  }

  private var _reference = HelperReference()
  /// How many times the `reference` setter's store ran (its `didSet`-like logic).
  var referenceStores = 0
  var reference: HelperReference {
    get {
      registrar.access(self, keyPath: \.reference)
      return _reference
    }
    set {
      registrar.withMutation(
        of: self, keyPath: \.reference, replacing: _reference, with: newValue
      ) {
        _reference = newValue
        referenceStores += 1
      }
    }
  }

  private var _equatableReference = HelperEquatableReference(id: 1)
  var equatableReference: HelperEquatableReference {
    get {
      registrar.access(self, keyPath: \.equatableReference)
      return _equatableReference
    }
    set {
      registrar.withMutation(
        of: self, keyPath: \.equatableReference, replacing: _equatableReference, with: newValue
      ) {
        _equatableReference = newValue
      }
    }
  }

  private var _double = Double.nan
  var double: Double {
    get {
      registrar.access(self, keyPath: \.double)
      return _double
    }
    set {
      registrar.withMutation(of: self, keyPath: \.double, replacing: _double, with: newValue) {
        _double = newValue
      }
    }
  }
}

@Observation.Observable
private final class HelperOracle {
  var int = 0
  var string = "a"
  var optional: Int? = nil
  var array = [1, 2]
  var opaque = HelperOpaque()
  var reference = HelperReference() {
    didSet { referenceStores += 1 }
  }
  @ObservationIgnored var referenceStores = 0
  var equatableReference = HelperEquatableReference(id: 1)
  var double = Double.nan
}

/// Fires for `hand.property = value` and `oracle.property = value` after reading it.
private func helperFires<Value>(
  _ handKeyPath: ReferenceWritableKeyPath<HelperModel, Value>,
  _ oracleKeyPath: ReferenceWritableKeyPath<HelperOracle, Value>,
  hand: HelperModel = HelperModel(), oracle: HelperOracle = HelperOracle(),
  assign value: Value
) -> (hand: Int, oracle: Int) {
  let handCount = HelperCounter()
  ReactiveState.withObservationTracking {
    _ = hand[keyPath: handKeyPath]
  } onChange: {
    handCount.value += 1
  }
  hand[keyPath: handKeyPath] = value
  let oracleCount = HelperCounter()
  Observation.withObservationTracking {
    _ = oracle[keyPath: oracleKeyPath]
  } onChange: {
    oracleCount.value += 1
  }
  oracle[keyPath: oracleKeyPath] = value
  return (handCount.value, oracleCount.value)
}

@Suite("Hand-written accessors with the macro's equality rule")
struct HandWrittenEqualityTests {
  @Test func equatableValues() {
    let cases = [
      helperFires(\.int, \.int, assign: 0), helperFires(\.string, \.string, assign: "a"),
      helperFires(\.optional, \.optional, assign: nil),
      helperFires(\.array, \.array, assign: [1, 2]),
    ]
    for result in cases {
      #expect(result.hand == 0)
      #expect(result.hand == result.oracle)
    }
    let changed = [
      helperFires(\.int, \.int, assign: 1), helperFires(\.string, \.string, assign: "b"),
      helperFires(\.optional, \.optional, assign: 1), helperFires(\.array, \.array, assign: [1]),
    ]
    for result in changed {
      #expect(result.hand == 1)
      #expect(result.hand == result.oracle)
    }
  }

  @Test func valuesWithoutEqualityAlwaysNotify() {
    let result = helperFires(\.opaque, \.opaque, assign: HelperOpaque())
    #expect(result.hand == 1)
    #expect(result.hand == result.oracle)
  }

  @Test func anEqualValueIsStoredWithoutNotifying() {
    let hand = HelperModel()
    let oracle = HelperOracle()
    hand.double = 0
    oracle.double = 0
    // -0.0 == 0.0, but its sign tells whether it was stored.
    let result = helperFires(\.double, \.double, hand: hand, oracle: oracle, assign: -0.0)
    #expect(result.hand == 0)
    #expect(result.hand == result.oracle)
    #expect(oracle.double.sign == .minus)
    #expect(hand.double.sign == .minus, "stored, as the macro stores it")
  }

  @Test func nanAlwaysNotifies() {
    let result = helperFires(\.double, \.double, assign: .nan)
    #expect(result.hand == 1)
    #expect(result.hand == result.oracle)
  }

  @Test func classReferencesCompareByIdentity() {
    let shared = HelperReference()
    let hand = HelperModel()
    let oracle = HelperOracle()
    hand.reference = shared
    oracle.reference = shared
    let same = helperFires(\.reference, \.reference, hand: hand, oracle: oracle, assign: shared)
    #expect(same.hand == 0)
    #expect(same.hand == same.oracle)
    // Not notified, but the store (and the logic in it) still ran, as the macro's didSet does.
    #expect(oracle.referenceStores == 2)
    #expect(hand.referenceStores == oracle.referenceStores)
    let new = helperFires(\.reference, \.reference, assign: HelperReference())
    #expect(new.hand == 1)
    #expect(new.hand == new.oracle)
  }

  @Test func equatableClassesCompareWithEquality() {
    let hand = HelperModel()
    let oracle = HelperOracle()
    let replacement = HelperEquatableReference(id: 1)
    let equal = helperFires(
      \.equatableReference, \.equatableReference, hand: hand, oracle: oracle, assign: replacement)
    #expect(equal.hand == 0)
    #expect(equal.hand == equal.oracle)
    // Not notified, but stored, as the macro stores it.
    #expect(oracle.equatableReference === replacement)
    #expect(hand.equatableReference === replacement)
    let different = helperFires(
      \.equatableReference, \.equatableReference, assign: HelperEquatableReference(id: 2))
    #expect(different.hand == 1)
    #expect(different.hand == different.oracle)
  }
}
