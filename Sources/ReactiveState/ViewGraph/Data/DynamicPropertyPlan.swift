@_spi(Reflection) import Swift

/// Where the dynamic properties of one type are among its stored properties, in the order the
/// installer links them (depth first, which numbers the node's slots): found once per type
/// from the type's field metadata, then used for every value of the type.
///
/// A type's stored properties, their offsets and their declared types are the same for every
/// value, so the plan is too. As in SwiftUI, a dynamic property is found by its declared type:
/// one held in an existential (`Any`) field is not installed. Structs and classes are
/// searched; other kinds of types (enums) have no dynamic properties. A field holding an
/// ``App`` is searched for its `@StateObject`s only (see ``AppPropertyRoot``).
@MainActor
struct DynamicPropertyPlan {
  /// One dynamic property: where it is stored, and what to do with it.
  struct Entry {
    /// The field's byte offset in a value of the struct, or in an instance of the class.
    let offset: Int
    let kind: Kind
  }

  enum Kind {
    /// A property the host links to a slot (`@State`, `@Environment`, …); `label` is its name
    /// without the wrapper's underscore, for diagnostics.
    case installable(any InstallableProperty.Type, label: String)
    /// A custom `DynamicProperty`, searched for the properties it nests.
    case nested(DynamicPropertyPlan)
  }

  /// The properties, depth first.
  let entries: [Entry]
  /// Whether the type is a class: the offsets are into the instance a value refers to.
  let isClass: Bool

  /// True when the type has no dynamic property to link.
  var isEmpty: Bool { entries.isEmpty }

  private static var plans: [ObjectIdentifier: DynamicPropertyPlan] = [:]

  /// The plan of `type`, cached by type.
  static func of(_ type: Any.Type) -> DynamicPropertyPlan {
    let id = ObjectIdentifier(type)
    if let known = plans[id] { return known }
    // A class that (indirectly) stores its own type finds this empty plan instead of
    // searching forever.
    plans[id] = DynamicPropertyPlan(entries: [], isClass: false)
    let plan = search(type)
    plans[id] = plan
    return plan
  }

  // The standard library's `.classType` and `.ignoreUnknown` (declared as mutable statics,
  // which strict concurrency checking rejects).
  private static let classType = _EachFieldOptions(rawValue: 1 << 0)
  private static let ignoreUnknown = _EachFieldOptions(rawValue: 1 << 1)

  private static func search(_ type: Any.Type) -> DynamicPropertyPlan {
    let isClass = type is AnyObject.Type
    var fields: [(name: String, offset: Int, type: Any.Type)] = []
    _forEachField(of: type, options: isClass ? [classType, ignoreUnknown] : ignoreUnknown) {
      name, offset, fieldType, _ in
      fields.append((String(cString: name), offset, fieldType))
      return true
    }
    // An app (held by an ``AppPropertyRoot``) owns only its `@State`s and `@StateObject`s
    // this way.
    let isApp = type is any App.Type
    var entries: [Entry] = []
    for field in fields {
      if let installable = field.type as? any InstallableProperty.Type {
        if isApp, !(installable is any AppOwnedProperty.Type) { continue }
        let label = String(field.name.drop { $0 == "_" })
        entries.append(Entry(offset: field.offset, kind: .installable(installable, label: label)))
      } else if field.type is any DynamicProperty.Type || field.type is any App.Type {
        let nested = of(field.type)
        if !nested.isEmpty { entries.append(Entry(offset: field.offset, kind: .nested(nested))) }
      }
    }
    return DynamicPropertyPlan(entries: entries, isClass: isClass)
  }
}
