/// A stored view property whose value the host links to the view's identity before each `body`
/// evaluation (`@State`, `@Environment`). Custom types conforming to it (structs, or classes a
/// view stores) are searched for nested `@State`/`@Environment` properties, as SwiftUI does.
///
/// Properties are found by their declared types, once per view type: a wrapper stored in an
/// existential property (`let x: Any = State(…)`) is not linked.
@MainActor
public protocol DynamicProperty {}

/// A dynamic property the host links to storage owned by the node.
@MainActor
protocol InstallableProperty {
  /// Links this property to `node`'s storage for `slot`. Returns a failure message when the view
  /// cannot be evaluated (a missing environment object).
  func install(in node: ViewNode, slot: Int, label: String) -> String?
  /// ``install(in:slot:label:)`` of the property stored at `address` (a field of a view).
  static func install(at address: UnsafeRawPointer, in node: ViewNode, slot: Int, label: String)
    -> String?
}

extension InstallableProperty {
  static func install(at address: UnsafeRawPointer, in node: ViewNode, slot: Int, label: String)
    -> String?
  {
    address.assumingMemoryBound(to: Self.self).pointee.install(in: node, slot: slot, label: label)
  }
}

/// A view property the memberwise view comparison treats as equal across view values because its
/// value lives in the node, not in the view struct (`@State`, `@Environment`).
protocol NodeOwnedProperty {}

/// Links a view's dynamic properties to its node, reading them in place at the offsets its
/// type's ``DynamicPropertyPlan`` found (no `Mirror`, no per-value casts).
@MainActor
enum DynamicPropertyInstaller {
  /// Links every dynamic property of `view` to `node`. Returns failure messages (empty on success).
  static func install(_ view: any View, in node: ViewNode) -> [String] {
    let plan: DynamicPropertyPlan
    if let known = node.info.dynamicProperties {
      // Most view types have none: no copy of the plan, no opening of the view.
      if known.isEmpty { return [] }
      plan = known
    } else {
      plan = DynamicPropertyPlan.of(Swift.type(of: view))
      node.info.dynamicProperties = plan
      if plan.isEmpty { return [] }
    }
    var slot = 0
    var failures: [String] = []
    withStorage(of: view, plan) { base in
      install(plan, at: base, node: node, slot: &slot, failures: &failures)
    }
    return failures
  }

  /// Calls `body` with the address `plan`'s offsets are relative to: the value's bytes, or
  /// the instance a class value refers to.
  private static func withStorage<V>(
    of value: V, _ plan: DynamicPropertyPlan, _ body: (UnsafeRawPointer) -> Void
  ) {
    if plan.isClass {
      let object = value as AnyObject
      withExtendedLifetime(object) {
        body(UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque()))
      }
    } else {
      withUnsafeBytes(of: value) { bytes in
        if let base = bytes.baseAddress { body(base) }
      }
    }
  }

  private static func install(
    _ plan: DynamicPropertyPlan, at base: UnsafeRawPointer, node: ViewNode, slot: inout Int,
    failures: inout [String]
  ) {
    for entry in plan.entries {
      let address = base + entry.offset
      switch entry.kind {
      case .installable(let type, let label):
        if let failure = type.install(at: address, in: node, slot: slot, label: label) {
          failures.append(failure)
        }
        slot += 1
      case .nested(let nested):
        guard nested.isClass else {
          install(nested, at: address, node: node, slot: &slot, failures: &failures)
          continue
        }
        withStorage(of: address.load(as: AnyObject.self), nested) { object in
          install(nested, at: object, node: node, slot: &slot, failures: &failures)
        }
      }
    }
  }
}
