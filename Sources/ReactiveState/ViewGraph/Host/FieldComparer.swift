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
    /// `@State`, `@StateObject`, …: always equal (the value lives in the node).
    case nodeOwned
    /// `==` of the declared `Equatable` type, on the two fields in place.
    case equatable((UnsafeRawPointer, UnsafeRawPointer) -> Bool)
    /// `===` of a class that is not `Equatable`, or is `Observable` (see ``ViewEquality``): the
    /// two stored references.
    case object
    /// A binding, an `@Environment` or an `@ObservedObject`: equal when both read the same
    /// source.
    case binding(any BindingComparable.Type)
    /// A struct that is none of the above, whose own fields compare in place by these rules.
    case nested([FieldComparer])
    /// The general rules (optionals of non-`Equatable` types, structs, existentials, …) on the
    /// field loaded as `Any` by the given function.
    case general((UnsafeRawPointer) -> Any)
  }

  /// The field's byte offset in a value of the type.
  let offset: Int
  let kind: Kind

  /// The comparers of the stored properties of `type`, a struct, in order, or nil when one of
  /// them cannot be read in place. Cached by type.
  static func comparers(for type: Any.Type) -> [FieldComparer]? {
    let id = ObjectIdentifier(type)
    if let known = cache[id] { return known }
    let found = search(type)
    cache[id] = .some(found)
    return found
  }

  private static var cache: [ObjectIdentifier: [FieldComparer]?] = [:]

  private static func search(_ type: Any.Type) -> [FieldComparer]? {
    guard everyFieldIsReadable(type) else { return nil }
    var comparers: [FieldComparer] = []
    let walked = _forEachField(of: type, options: []) { _, offset, fieldType, metadataKind in
      comparers.append(FieldComparer(offset: offset, kind: kind(of: fieldType, metadataKind)))
      return true
    }
    return walked ? comparers : nil
  }

  /// Whether every stored property of `type` is strong and of a kind the key-path field walk
  /// reads (it refuses `weak`, `unowned`, closures and plain metatypes).
  nonisolated private static func everyFieldIsReadable(_ type: Any.Type) -> Bool {
    func walk<T>(_: T.Type) -> Bool {
      _forEachFieldWithKeyPath(of: T.self, options: []) { _, _ in true }
    }
    return _openExistential(type, do: walk)
  }

  /// The first of ``ViewEquality``'s rules that applies to every value of `type`.
  private static func kind(of type: Any.Type, _ metadataKind: _MetadataKind) -> Kind {
    if type is any NodeOwnedProperty.Type { return .nodeOwned }
    if let binding = type as? any BindingComparable.Type { return .binding(binding) }
    if ViewEquality.isObservableClass(type) {
      // An optional model: through the general rules, which look through it.
      return type is AnyClass ? .object : .general(generalLoader(for: type))
    }
    if ViewEquality.isModelCollection(type) { return .general(generalLoader(for: type)) }
    if let equatable = type as? any Equatable.Type { return .equatable(comparer(for: equatable)) }
    if type is AnyClass { return .object }
    // A struct nested in a struct compares field by field as `Mirror` would, in place.
    if metadataKind == .struct, let nested = comparers(for: type) { return .nested(nested) }
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
    return withBytes(of: lhs, rhs) { left, right in
      // No address (allowed for a type of size zero, though this toolchain gives one): such
      // a type has only fields of size zero, no state to differ.
      guard let left, let right else { return true }
      return fieldsEqual(at: left, right, comparers, depth: 1, sawClosure: &sawClosure)
    }
  }

  /// Calls `body` with the addresses of the bytes of `lhs` and `rhs` (the standard library may
  /// give nil for a type of size zero). Nonisolated: a main-actor closure handed to the
  /// standard library's `withUnsafeBytes` checks its executor on entry (about 220 instructions
  /// each, two per compared view).
  nonisolated private static func withBytes<L, R>(
    of lhs: L, _ rhs: R, _ body: (UnsafeRawPointer?, UnsafeRawPointer?) -> Bool
  ) -> Bool {
    withUnsafeBytes(of: lhs) { left in
      withUnsafeBytes(of: rhs) { right in body(left.baseAddress, right.baseAddress) }
    }
  }

  /// The fields of two values of one struct type, stored at `lhs` and `rhs`, `depth` levels
  /// into a view (1 for the view's own fields, as the general rules count).
  private static func fieldsEqual(
    at lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer, _ comparers: [FieldComparer], depth: Int,
    sawClosure: inout Bool
  ) -> Bool {
    for comparer in comparers {
      let (l, r) = (lhs + comparer.offset, rhs + comparer.offset)
      let equal: Bool
      switch comparer.kind {
      case .nodeOwned: equal = true
      case .equatable(let isEqual): equal = isEqual(l, r)
      case .object: equal = l.load(as: UInt.self) == r.load(as: UInt.self)
      case .binding(let type): equal = type.sameSource(at: l, r)
      case .nested(let fields):
        // The general rules give up twelve levels deep.
        equal =
          depth < 11
          && fieldsEqual(at: l, r, fields, depth: depth + 1, sawClosure: &sawClosure)
      case .general(let load):
        equal = ViewEquality.equal(load(l), load(r), depth: depth, sawClosure: &sawClosure)
      }
      if !equal { return false }
    }
    return true
  }
}
