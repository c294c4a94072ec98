#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A shortcut before the memberwise comparison of ``ViewEquality``: for a struct view whose
/// stored properties are all node-owned or of types for which identical bits imply equality
/// under its rules, two values whose fields' bits are identical outside the node-owned
/// properties are equal without `Mirror` (padding between fields is not compared). Values whose
/// compared bits differ take the memberwise comparison as before.
///
/// The types whose bits are compared: class references (`===`, or `==` of an `Equatable` class,
/// which is reflexive), the standard integer types, `Bool`, `String`, and optionals of these.
/// Floating-point types are left out (`.nan` is not equal to itself), and so are closures and
/// bindings. Node-owned properties (`@State`, `@StateObject`, …) are equal whatever their bits
/// (their value lives in the node; a new view value carries a new handle and maybe another
/// initial value), so their bytes are skipped.
@MainActor
enum IdenticalBits {
  /// The byte ranges of the struct type of `view` whose identical bits imply equal values, or
  /// nil when the type has a field of another kind; decided from its `mirror` (once per type,
  /// see ``ViewTypeInfo``). The field types seen in the mirror are the dynamic types of this
  /// value's fields: a field declared as an existential could hold another type in another
  /// value, so the fields' sizes, laid out in order with their alignments, must add up to the
  /// type's size (every admitted type is a class, held as the same reference by `AnyObject`, or
  /// smaller than any other existential that could hold it).
  static func comparedRanges(for view: any View, mirror: Mirror) -> [Range<Int>]? {
    guard mirror.displayStyle == .struct else { return nil }
    var ranges: [Range<Int>] = []
    var end = 0
    for child in mirror.children {
      let fieldType = type(of: child.value)
      let isNodeOwned = isSkippable(fieldType)
      guard isNodeOwned || isBitComparable(fieldType) else { return nil }
      let (size, alignment) = layout(of: fieldType)
      let start = (end + alignment - 1) / alignment * alignment
      end = start + size
      if !isNodeOwned { ranges.append(start..<end) }
    }
    let viewType: Any.Type = type(of: view)
    guard end == layout(of: viewType).size else { return nil }
    return merged(ranges)
  }

  /// Whether `lhs` and `rhs` are values of the same type whose bytes in `ranges` are identical.
  /// Nonisolated: closures of an isolated function would check the actor's executor when called.
  nonisolated static func areIdentical<L: View, R: View>(
    _ lhs: L, _ rhs: R, in ranges: [Range<Int>]
  ) -> Bool {
    guard L.self == R.self else { return false }
    return withUnsafeBytes(of: lhs) { left in
      withUnsafeBytes(of: rhs) { right in
        guard let leftBase = left.baseAddress, let rightBase = right.baseAddress else {
          return ranges.isEmpty
        }
        for range in ranges
        where memcmp(leftBase + range.lowerBound, rightBase + range.lowerBound, range.count) != 0 {
          return false
        }
        return true
      }
    }
  }

  /// `ranges`, in order, with empty ones dropped and adjacent ones joined.
  private static func merged(_ ranges: [Range<Int>]) -> [Range<Int>] {
    var result: [Range<Int>] = []
    for range in ranges where !range.isEmpty {
      if let last = result.last, last.upperBound == range.lowerBound {
        result[result.count - 1] = last.lowerBound..<range.upperBound
      } else {
        result.append(range)
      }
    }
    return result
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

  /// A node-owned property type small enough for the layout check of
  /// ``comparedRanges(for:mirror:)`` (`@Environment`, larger than `Any`, is left to the
  /// memberwise comparison).
  private static func isSkippable(_ type: Any.Type) -> Bool {
    type is any NodeOwnedProperty.Type && layout(of: type).size < MemoryLayout<Any>.size
  }

  private static func layout<T>(of type: T.Type) -> (size: Int, alignment: Int) {
    (MemoryLayout<T>.size, MemoryLayout<T>.alignment)
  }
}
