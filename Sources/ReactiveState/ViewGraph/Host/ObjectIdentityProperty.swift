/// A view property whose values are equal exactly when they hold the same object, whatever that
/// object's own `==` says: ``ObservedObject``, whose view must re-subscribe (and re-evaluate)
/// when a new view value carries another instance, even one its `Equatable` conformance calls
/// equal. ``ViewEquality``'s rules check it before `Equatable`.
@MainActor
protocol ObjectIdentityProperty {
  /// The object the property holds.
  var heldObject: AnyObject { get }
}

extension ObjectIdentityProperty {
  /// Whether two values of this type stored at `lhs` and `rhs` hold the same object.
  static func holdSameObject(at lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer) -> Bool {
    lhs.assumingMemoryBound(to: Self.self).pointee.heldObject
      === rhs.assumingMemoryBound(to: Self.self).pointee.heldObject
  }

  /// Whether `other`, a value of this type, holds the same object as this one.
  func holdsSameObject(as other: Any) -> Bool {
    guard let other = other as? Self else { return false }
    return heldObject === other.heldObject
  }
}
