/// A view whose subtree sees environment values set by this modifier.
///
/// The modifier's node owns one observable cell per key it sets and writes the new value into it
/// when the value changes (`===` for objects, even `Equatable` ones: readers observe the instance
/// injected; `==` for other values), so exactly the descendants that read the key re-evaluate;
/// views in between do not.
public struct EnvironmentWriterView<Content: View>: View, PrimitiveView {
  let content: Content
  let write: @MainActor (inout EnvironmentValues) -> Void

  func makeChildren(_ node: ViewNode) -> [ChildSpec] {
    [ChildSpec(component: .slot(0), view: content)]
  }

  /// A change of an inherited value it writes into (`\.theme.size`) re-expands this node to
  /// update its cells: only the content's readers of the key re-evaluate.
  static var childrenDependOnlyOnValue: Bool { true }

  func childEnvironment(_ node: ViewNode, inherited: EnvironmentValues) -> EnvironmentValues {
    // Seeded with the inherited values, so that a write into one (`\.theme.size`) keeps the
    // rest of it; reading it makes this node depend on it.
    var scratch = EnvironmentValues()
    scratch.cells = inherited.cells
    write(&scratch)
    var result = inherited
    var changedKeys: [String] = []
    for (id, entry) in scratch.writes {
      if let cell = node.ownedEnvironmentCells[id] {
        cell.update(entry.value)
        result.cells[id] = cell
      } else {
        let cell = EnvironmentCell(entry.value, name: entry.name)
        node.ownedEnvironmentCells[id] = cell
        result.cells[id] = cell
        changedKeys.append(entry.name)
      }
    }
    if node.ownedEnvironmentCells.count != scratch.writes.count {
      for (id, cell) in node.ownedEnvironmentCells where scratch.writes[id] == nil {
        node.ownedEnvironmentCells[id] = nil
        changedKeys.append(cell.name)
      }
    }
    // The modifier now sets other keys than before (`.environment(flag ? \.a : \.b, v)`):
    // readers below tracked the cells they found, or read a default and tracked nothing, so
    // the subtree takes the new environment and its bodies re-evaluate. That includes a
    // writer whose earlier evaluations set no key at all; only the first expansion, which has
    // no subtree yet, has nothing to reshape.
    if !changedKeys.isEmpty && !node.children.isEmpty {
      let keys = changedKeys.sorted().joined(separator: ", ")
      node.host.reshapeEnvironment(under: node, to: result, cause: .environment(key: keys))
    }
    return result
  }
}

extension View {
  /// Sets the environment value at `keyPath` to `value` for this view's subtree. Each
  /// evaluation of the writer compares the new value with the last one (see
  /// ``EnvironmentWriterView``): the same object, or an `==` value, changes nothing; a value
  /// of a type without equality is a change every time, which re-evaluates the views that
  /// read it (SwiftUI compares such values bit by bit).
  public func environment<Value>(
    _ keyPath: WritableKeyPath<EnvironmentValues, Value>, _ value: Value
  ) -> EnvironmentWriterView<Self> {
    EnvironmentWriterView(content: self) { $0[keyPath: keyPath] = value }
  }

  /// Injects `object` for this view's subtree, read with `@Environment(Object.self)`.
  public func environment<Object: AnyObject & Observable>(_ object: Object)
    -> EnvironmentWriterView<Self>
  {
    EnvironmentWriterView(content: self) {
      $0.writes[ObjectIdentifier(Object.self)] = (String(describing: Object.self), object)
    }
  }
}
