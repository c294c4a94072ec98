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
  ///
  /// Children kept at the front and at the back are matched by position: an expansion's keys
  /// are distinct, so there matching by position is matching by key. Only the rest (what an
  /// insertion, removal or move changed) go through a key table, so a structural change to a
  /// long list hashes only the rows it touched.
  func reconcile(_ node: ViewNode, with specs: [ChildSpec]) {
    if specs.isEmpty, node.children.isEmpty { return }
    if specs.count == 1, node.children.count == 1, let child = node.children.first,
      child.component == specs[0].component,
      child.typeID == ObjectIdentifier(Swift.type(of: specs[0].view))
    {
      // The common case (a body's single child, kept): no ranges to work out.
      update(child, of: node, to: specs[0])
      return
    }
    let current = node.children
    let shorter = min(current.count, specs.count)
    var front = 0
    while front < shorter, hasKey(of: current[front], specs[front]) { front += 1 }
    var back = 0
    while back < shorter - front,
      hasKey(of: current[current.count - 1 - back], specs[specs.count - 1 - back])
    {
      back += 1
    }
    let changedChildren = current[front..<(current.count - back)]
    let changedSpecs = specs[front..<(specs.count - back)]
    if changedChildren.isEmpty, changedSpecs.isEmpty {
      for index in specs.indices { update(current[index], of: node, to: specs[index]) }
      return
    }
    var existing: [ChildKey: ViewNode] = [:]
    for child in changedChildren {
      existing[ChildKey(component: child.component, type: child.typeID)] = child
    }
    var matches: [ViewNode?] = []
    matches.reserveCapacity(changedSpecs.count)
    var kept: Set<ObjectIdentifier> = []
    for spec in changedSpecs {
      let key = ChildKey(
        component: spec.component, type: ObjectIdentifier(Swift.type(of: spec.view)))
      let match = existing.isEmpty ? nil : existing.removeValue(forKey: key)
      if let match { kept.insert(match.id) }
      matches.append(match)
    }
    // By identity, not by key: an id not equal to itself (`.nan`) is never found in a table.
    for child in changedChildren where !kept.contains(child.id) { remove(child) }
    var children: [ViewNode] = []
    children.reserveCapacity(specs.count)
    func place(_ spec: ChildSpec, _ match: ViewNode?) {
      guard let child = match else {
        let child = makeNode(
          spec.view, component: spec.component, parent: node, environment: node.childEnvironment)
        children.append(child)
        evaluate(child, cause: .mount)
        return
      }
      children.append(child)
      update(child, of: node, to: spec)
    }
    for index in 0..<front { place(specs[index], current[index]) }
    for (spec, match) in zip(changedSpecs, matches) { place(spec, match) }
    for index in (specs.count - back)..<specs.count {
      place(specs[index], current[index - specs.count + current.count])
    }
    node.children = children
  }

  /// Whether `spec` has `child`'s key: the same identity component and concrete type.
  private func hasKey(of child: ViewNode, _ spec: ChildSpec) -> Bool {
    child.component == spec.component
      && child.typeID == ObjectIdentifier(Swift.type(of: spec.view))
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
