import Observation
import ReactiveStateMacrosFree
import Testing

// Promises of `@Tracked` and `@Derived` that a third round of mutation testing found unchecked.
// The toolchain's `@Observable` is the oracle where it has the same behaviour.

/// An `Equatable` whose `==` is not symmetric: a wildcard left operand equals anything. It
/// tells which of the old and the new value the equality rule puts on the left.
private struct Round3Lenient: Equatable {
  var value: Int
  var wildcard = false
  static func == (lhs: Round3Lenient, rhs: Round3Lenient) -> Bool {
    lhs.wildcard || lhs.value == rhs.value
  }
}

private final class Round3Model: TrackedObservable, @unchecked Sendable {
  let observationRegistrar = ReactiveState.ObservationRegistrar()
  @Tracked var count = 0
  @Tracked var values: [Int] = []
  @Tracked var lenient = Round3Lenient(value: 0, wildcard: true)
}

/// The same property with hand-written accessors over the equality-rule helper.
private final class Round3HandModel: ReactiveState.Observable, @unchecked Sendable {
  private let registrar = ReactiveState.ObservationRegistrar()
  private var _lenient = Round3Lenient(value: 0, wildcard: true)
  var lenient: Round3Lenient {
    get {
      registrar.access(self, keyPath: \.lenient)
      return _lenient
    }
    set {
      registrar.withMutation(of: self, keyPath: \.lenient, replacing: _lenient, with: newValue) {
        _lenient = newValue
      }
    }
  }
}

@Observation.Observable
private final class Round3Oracle: @unchecked Sendable {
  var count = 0
  var values: [Int] = []
  var lenient = Round3Lenient(value: 0, wildcard: true)
}

/// A cart whose `@Derived` storage a copying initialiser shares (to make it name itself in a
/// diagnostic). `totalLine` is the line of the `@Derived` attribute.
private final class Round3Cart: TrackedObservable, @unchecked Sendable {
  let observationRegistrar = ReactiveState.ObservationRegistrar()
  @Tracked var prices: [Int] = []
  static let totalLine = #line + 1
  @Derived({ (cart: Round3Cart) in cart.prices.reduce(0, +) }) var total: Int
  init() {}
  init(sharingStorageOf other: Round3Cart) { _total = other._total }
}

/// What each one-shot observer's `onChange` read of the property during one write.
private final class Round3Seen: @unchecked Sendable {
  var values: [String] = []
}

@Suite struct MutationFindingsAuthoringRound3Tests {
  /// Pins that the change is announced *before* the value changes, for an assignment and for
  /// an in-place mutation (`_modify` announces before its yield): a one-shot observer's
  /// `onChange`, which runs at `willSet`, reads the old value, as with the macro.
  @Test func onChangeReadsTheOldValueDuringAnAssignmentAndAnInPlaceMutation() {
    let model = Round3Model()
    let oracle = Round3Oracle()
    let seen = Round3Seen()
    let oracleSeen = Round3Seen()
    func write(_ name: String, _ body: () -> Void) {
      ReactiveState.withObservationTracking {
        _ = (model.count, model.values)
      } onChange: {
        seen.values.append("\(name): \(model.count) \(model.values)")
      }
      Observation.withObservationTracking {
        _ = (oracle.count, oracle.values)
      } onChange: {
        oracleSeen.values.append("\(name): \(oracle.count) \(oracle.values)")
      }
      body()
    }
    write("assign") {
      model.count = 1
      oracle.count = 1
    }
    write("+=") {
      model.count += 1
      oracle.count += 1
    }
    write("append") {
      model.values.append(7)
      oracle.values.append(7)
    }
    #expect(seen.values == ["assign: 0 []", "+=: 1 []", "append: 2 []"])
    #expect(seen.values == oracleSeen.values)
    #expect((model.count, model.values) == (2, [7]))
  }

  /// Pins the operand order of the equality rule, for `@Tracked` and for the hand-written
  /// helper `withMutation(of:keyPath:replacing:with:_:)`: the stored (old) value is the left
  /// operand of `==`, as in the macro's `shouldNotifyObservers(_x, newValue)`. Only a type
  /// whose `==` is not symmetric can tell.
  @Test func theOldValueIsTheLeftOperandOfTheEqualityRule() {
    let model = Round3Model()
    let hand = Round3HandModel()
    let oracle = Round3Oracle()
    let count = TrackedStorageCopyTests.fires
    let oracleCount = TrackedStorageCopyTests.oracleFires
    /// How many observers an assignment of `value` notified, in each form.
    func notifications(assigning value: Round3Lenient) -> (tracked: Int, macro: Int, hand: Int) {
      (
        count({ _ = model.lenient }, { model.lenient = value }),
        oracleCount({ _ = oracle.lenient }, { oracle.lenient = value }),
        count({ _ = hand.lenient }, { hand.lenient = value })
      )
    }
    // Old value a wildcard: `old == new` holds (no notification); `new == old` would not.
    let replacement = Round3Lenient(value: 5)
    let forward = notifications(assigning: replacement)
    #expect(forward.macro == 0)
    #expect(forward.tracked == forward.macro)
    #expect(forward.hand == forward.macro)
    #expect(model.lenient == replacement, "stored without notifying")
    // The reverse: old 5, new a wildcard of another value: `old == new` fails (a change).
    let back = notifications(assigning: Round3Lenient(value: 9, wildcard: true))
    #expect(back.macro == 1)
    #expect(back.tracked == back.macro)
    #expect(back.hand == back.macro)
  }

  /// Pins that `@Derived`'s diagnostic name gives the line of the property's declaration, not
  /// only its file (`@Derived Cart.Int at Module/File.swift:12`).
  @Test func aDerivedDiagnosticNamesTheLineOfTheDeclaration() {
    let original = Round3Cart()
    #expect(original.total == 0)
    let sharing = Round3Cart(sharingStorageOf: original)
    let reported = ObservationDiagnostics.capture { #expect(sharing.total == 0) }
    let name =
      "@Derived Round3Cart.Int at "
      + "ReactiveStateTests/MutationFindingsAuthoringRound3Tests.swift:\(Round3Cart.totalLine) "
    #expect(reported.count == 1)
    #expect(reported.first?.message.hasPrefix(name) == true, "\(reported)")
  }
}
