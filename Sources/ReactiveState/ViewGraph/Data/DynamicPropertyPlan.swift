/// Where the dynamic properties of one type are among its stored properties (its `Mirror`
/// children), in the order the installer links them: found once per type by searching one
/// value, then used for every value of the type.
///
/// A type's stored properties, their order and their declared types are the same for every
/// value, so the plan is too. As in SwiftUI, a dynamic property is found by its declared type:
/// one held in an existential (`Any`) field is not installed.
@MainActor
struct DynamicPropertyPlan {
  /// One dynamic property: which child of the `Mirror` holds it, and what to do with it.
  struct Entry {
    /// The child's position among the `Mirror`'s children.
    let child: Int
    let kind: Kind
  }

  enum Kind {
    /// A property the host links to a slot (`@State`, `@Environment`, …); `label` is its name
    /// without the wrapper's underscore, for diagnostics.
    case installable(label: String)
    /// A custom `DynamicProperty` struct, searched for the properties it nests.
    case nested(DynamicPropertyPlan)
  }

  /// The properties, depth first.
  let entries: [Entry]

  /// True when the type has no dynamic property to link.
  var isEmpty: Bool { entries.isEmpty }

  private static var nestedPlans: [ObjectIdentifier: DynamicPropertyPlan] = [:]

  /// The plan of the type of the value `mirror` reflects.
  static func of(_ mirror: Mirror) -> DynamicPropertyPlan {
    var entries: [Entry] = []
    for (index, child) in mirror.children.enumerated() {
      if child.value is any InstallableProperty {
        let label = (child.label ?? "?").drop { $0 == "_" }
        entries.append(Entry(child: index, kind: .installable(label: String(label))))
      } else if child.value is any DynamicProperty {
        let nested = nestedPlan(of: child.value)
        if !nested.isEmpty { entries.append(Entry(child: index, kind: .nested(nested))) }
      }
    }
    return DynamicPropertyPlan(entries: entries)
  }

  /// The plan of a nested property's type, cached by type.
  private static func nestedPlan(of value: Any) -> DynamicPropertyPlan {
    let id = ObjectIdentifier(Swift.type(of: value))
    if let known = nestedPlans[id] { return known }
    let plan = of(Mirror(reflecting: value))
    nestedPlans[id] = plan
    return plan
  }
}
