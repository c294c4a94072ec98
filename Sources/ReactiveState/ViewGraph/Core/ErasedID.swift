/// A `ForEach` element id or an `.id(_:)` value, erased to `any Hashable` and compared and
/// hashed as its own type.
///
/// Not `AnyHashable`: making one of those runs a dynamic cast (about 550 instructions) to look
/// for a custom representation, and its `==` goes through the canonical-box machinery, for
/// every row of every expansion. The ids compared here always share one type (a `ForEach`'s
/// `ID`, or an `IDView`'s, whose type is part of the view's), so `AnyHashable`'s equality
/// across types (`1 as Int` and `1 as Int8`) is never needed: values of two types are unequal.
/// Equality is the id type's own `==`, so an `[Double]` id holding `.nan` equals itself while
/// its storage is shared (`Array`'s identity shortcut) and its identity is kept.
struct ErasedID: Hashable, CustomStringConvertible {
  /// The id.
  let base: any Hashable

  init(_ base: some Hashable) { self.base = base }

  static func == (lhs: ErasedID, rhs: ErasedID) -> Bool { lhs.base.isSameValue(as: rhs.base) }

  func hash(into hasher: inout Hasher) { base.hash(into: &hasher) }

  /// The id as printed (in a view's path and in diagnostics), without the generic printing
  /// path for the common `Int` and `String` ids.
  var description: String { base.plainDescription }

  /// The id when it is an `Int` (exactly).
  var intValue: Int? { base.exactInt }
}

extension Hashable {
  /// This value when `Self` is `Int`.
  fileprivate var exactInt: Int? { Self.self == Int.self ? unsafeBitCast(self, to: Int.self) : nil }

  /// Whether `other` is a `Self` equal to this value; no dynamic cast, as the opened types are
  /// compared first.
  fileprivate func isSameValue(as other: any Hashable) -> Bool {
    func compare<Other: Hashable>(_ other: Other) -> Bool {
      guard Other.self == Self.self else { return false }
      return self == unsafeBitCast(other, to: Self.self)
    }
    return compare(other)
  }

  /// The value as `AnyHashable` prints it (an optional unwrapped: `5` for `Optional(5)`), made
  /// directly for exact `Int` and `String` values.
  fileprivate var plainDescription: String {
    if Self.self == Int.self { return String(unsafeBitCast(self, to: Int.self)) }
    if Self.self == String.self { return unsafeBitCast(self, to: String.self) }
    return "\(AnyHashable(self).base)"
  }
}
