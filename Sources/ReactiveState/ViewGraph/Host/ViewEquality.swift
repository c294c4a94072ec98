/// Decides whether a child view value is known to equal the previous one, so the host can skip
/// re-evaluating a child whose inputs did not change (SwiftUI compares view bytes; we compare
/// memberwise with `Mirror`).
///
/// Rules, per field: `Equatable` values use `==`; class references use `===`; `@State` and
/// `@Environment` are equal (their values live in the node); bindings are equal when they
/// project the same source; structs, tuples, optionals and collections compare recursively;
/// closures and anything else are not known to be equal (the child is re-evaluated, which is
/// always correct, only slower).
@MainActor
enum ViewEquality {
  /// View types with a field that can never compare equal (a closure): skip `Mirror` for them.
  private static var incomparableTypes: Set<ObjectIdentifier> = []

  static func areKnownEqual(_ lhs: any View, _ rhs: any View) -> Bool {
    let typeID = ObjectIdentifier(type(of: lhs))
    if incomparableTypes.contains(typeID) { return false }
    var sawClosure = false
    let result = equal(lhs, rhs, depth: 0, sawClosure: &sawClosure)
    if sawClosure { incomparableTypes.insert(typeID) }
    return result
  }

  private static func equal(_ lhs: Any, _ rhs: Any, depth: Int, sawClosure: inout Bool) -> Bool {
    guard depth < 12, type(of: lhs) == type(of: rhs) else { return false }
    if lhs is any NodeOwnedProperty { return true }
    if let lhs = lhs as? any BindingComparable { return lhs.sameSource(as: rhs) }
    if let known = ValueEquality.knownEqual(lhs, rhs) { return known }
    let left = Mirror(reflecting: lhs)
    let right = Mirror(reflecting: rhs)
    switch left.displayStyle {
    case .struct, .tuple, .optional, .collection:
      return childrenEqual(left, right, depth: depth, sawClosure: &sawClosure)
    case .enum:
      if left.children.isEmpty, right.children.isEmpty {
        return String(describing: lhs) == String(describing: rhs)
      }
      return childrenEqual(left, right, depth: depth, sawClosure: &sawClosure)
    default:
      if depth == 1, !(type(of: lhs) is AnyClass) { sawClosure = true }
      return false
    }
  }

  private static func childrenEqual(
    _ left: Mirror, _ right: Mirror, depth: Int, sawClosure: inout Bool
  ) -> Bool {
    guard left.children.count == right.children.count else { return false }
    for (l, r) in zip(left.children, right.children) {
      guard l.label == r.label, equal(l.value, r.value, depth: depth + 1, sawClosure: &sawClosure)
      else { return false }
    }
    return true
  }
}

/// A binding that can tell whether another value projects the same source.
@MainActor
protocol BindingComparable {
  func sameSource(as other: Any) -> Bool
}

extension Binding: BindingComparable {
  func sameSource(as other: Any) -> Bool {
    guard let other = other as? Binding<Value>, let identity, let otherIdentity = other.identity
    else { return false }
    return identity == otherIdentity
  }
}
