@_spi(Reflection) import Swift

/// How one stored property of a struct view type compares under ``ViewEquality``'s rules, read
/// in place at its offset in both values: decided once per type from the property's declared
/// type, so a comparison needs no `Mirror`, no boxing of the fields the rules decide by type,
/// and no per-field casts.
///
/// Only for types whose stored properties are all strong, of the kinds the standard library's
/// field walk reads (no `weak` or `unowned` storage, no closures, no plain metatypes): the
/// others keep the `Mirror`-based ``FieldRule``s, whose loads honour reference ownership.
@MainActor
struct FieldComparer {
  enum Kind {
    /// `@State`, `@Environment`, …: always equal (the value lives in the node).
    case nodeOwned
    /// `==` of the declared `Equatable` type, on the two fields in place.
    case equatable((UnsafeRawPointer, UnsafeRawPointer) -> Bool)
    /// `===` of a class that is not `Equatable`: the two stored references.
    case object
    /// A binding: equal when both project the same source.
    case binding(any BindingComparable.Type)
    /// The general rules (optionals of non-`Equatable` types, structs, existentials, …) on the
    /// field loaded as `Any` by the given function.
    case general((UnsafeRawPointer) -> Any)
  }

  /// The field's byte offset in a value of the type.
  let offset: Int
  let kind: Kind

  /// The comparers of `V`'s stored properties, in order, or nil when one of them cannot be read
  /// in place.
  static func comparers<V: View>(for type: V.Type) -> [FieldComparer]? {
    let everyFieldIsReadable = _forEachFieldWithKeyPath(of: V.self, options: []) { _, _ in true }
    guard everyFieldIsReadable else { return nil }
    var comparers: [FieldComparer] = []
    let walked = _forEachField(of: V.self, options: []) { _, offset, fieldType, _ in
      comparers.append(FieldComparer(offset: offset, kind: kind(of: fieldType)))
      return true
    }
    return walked ? comparers : nil
  }

  /// The first of ``ViewEquality``'s rules that applies to every value of `type`.
  private static func kind(of type: Any.Type) -> Kind {
    if type is any NodeOwnedProperty.Type { return .nodeOwned }
    if let binding = type as? any BindingComparable.Type { return .binding(binding) }
    if let equatable = type as? any Equatable.Type { return .equatable(comparer(for: equatable)) }
    if type is AnyClass { return .object }
    return .general(generalLoader(for: type))
  }

  // Nonisolated, so the closures they return are too: a closure of an isolated function would
  // check the actor's executor when called.
  nonisolated private static func comparer<T: Equatable>(for type: T.Type) -> (
    UnsafeRawPointer, UnsafeRawPointer
  ) -> Bool {
    { $0.assumingMemoryBound(to: T.self).pointee == $1.assumingMemoryBound(to: T.self).pointee }
  }

  nonisolated private static func generalLoader(for type: Any.Type) -> (UnsafeRawPointer) -> Any {
    func loader<T>(_: T.Type) -> (UnsafeRawPointer) -> Any {
      { $0.assumingMemoryBound(to: T.self).pointee }
    }
    return _openExistential(type, do: loader)
  }

  /// Whether `lhs` and `rhs`, values of one struct type, are equal field by field by
  /// `comparers` (that type's); `sawClosure` as ``ViewEquality``'s general rules set it.
  static func fieldsEqual<L: View, R: View>(
    _ lhs: L, _ rhs: R, _ comparers: [FieldComparer], sawClosure: inout Bool
  ) -> Bool {
    guard L.self == R.self else { return false }
    return withUnsafeBytes(of: lhs) { left in
      withUnsafeBytes(of: rhs) { right in
        // A type of size zero has only fields of size zero: no state to differ.
        guard let leftBase = left.baseAddress, let rightBase = right.baseAddress else {
          return true
        }
        for comparer in comparers {
          let (l, r) = (leftBase + comparer.offset, rightBase + comparer.offset)
          let equal: Bool
          switch comparer.kind {
          case .nodeOwned: equal = true
          case .equatable(let isEqual): equal = isEqual(l, r)
          case .object: equal = l.load(as: UInt.self) == r.load(as: UInt.self)
          case .binding(let type): equal = type.sameSource(at: l, r)
          case .general(let load):
            equal = ViewEquality.equal(load(l), load(r), depth: 1, sawClosure: &sawClosure)
          }
          if !equal { return false }
        }
        return true
      }
    }
  }
}
