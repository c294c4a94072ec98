/// Decides whether a child view value is known to equal the previous one, so the host can skip
/// re-evaluating a child whose inputs did not change (SwiftUI compares view bytes; we compare
/// memberwise: a struct view's fields, and those of structs nested in them, in place at their
/// offsets (``FieldComparer``); through `Mirror` for types with fields that cannot be read in
/// place, and for values behind optionals and existentials).
///
/// Rules, per field: `Equatable` values use `==`; class references use `===`, and so do objects of
/// `Observable` classes even when `Equatable` (a view observes the instance it holds: another
/// instance equal by its `==` must re-evaluate it, or it keeps observing the old one), also in
/// standard collections of them (``isModelCollection(_:)``); `@State` is
/// equal (its value lives in the node); `@Environment` is equal when it reads the same key or
/// object type; bindings are equal when they project the same source with an equal snapshot
/// (see ``BindingIdentity``); `@ObservedObject`
/// compares its object by identity (not by its `==`); structs, tuples, optionals and
/// collections compare recursively; enum cases by name and payload; closures, values with a
/// custom mirror (`CustomReflectable`, which may hide fields) or, for enum cases without payload,
/// a custom description, and anything else are not known to be equal (the child is
/// re-evaluated, which is always correct, only slower).
@MainActor
enum ViewEquality {
  /// How values of one view type are compared, decided once per type (see ``ViewTypeInfo``).
  enum Plan {
    /// `==` on the unboxed values: the type is `Equatable` (and neither node-owned nor a
    /// binding, which the general rules check first).
    case equatable((any View, any View) -> Bool)
    /// The general rules, field by field, after comparing the bytes in `bits` when identical
    /// bits there imply equality (see ``IdenticalBits``). For a struct, `fields` holds each
    /// field's rule.
    case memberwise(bits: [Range<Int>]?, fields: Fields?)
  }

  /// How a struct's fields are compared: in place at their offsets, or through `Mirror` when
  /// one of them cannot be read in place (see ``FieldComparer``).
  enum Fields {
    case inPlace([FieldComparer])
    case mirrored([FieldRule])
  }

  /// The plan for values of the type of `view`: the first rule of
  /// ``equal(_:_:depth:sawClosure:)`` that applies to a value of the type decides it.
  static func plan(for view: any View) -> Plan {
    let type = Swift.type(of: view)
    if type is any NodeOwnedProperty.Type || type is any BindingComparable.Type {
      return .memberwise(bits: nil, fields: nil)
    }
    guard let equatable = type as? any Equatable.Type else {
      let mirror = Mirror(reflecting: view)
      let isStruct = mirror.displayStyle == .struct && !(type is AnyClass)
      let fields: Fields? =
        if !isStruct {
          nil
        } else if let comparers = FieldComparer.comparers(for: type) {
          .inPlace(comparers)
        } else if view is any CustomReflectable {
          // A custom mirror need not list the stored properties: the general rules decide
          // (never equal).
          nil
        } else {
          .mirrored(FieldRule.rules(for: mirror))
        }
      return .memberwise(
        bits: IdenticalBits.comparedRanges(for: view, mirror: mirror), fields: fields)
    }
    return .equatable(comparer(for: equatable))
  }

  private static func comparer<T: Equatable>(for type: T.Type) -> (any View, any View) -> Bool {
    { lhs, rhs in equalValues(lhs, rhs, as: T.self) }
  }

  /// `lhs == rhs` as values of `T`; false when either is not a `T`. When the existentials hold
  /// exactly `T` (always, for a struct view), the values are reinterpreted, not dynamically cast.
  private static func equalValues<T: Equatable, L: View, R: View>(
    _ lhs: L, _ rhs: R, as type: T.Type
  ) -> Bool {
    guard L.self == T.self, R.self == T.self else { return castEqual(lhs, rhs, as: T.self) }
    return unsafeBitCast(lhs, to: T.self) == unsafeBitCast(rhs, to: T.self)
  }

  /// `lhs == rhs` through dynamic casts (a class view held as its superclass). Kept out of line:
  /// inlined, its `Optional<T>` metadata would be fetched on the fast path too.
  @inline(never)
  private static func castEqual<T: Equatable>(_ lhs: Any, _ rhs: Any, as type: T.Type) -> Bool {
    guard let lhs = lhs as? T, let rhs = rhs as? T else { return false }
    return lhs == rhs
  }

  /// Whether `rhs` is known to equal `lhs`, a value of the type `info` describes.
  static func areKnownEqual(_ lhs: any View, _ rhs: any View, info: ViewTypeInfo) -> Bool {
    if info.isIncomparable { return false }
    guard type(of: lhs) == type(of: rhs) else { return false }
    switch info.equality {
    case .equatable(let equal): return equal(lhs, rhs)
    case .memberwise(let bits, _):
      if let bits, IdenticalBits.areIdentical(lhs, rhs, in: bits) { return true }
    }
    return areKnownEqualFieldByField(lhs, rhs, info: info)
  }

  /// ``areKnownEqual(_:_:info:)`` once the shortcuts did not decide. Apart, so the common
  /// case (identical bits) does not copy the field rules out of the plan.
  @inline(never)
  private static func areKnownEqualFieldByField(
    _ lhs: any View, _ rhs: any View, info: ViewTypeInfo
  ) -> Bool {
    var sawClosure = false
    let result: Bool
    switch info.equality {
    case .memberwise(_, .inPlace(let comparers)?):
      result = FieldComparer.fieldsEqual(lhs, rhs, comparers, sawClosure: &sawClosure)
    case .memberwise(_, .mirrored(let rules)?):
      result = fieldsEqual(lhs, rhs, rules, sawClosure: &sawClosure)
    default:
      result = equal(lhs, rhs, depth: 0, sawClosure: &sawClosure)
    }
    if sawClosure { info.isIncomparable = true }
    return result
  }

