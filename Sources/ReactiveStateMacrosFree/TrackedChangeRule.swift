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
