/// How one stored property of a view type compares under ``ViewEquality``'s rules, decided once
/// per type from one value, so a comparison skips the per-field protocol casts.
///
/// A rule applies only when both values of the field have the dynamic type it was decided for
/// (a field declared as an existential or a superclass may hold another type); otherwise, and
/// for every kind of field not listed here, the general rules decide.
@MainActor
struct FieldRule {
  enum Kind {
    /// `@State`, `@StateObject`, …: always equal (the value lives in the node).
    case nodeOwned
    /// `==` of the field's `Equatable` type.
    case equatable((Any, Any) -> Bool)
    /// `===` of a class that is not `Equatable`, or is `Observable` (see ``ViewEquality``).
    case object
    /// The general rules (bindings, optionals, structs, closures, …).
    case general
  }

  /// The field's dynamic type when the rule was decided.
  let type: Any.Type
  let kind: Kind

  /// The rules for the fields of the value `mirror` reflects, in order.
  static func rules(for mirror: Mirror) -> [FieldRule] {
    mirror.children.map { child in
      let type = Swift.type(of: child.value)
      return FieldRule(type: type, kind: kind(of: child.value, type: type))
    }
  }

  /// The first of the general rules that applies to `value`, when it is one listed in ``Kind``.
  private static func kind(of value: Any, type: Any.Type) -> Kind {
    if value is any NodeOwnedProperty { return .nodeOwned }
    // Optionals are left to the general rules: casts look through them, so which rule applies
    // depends on whether the value is nil.
    if value is any BindingComparable || type is any OptionalTypeMarker.Type { return .general }
    if ViewEquality.isObservableClass(type) { return .object }
    if ViewEquality.isModelCollection(type) { return .general }
    if let equatable = type as? any Equatable.Type { return .equatable(comparer(for: equatable)) }
    return type is AnyClass ? .object : .general
  }

  private static func comparer<T: Equatable>(for type: T.Type) -> (Any, Any) -> Bool {
    { lhs, rhs in (lhs as! T) == (rhs as! T) }
  }

  /// Whether `lhs` equals `rhs` by this rule, or nil when the general rules must decide.
  func compare(_ lhs: Any, _ rhs: Any) -> Bool? {
    if case .general = kind { return nil }
    guard Swift.type(of: lhs) == type, Swift.type(of: rhs) == type else { return nil }
    switch kind {
    case .nodeOwned: return true
    case .equatable(let equal): return equal(lhs, rhs)
    case .object: return (lhs as AnyObject) === (rhs as AnyObject)
    case .general: return nil
    }
  }
}
