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
  /// The link every copy of this value shares (so any copy of the view struct, such as the
  /// one an action captured, reaches the node's storage), or nil when the property keeps
  /// nothing per node.
  var link: PropertyLink? { get }
  /// This property with a new link that no node owns yet (same initial value, object
  /// factory or key).
  func withNewLink() -> Self
  /// Links this property to `node`'s storage for `slot`. Returns a failure message when the view
  /// cannot be evaluated (a missing environment object).
  func install(in node: ViewNode, slot: Int, label: String) -> String?
  /// ``install(in:slot:label:)`` of the property stored at `address` (a field of a view).
  static func install(at address: UnsafeRawPointer, in node: ViewNode, slot: Int, label: String)
    -> String?
}

extension InstallableProperty {
  /// Claims the link of the property stored at `address` for the node numbered `serial`;
  /// false when another node owns it.
  static func claim(at address: UnsafeRawPointer, for serial: Int) -> Bool {
    guard let link = address.assumingMemoryBound(to: Self.self).pointee.link else { return true }
    if link.ownerSerial == serial { return true }
    guard link.ownerSerial == 0 else { return false }
    link.ownerSerial = serial
    return true
  }

  /// Replaces the property stored at `address` by one with a new link, owned by the node
  /// numbered `serial`.
  static func replaceLink(at address: UnsafeMutableRawPointer, ownedBy serial: Int) {
    let property = address.assumingMemoryBound(to: Self.self)
    property.pointee = property.pointee.withNewLink()
    property.pointee.link?.ownerSerial = serial
  }

  static func install(at address: UnsafeRawPointer, in node: ViewNode, slot: Int, label: String)
    -> String?
  {
    address.assumingMemoryBound(to: Self.self).pointee.install(in: node, slot: slot, label: label)
  }
}

/// What links a dynamic property's value to one node's storage, owned by the first node that
/// installs it.
///
/// A view value stored and mounted at two places (`let row = Row()` used twice, or reused
/// under a new `.id`) would otherwise have both identities re-point one link, each to its
/// own storage: actions of one would write the other's `@State`, read the other's
/// environment, and a closure of an ended identity would write into the new one. The
/// installer gives every other node a copy of the view with new links instead.
@MainActor
class PropertyLink {
  /// The ``ViewNode/serial`` of the node that owns this link; 0 before one installs it.
  @exclusivity(unchecked) final var ownerSerial = 0
}

/// A view property the memberwise view comparison treats as equal across view values because its
/// value lives in the node, not in the view struct (`@State`, `@Environment`).
protocol NodeOwnedProperty {}

/// Links a view's dynamic properties to its node, reading them in place at the offsets its
/// type's ``DynamicPropertyPlan`` found (no `Mirror`, no per-value casts).
@MainActor
enum DynamicPropertyInstaller {
  /// Links every dynamic property of `node.view` to `node`, first replacing the view by a copy
  /// with new links when another node owns them (see ``PropertyLink``). Returns failure
  /// messages (empty on success).
  static func install(in node: ViewNode) -> [String] {
    let view = node.view
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
    var isOwnedElsewhere = false
    // A class's instance cannot be copied: its links stay shared, as the instance is.
    if !plan.isClass {
      withStorage(of: view, plan) { base in
        isOwnedElsewhere = !claim(plan, at: base, for: node.serial)
      }
    }
    if isOwnedElsewhere { node.view = copyWithNewLinks(view, plan, for: node.serial) }
    var slot = 0
    var failures: [String] = []
    // Part of the node's update: what a `@StateObject`'s autoclosure writes is written during
    // it (a runtime issue, as a write from `body` is).
    let outer = ViewGraphRuntime.updatingNode
    ViewGraphRuntime.updatingNode = node
    defer { ViewGraphRuntime.updatingNode = outer }
    withStorage(of: node.view, plan) { base in
      install(plan, at: base, node: node, slot: &slot, failures: &failures)
    }
    return failures
  }

  /// Claims for the node numbered `serial` the links of the properties `plan` finds at
  /// `base`, up to the first owned by another node; false if there is one.
  private static func claim(_ plan: DynamicPropertyPlan, at base: UnsafeRawPointer, for serial: Int)
    -> Bool
  {
    for entry in plan.entries {
      switch entry.kind {
      case .installable(let type, _):
        if !type.claim(at: base + entry.offset, for: serial) { return false }
      case .nested(let nested):
        if !nested.isClass, !claim(nested, at: base + entry.offset, for: serial) { return false }
      }
    }
    return true
  }

  /// `view` with a new link, owned by the node numbered `serial`, in every property `plan`
  /// finds outside class instances.
  private static func copyWithNewLinks(
    _ view: any View, _ plan: DynamicPropertyPlan, for serial: Int
  ) -> any View {
    func copy<V: View>(_ view: V) -> any View {
      var copy = view
      withUnsafeMutableBytes(of: &copy) { bytes in
        if let base = bytes.baseAddress { replaceLinks(plan, at: base, ownedBy: serial) }
      }
      return copy
    }
    return copy(view)
  }

  private static func replaceLinks(
    _ plan: DynamicPropertyPlan, at base: UnsafeMutableRawPointer, ownedBy serial: Int
  ) {
    for entry in plan.entries {
      switch entry.kind {
      case .installable(let type, _):
        type.replaceLink(at: base + entry.offset, ownedBy: serial)
      case .nested(let nested):
        if !nested.isClass { replaceLinks(nested, at: base + entry.offset, ownedBy: serial) }
      }
    }
  }

  /// Calls `body` with the address `plan`'s offsets are relative to: the value's bytes, or
  /// the instance a class value refers to.
  ///
  /// Nonisolated: a main-actor closure handed to the standard library's `withUnsafeBytes`
  /// checks its executor on entry (about 220 instructions, twice per evaluation of a view
  /// with `@State`).
  nonisolated private static func withStorage<V>(
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
