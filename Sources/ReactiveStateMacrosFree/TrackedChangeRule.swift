/// How a `@Tracked` property decides whether an assignment notifies: one of the
/// ``ObservationEquality`` rules, as a type. `Tracked` stores the rule's metatype (chosen by
/// its initializer overload) and calls it on every assignment; a stored closure would cost a
/// retain and a release per write. Not for direct use.
public protocol _TrackedChangeRule<Value> {
  /// The property's type.
  associatedtype Value
  /// Whether assigning `newValue` over `oldValue` notifies observers.
  static func shouldNotify(_ oldValue: Value, _ newValue: Value) -> Bool
}

/// The rule for types without equality: every assignment notifies.
public enum _NotifyAlways<Value>: _TrackedChangeRule {
  /// Always true.
  @inlinable
  public static func shouldNotify(_ oldValue: Value, _ newValue: Value) -> Bool {
    ObservationEquality.shouldNotify(oldValue, newValue)
  }
}

/// The rule for `Equatable` types (classes included): notify when the values differ.
public enum _NotifyUnlessEqual<Value: Equatable>: _TrackedChangeRule {
  /// True when `oldValue != newValue`.
  @inlinable
  public static func shouldNotify(_ oldValue: Value, _ newValue: Value) -> Bool {
    ObservationEquality.shouldNotify(oldValue, newValue)
  }
}

/// The rule for class references that are not `Equatable`: notify when the identity changes.
public enum _NotifyUnlessIdentical<Value: AnyObject>: _TrackedChangeRule {
  /// True when `oldValue !== newValue`.
  @inlinable
  public static func shouldNotify(_ oldValue: Value, _ newValue: Value) -> Bool {
    ObservationEquality.shouldNotify(oldValue, newValue)
  }
}

/// `rule.shouldNotify(oldValue, newValue)`, with the `==` rule of the commonest property types
/// compared directly. Called through the metatype, the rule is a generic function that reaches
/// `==` through two witness tables (about 35 instructions for an `Int`); once the accessor is
/// inlined into its class, `Value` is known and each test below folds to a constant, leaving one
/// metatype compare and the type's own `==`. The rule is still checked: a generic `T`
/// property instantiated at `Int` keeps ``_NotifyAlways``.
@inlinable @inline(__always)
func _shouldNotify<Value>(
  by rule: any _TrackedChangeRule<Value>.Type, _ oldValue: Value, _ newValue: Value
) -> Bool {
  func differ<Known: Equatable>(as _: Known.Type) -> Bool? {
    guard Value.self == Known.self else { return nil }
    guard ObjectIdentifier(rule) == ObjectIdentifier(_NotifyUnlessEqual<Known>.self) else {
      return nil
    }
    return unsafeBitCast(oldValue, to: Known.self) != unsafeBitCast(newValue, to: Known.self)
  }
  if let result = differ(as: Int.self) ?? differ(as: Double.self) ?? differ(as: Bool.self)
    ?? differ(as: String.self)
  {
    return result
  }
  return rule.shouldNotify(oldValue, newValue)
}
