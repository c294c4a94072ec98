extension ViewHost {
  /// The mounted tree as indented text, two spaces per level: user views by type name,
  /// primitives as `Text "…"`, `Button "…"`, `TextField "…" text="…"`, `Toggle "…" isOn=…`,
  /// `Stepper "…" value=…`, containers by name, and recorded attributes in brackets. Transparent
  /// structure (tuples, conditionals, `ForEach`, `Group`, `AnyView`, `.id`) adds no line. A view
  /// whose body could not be evaluated renders as `⚠ Type: reason`. Pending updates are not
  /// applied first (call ``flush()``).
  public func render() -> String {
    if let endedTree { return endedTree.rendering }
    var lines: [String] = []
    render(root, indent: 0, attributes: [], into: &lines)
    return lines.joined(separator: "\n")
  }

  /// The contents of every rendered `Text`, in tree order.
  public var texts: [String] {
    if let endedTree { return endedTree.texts }
    return allNodes().compactMap { ($0.leafView as? Text)?.content }
  }

  private func render(
    _ node: ViewNode, indent: Int, attributes: [String], into lines: inout [String]
  ) {
    var attributes = attributes
    var line: String?
    var rendersChildren = true
    if let failure = node.failure {
      line = "⚠ \(node.typeName): \(failure)"
    } else if let primitiveType = node.info.primitive {
      let primitive = primitiveType.unbox(node.view)
      if let attributed = node.leafView as? any AttributeCarrying,
        let attribute = attributed.renderedAttribute
      {
        attributes.insert(attribute, at: 0)  // inner modifiers first: source order
      }
      line = primitive.renderLine(node)
      rendersChildren = primitive.rendersChildren
    } else {
      line = node.typeName
    }
    guard let line else {
      for child in node.children {
        render(child, indent: indent, attributes: attributes, into: &lines)
      }
      return
    }
    let suffix = attributes.map { " [\($0)]" }.joined()
    lines.append(String(repeating: "  ", count: indent) + line + suffix)
    guard rendersChildren else { return }
    for child in node.children { render(child, indent: indent + 1, attributes: [], into: &lines) }
  }
}

/// A modifier that contributes a rendered attribute or disables controls.
@MainActor
protocol AttributeCarrying {
  var renderedAttribute: String? { get }
  var disablesControls: Bool { get }
}

extension AttributedView: AttributeCarrying {
  var renderedAttribute: String? { attribute }
  var disablesControls: Bool { disables }
}

/// What a closed host's tree last showed, kept for inspection once the tree is released (see
/// ``ViewHost/close()``).
struct EndedTreeSnapshot {
  let texts: [String]
  let rendering: String
}