  /// Whether `type` is a class adopting `Observable`, or an optional of one (at any depth),
  /// whose values compare by identity (``identical(_:_:)``): an optional model is observed
  /// as much as a model, and `Optional`'s `==` would use the model's.
  nonisolated static func isObservableClass(_ type: Any.Type) -> Bool {
    let type = unwrappedType(type)
    return type is AnyClass && type is any Observable.Type
  }

  /// `type` with its optionals looked through.
  nonisolated static func unwrappedType(_ type: Any.Type) -> Any.Type {
    var type = type
    while let optional = type as? any OptionalTypeMarker.Type { type = optional.wrappedType }
    return type
  }

  /// Whether two values of a class type, or of optionals of one, hold the same object (or
  /// are both nil).
  nonisolated static func identical(_ lhs: Any, _ rhs: Any) -> Bool {
    objectIdentity(lhs) == objectIdentity(rhs)
  }

  /// The object `value` holds, through optionals; nil when it holds none.
  nonisolated private static func objectIdentity(_ value: Any) -> ObjectIdentifier? {
    if let optional = value as? any OptionalTypeMarker {
      return optional.anyWrapped.flatMap(objectIdentity)
    }
    return ObjectIdentifier(value as AnyObject)
  }

  /// The general rules: whether `rhs` is known to equal `lhs`, `depth` levels into a view's
  /// fields; sets `sawClosure` for a field of a view (depth 1) that can never compare equal.
  static func equal(_ lhs: Any, _ rhs: Any, depth: Int, sawClosure: inout Bool) -> Bool {
    guard depth < 12, type(of: lhs) == type(of: rhs) else { return false }
    if lhs is any NodeOwnedProperty { return true }
    if let lhs = lhs as? any BindingComparable { return lhs.sameSource(as: rhs) }
    if isObservableClass(type(of: lhs)) { return identical(lhs, rhs) }
    if !isModelCollection(type(of: lhs)), let known = ValueEquality.knownEqual(lhs, rhs) {
      return known
    }
    let left = Mirror(reflecting: lhs)
    let right = Mirror(reflecting: rhs)
    switch left.displayStyle {
    case .struct where lhs is CustomReflectable, .enum where lhs is CustomReflectable:
      // A custom mirror may leave out what tells two values apart.
      return false
    case .struct, .tuple, .optional, .collection, .dictionary, .set:
      // Dictionaries and sets in iteration order: two equal ones that iterate differently
      // are not known equal (only slower).
      return childrenEqual(left, right, depth: depth, sawClosure: &sawClosure)
    case .enum:
      if left.children.isEmpty, right.children.isEmpty {
        // Cases without payload: their default descriptions are their names, which differ.
        return hasDefaultDescription(lhs) && String(describing: lhs) == String(describing: rhs)
      }
      return childrenEqual(left, right, depth: depth, sawClosure: &sawClosure)
    default:
      if depth == 1, !(type(of: lhs) is AnyClass) { sawClosure = true }
      return false
    }
  }

  /// Whether `String(describing: value)` is the standard library's (for an enum case without
  /// payload, its name), not one the type customizes, which may be the same for two cases.
  private static func hasDefaultDescription(_ value: Any) -> Bool {
    !(value is any CustomStringConvertible || value is any TextOutputStreamable
      || value is any CustomDebugStringConvertible)
  }

  /// ``childrenEqual(_:_:depth:sawClosure:)`` for two struct values of the same type, each field
  /// compared by its planned rule when it applies. Labels and counts need no check: the type
  /// is the same.
  private static func fieldsEqual(
    _ lhs: any View, _ rhs: any View, _ fields: [FieldRule], sawClosure: inout Bool
  ) -> Bool {
    let left = Mirror(reflecting: lhs).children
    let right = Mirror(reflecting: rhs).children
    for ((l, r), rule) in zip(zip(left, right), fields) {
      let known = rule.compare(l.value, r.value)
      guard known ?? equal(l.value, r.value, depth: 1, sawClosure: &sawClosure) else {
        return false
      }
    }
    return true
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

/// A view property equal to another value when both read the same source: a binding (the
/// state or model property it projects), an `@Environment` (the key or object type it reads)
/// or an `@ObservedObject` (the object it observes, by identity, whatever its `==` says).
@MainActor
protocol BindingComparable {
  /// What names the source.
  associatedtype SourceIdentity
  /// The source of this value (a stored field: reading it copies no closure of the value).
  var sourceIdentity: SourceIdentity { get }
  /// Whether two values with these sources read the same one.
  static func isSameSource(_ lhs: SourceIdentity, _ rhs: SourceIdentity) -> Bool
}

extension BindingComparable {
  /// Whether `other`, a value of this type, reads the same source.
  func sameSource(as other: Any) -> Bool {
    guard let other = other as? Self else { return false }
    return Self.isSameSource(sourceIdentity, other.sourceIdentity)
  }

  /// ``sameSource(as:)`` of two values of this type stored at `lhs` and `rhs` (only their
  /// sources are loaded: copying the values would retain their closures).
  static func sameSource(at lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer) -> Bool {
    isSameSource(
      lhs.assumingMemoryBound(to: Self.self).pointee.sourceIdentity,
      rhs.assumingMemoryBound(to: Self.self).pointee.sourceIdentity)
  }
}

extension Binding: BindingComparable {
  var sourceIdentity: BindingIdentity? { identity }

  /// Both sources are known, and they are the same one.
  static func isSameSource(_ lhs: BindingIdentity?, _ rhs: BindingIdentity?) -> Bool {
    guard let lhs, let rhs else { return false }
    return lhs == rhs
  }
}
