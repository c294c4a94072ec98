/// What the host needs to know about one concrete view type, computed once per type and shared
/// by every node of that type, so evaluations need no runtime protocol-conformance lookups.
///
/// Every answer depends only on the type: a node's type never changes (reconciliation matches
/// children by concrete type), and the casts cached here give the same result for every value
/// of a type. Each specialisation of a generic view has its own metadata, hence its own entry.
@MainActor
final class ViewTypeInfo {
  /// The cache key: the view's concrete type.
  let typeID: ObjectIdentifier
  /// The type's position in creation order among all cached types: a dense index, so a host
  /// can count evaluations per type in an array (see ``ViewTypeInfo/known(ordinal:)``).
  let ordinal: Int
  /// The type name without module qualification, generic arguments kept.
  let name: String
  /// The type's `PrimitiveView` conformance, nil for a view with a `body`.
  let primitive: (any PrimitiveView.Type)?
  /// A built-in leaf compared like a user view before re-expanding (see `PrimitiveView`).
  let skipsWhenEqual: Bool
  /// A built-in leaf expanded without tracking or observer (see `PrimitiveView`).
  let expandsWithoutReads: Bool
  /// True for `Optional` views (see ``ViewNode/leafView``).
  let isOptional: Bool
  /// How two values of the type are compared by ``ViewEquality``.
  let equality: ViewEquality.Plan
  /// Where the type's dynamic properties (`@State`, `@Environment`, …) are; nil until the
  /// first install searched it.
  var dynamicProperties: DynamicPropertyPlan?
  /// Set once a memberwise comparison met a field that never compares equal (a closure).
  var isIncomparable = false

  private init(_ view: any View) {
    let type = Swift.type(of: view)
    typeID = ObjectIdentifier(type)
    ordinal = Self.byOrdinal.count
    name = String(describing: type)
    primitive = type as? any PrimitiveView.Type
    let primitiveValue = view as? any PrimitiveView
    skipsWhenEqual = primitiveValue?.skipsWhenEqual ?? false
    expandsWithoutReads = primitiveValue?.expandsWithoutReads ?? false
    isOptional = type is any OptionalTypeMarker.Type
    equality = ViewEquality.plan(for: view)
  }

  // Unchecked: main-actor state whose accesses are instantaneous (a lookup, an insertion);
  // the dynamic checks cost about 80 instructions per mounted node.
  @exclusivity(unchecked) private static var cache: [ObjectIdentifier: ViewTypeInfo] = [:]
  @exclusivity(unchecked) private static var byOrdinal: [ViewTypeInfo] = []

  /// The info of `view`'s concrete type (created at first use).
  static func of(_ view: any View) -> ViewTypeInfo {
    let id = ObjectIdentifier(Swift.type(of: view))
    if let info = cache[id] { return info }
    let info = ViewTypeInfo(view)
    cache[id] = info
    byOrdinal.append(info)
    return info
  }

  /// The info whose ``ordinal`` is `ordinal` (which must be one handed out).
  static func known(ordinal: Int) -> ViewTypeInfo { byOrdinal[ordinal] }
}

extension PrimitiveView {
  /// `view` as this type, for calls through a cached ``ViewTypeInfo/primitive`` metatype.
  /// `view`'s dynamic type must be `Self`.
  static func unbox(_ view: any View) -> Self {
    assert(type(of: view) == Self.self, "\(type(of: view)) unboxed as \(Self.self)")
    // The opened value is a `Self`: a reinterpretation, not a checked cast (whose lookup
    // costs hundreds of instructions per expansion).
    func reinterpret<Opened: View>(_ value: Opened) -> Self { unsafeBitCast(value, to: Self.self) }
    return reinterpret(view)
  }
}
