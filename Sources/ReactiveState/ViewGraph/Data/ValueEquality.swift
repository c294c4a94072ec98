extension Equatable {
  /// `self == other` when `other` has the same type; false otherwise.
  fileprivate func isEqual(toAny other: Any) -> Bool {
    guard let other = other as? Self else { return false }
    return self == other
  }
}

/// Runtime equality for values whose static type is unknown.
enum ValueEquality {
  /// `==` for Equatable values, `===` for class references, nil when the value has no equality
  /// (the caller then treats a write as a change).
  static func knownEqual(_ lhs: Any, _ rhs: Any) -> Bool? {
    if let lhs = lhs as? any Equatable { return lhs.isEqual(toAny: rhs) }
    if type(of: lhs) is AnyClass, type(of: rhs) is AnyClass {
      return (lhs as AnyObject) === (rhs as AnyObject)
    }
    return nil
  }
}
