/// A stored view property whose value the host links to the view's identity before each `body`
/// evaluation (`@State`, `@Environment`). Custom structs conforming to it are searched for nested
/// `@State`/`@Environment` properties, as SwiftUI does.
@MainActor
public protocol DynamicProperty {}

/// A dynamic property the host links to storage owned by the node.
@MainActor
protocol InstallableProperty {
  /// Links this property to `node`'s storage for `slot`. Returns a failure message when the view
  /// cannot be evaluated (a missing environment object).
  func install(in node: ViewNode, slot: Int, label: String) -> String?
}

/// A view property the memberwise view comparison treats as equal across view values because its
/// value lives in the node, not in the view struct (`@State`, `@Environment`).
protocol NodeOwnedProperty {}

/// Finds dynamic properties with `Mirror` and links them to a node (no macros, no metadata pokes).
///
/// Where a type's dynamic properties are among its stored properties is the same for every
/// value of the type, so it is searched once per type (``DynamicPropertyPlan``); each install
/// then reads only those children of the value's `Mirror`, in the plan's order (depth first,
/// which numbers the node's slots).
@MainActor
enum DynamicPropertyInstaller {
  /// Links every dynamic property of `view` to `node`. Returns failure messages (empty on success).
  static func install(_ view: any View, in node: ViewNode) -> [String] {
    let plan: DynamicPropertyPlan
    if let known = node.info.dynamicProperties {
      // Property-free view types skip `Mirror` after their first search.
      if known.isEmpty { return [] }
      plan = known
    } else {
      plan = DynamicPropertyPlan.of(Mirror(reflecting: view))
      node.info.dynamicProperties = plan
      if plan.isEmpty { return [] }
    }
    var slot = 0
    var failures: [String] = []
    install(plan, from: Mirror(reflecting: view), node: node, slot: &slot, failures: &failures)
    return failures
  }

  private static func install(
    _ plan: DynamicPropertyPlan, from mirror: Mirror, node: ViewNode, slot: inout Int,
    failures: inout [String]
  ) {
    let children = mirror.children
    for entry in plan.entries {
      let value = children[children.index(children.startIndex, offsetBy: entry.child)].value
      switch entry.kind {
      case .installable(let label):
        if let property = value as? any InstallableProperty,
          let failure = property.install(in: node, slot: slot, label: label)
        {
          failures.append(failure)
        }
        slot += 1
      case .nested(let nested):
        install(
          nested, from: Mirror(reflecting: value), node: node, slot: &slot, failures: &failures)
      }
    }
  }
}
