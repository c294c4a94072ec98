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
@MainActor
enum DynamicPropertyInstaller {
  /// Links every dynamic property of `view` to `node`. Returns failure messages (empty on success).
  static func install(_ view: any View, in node: ViewNode) -> [String] {
    // Property-free view types skip `Mirror` after their first search.
    if node.info.hasDynamicProperties == false { return [] }
    var slot = 0
    var failures: [String] = []
    visit(Mirror(reflecting: view), node: node, slot: &slot, failures: &failures)
    node.info.hasDynamicProperties = slot > 0
    return failures
  }

  private static func visit(
    _ mirror: Mirror, node: ViewNode, slot: inout Int, failures: inout [String]
  ) {
    for child in mirror.children {
      if let property = child.value as? any InstallableProperty {
        let label = (child.label ?? "?").drop { $0 == "_" }
        if let failure = property.install(in: node, slot: slot, label: String(label)) {
          failures.append(failure)
        }
        slot += 1
      } else if child.value is any DynamicProperty {
        visit(Mirror(reflecting: child.value), node: node, slot: &slot, failures: &failures)
      }
    }
  }
}
