import Observation
import ReactiveStateMacrosFree
import Testing

// Behaviour of the macro-free authoring helpers that mutation testing found unpinned.

/// An `Equatable` value whose `==` ignores `note`: an `==` assignment can still be told apart.
private struct LooselyEqual: Equatable {
  let id: Int
  let note: String
  static func == (lhs: LooselyEqual, rhs: LooselyEqual) -> Bool { lhs.id == rhs.id }
}

/// An `Equatable` class: an `==` instance is a different object.
private final class EqualByID: Equatable {
  let id: Int
  init(id: Int) { self.id = id }
  static func == (lhs: EqualByID, rhs: EqualByID) -> Bool { lhs.id == rhs.id }
}

/// Setters written with `registrar.withMutation(of:keyPath:replacing:with:_:)`.
private final class HandWrittenSetters: ReactiveState.Observable, @unchecked Sendable {
  private let registrar = ReactiveState.ObservationRegistrar()

  private var _value = LooselyEqual(id: 1, note: "old")
  var value: LooselyEqual {
    get {
      registrar.access(self, keyPath: \.value)
      return _value
    }
    set {
      registrar.withMutation(of: self, keyPath: \.value, replacing: _value, with: newValue) {
        _value = newValue
      }
    }
  }

  private var _reference = EqualByID(id: 1)
  var reference: EqualByID {
    get {
      registrar.access(self, keyPath: \.reference)
      return _reference
    }
    set {
      registrar.withMutation(
        of: self, keyPath: \.reference, replacing: _reference, with: newValue
      ) {
        _reference = newValue
      }
    }
  }
}

/// The oracle: the toolchain's macro with the same properties.
@Observation.Observable
private final class MacroSetters {
  var value = LooselyEqual(id: 1, note: "old")
  var reference = EqualByID(id: 1)
}

@Suite struct MutationFindingsAuthoringTests {
  /// Counts the `onChange` calls of a one-shot tracking `read`, across `write`.
  private static func fires(reading read: () -> Void, during write: () -> Void) -> Int {
    let count = Box(0)
    ReactiveState.withObservationTracking(read) { count.value += 1 }
    write()
    return count.value
  }

  // Pins: an `==` assignment through the Equatable helper still stores the value (macro parity).
  @Test func anEqualAssignmentThroughTheEquatableHelperStillStoresTheValue() {
    let hand = HandWrittenSetters()
    let oracle = MacroSetters()
    let replacement = LooselyEqual(id: 1, note: "new")
    let fired = Self.fires(reading: { _ = hand.value }, during: { hand.value = replacement })
    oracle.value = replacement
    #expect(fired == 0, "an == value does not notify")
    #expect(oracle.value.note == "new")
    #expect(hand.value.note == oracle.value.note, "but it is stored, as the macro stores it")
  }

  // Pins: an `==` instance assigned through the Equatable-class helper is stored (macro parity).
  @Test func anEqualInstanceThroughTheEquatableClassHelperIsStillStored() {
    let hand = HandWrittenSetters()
    let oracle = MacroSetters()
    let replacement = EqualByID(id: 1)
    let fired = Self.fires(
      reading: { _ = hand.reference }, during: { hand.reference = replacement })
    oracle.reference = replacement
    #expect(fired == 0, "an == instance does not notify")
    #expect(oracle.reference === replacement)
    #expect(hand.reference === replacement, "but it is stored, as the macro stores it")
  }

  // Pins: a `@Derived` property's `Computed` is released with its object (the storage owns it).
  @Test func aDerivedPropertysComputedGoesWithItsObject() {
    weak var weakCart: DerivedCart?
    weak var weakTotal: Computed<Int>?
    do {
      let cart = DerivedCart()
      cart.prices = [1, 2]
      #expect(cart.total == 3)
      weakCart = cart
      weakTotal = cart.$total
      #expect(weakTotal != nil)
    }
    #expect(weakCart == nil)
    #expect(weakTotal == nil, "the storage released its Computed")
  }
}
