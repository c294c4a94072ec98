/// How a re-evaluated node's new children meet its current ones: matched by (identity
/// component, concrete type), a match keeps its identity and state and gets the new value; the
/// rest are torn down, and new identities are mounted.
extension ViewHost {
  private struct ChildKey: Hashable {
    var component: IdentityComponent
    var type: ObjectIdentifier
  }

  /// Matches `specs` to existing children by (identity component, concrete type): matches keep
  /// their state, the rest are torn down and new identities are mounted.
  func reconcile(_ node: ViewNode, with specs: [ChildSpec]) {
    if specs.isEmpty, node.children.isEmpty { return }
    if specs.count == 1, node.children.count == 1, let child = node.children.first,
      child.component == specs[0].component,
      child.typeID == ObjectIdentifier(Swift.type(of: specs[0].view))
    {
      // The common case (a body's single child, kept): no key table needed.
      update(child, of: node, to: specs[0])
      return
    }
    let current = node.children
    if keepsEveryPlace(current, specs) {
      // Every child kept in place (a re-expanded list): no key table needed either. An
      // expansion's components are distinct, so matching by position is matching by key.
      for index in specs.indices { update(current[index], of: node, to: specs[index]) }
      return
    }
    var existing: [ChildKey: ViewNode] = [:]
    for child in node.children {
      existing[ChildKey(component: child.component, type: child.typeID)] = child
    }
    var matches: [(ChildSpec, ViewNode?)] = []
    matches.reserveCapacity(specs.count)
    var kept: Set<ObjectIdentifier> = []
    for spec in specs {
      let key = ChildKey(
        component: spec.component, type: ObjectIdentifier(Swift.type(of: spec.view)))
      let match = existing.isEmpty ? nil : existing.removeValue(forKey: key)
      if let match { kept.insert(match.id) }
      matches.append((spec, match))
    }
    // By identity, not by key: an id not equal to itself (`.nan`) is never found in a table.
    for child in node.children where !kept.contains(child.id) { remove(child) }
    var children: [ViewNode] = []
    children.reserveCapacity(matches.count)
    for (spec, match) in matches {
      guard let child = match else {
        let child = makeNode(
          spec.view, component: spec.component, parent: node, environment: node.childEnvironment)
        children.append(child)
        evaluate(child, cause: .mount)
        continue
      }
      children.append(child)
      update(child, of: node, to: spec)
    }
    node.children = children
  }

  /// Whether `specs` has the key of each of `children` at its position, and nothing more. A loop,
  /// not `allSatisfy`: its closure would check the actor's executor on every call.
  private func keepsEveryPlace(_ children: [ViewNode], _ specs: [ChildSpec]) -> Bool {
    guard specs.count == children.count else { return false }
    for index in specs.indices
    where children[index].component != specs[index].component
      || children[index].typeID != ObjectIdentifier(Swift.type(of: specs[index].view))
    {
      return false
    }
    return true
  }

  /// Gives a kept `child` its parent's new value and environment; re-evaluates it when the
  /// value is not known to equal the previous one or the child is dirty.
  private func update(_ child: ViewNode, of node: ViewNode, to spec: ChildSpec) {
    child.environment = node.childEnvironment
    let inputChanged =
      child.isPrimitive && !child.skipsWhenEqual
      || !ViewEquality.areKnownEqual(child.view, spec.view, info: child.info)
    child.view = spec.view
    let isDirty = dirty.contains(child)
    guard inputChanged || isDirty else { return }
    if wasEvaluatedThisPass(child) {
      markDirty(child, cause: .parentInput, forcesRun: true)
    } else {
      evaluate(
        child, cause: isDirty ? (child.pendingCause ?? .unknownProperty) : .parentInput,
        newInput: inputChanged)
    }
  }
}
