#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A shortcut before the memberwise comparison of ``ViewEquality``: for a struct view whose
/// stored properties are all of types for which identical bits imply equal values under its
/// rules, two values with identical bits are equal without `Mirror`. Values whose bits differ
/// (a changed field, or only differing padding) take the memberwise comparison as before.
///
/// The types: class references (`===`, or `==` of an `Equatable` class, which is reflexive),
/// the standard integer types, `Bool`, `String`, and optionals of these. Floating-point types
/// are left out (`.nan` is not equal to itself), and so are closures, bindings and node-owned
/// properties.
@MainActor
enum IdenticalBits {
  /// Whether identical bits imply equality for values of the struct type of `view`, decided
  /// from its `mirror` (once per type, see ``ViewTypeInfo``). The field types seen in the mirror
  /// are the dynamic types of this value's fields: a field declared as an existential could
  /// hold another type in another value, so the fields' sizes, laid out in order with their
  /// alignments, must add up to the type's size (an existential is larger than what it holds).
  static func implyEquality(for view: any View, mirror: Mirror) -> Bool {
    guard mirror.displayStyle == .struct else { return false }
    var end = 0
    for child in mirror.children {
      let fieldType = type(of: child.value)
      guard isBitComparable(fieldType) else { return false }
      let (size, alignment) = layout(of: fieldType)
      end = (end + alignment - 1) / alignment * alignment + size
    }
    let viewType: Any.Type = type(of: view)
    return end == layout(of: viewType).size
  }

  /// Whether `lhs` and `rhs` are values of the same type with identical bits.
  static func areIdentical<L: View, R: View>(_ lhs: L, _ rhs: R) -> Bool {
    guard L.self == R.self else { return false }
    return withUnsafeBytes(of: lhs) { left in
      withUnsafeBytes(of: rhs) { right in
        guard let leftBase = left.baseAddress, let rightBase = right.baseAddress else {
          return left.count == right.count
        }
        return left.count == right.count && memcmp(leftBase, rightBase, left.count) == 0
      }
    }
  }

  private static let bitComparableTypes: [Any.Type] = [
    Int.self, Int8.self, Int16.self, Int32.self, Int64.self,
    UInt.self, UInt8.self, UInt16.self, UInt32.self, UInt64.self,
    Bool.self, String.self,
  ]

  private static func isBitComparable(_ type: Any.Type) -> Bool {
    if let optional = type as? any OptionalTypeMarker.Type {
      return isBitComparable(optional.wrappedType)
    }
    if type is AnyClass {
      return !(type is any NodeOwnedProperty.Type) && !(type is any BindingComparable.Type)
    }
    return bitComparableTypes.contains { $0 == type }
  }

  private static func layout<T>(of type: T.Type) -> (size: Int, alignment: Int) {
    (MemoryLayout<T>.size, MemoryLayout<T>.alignment)
  }
}
