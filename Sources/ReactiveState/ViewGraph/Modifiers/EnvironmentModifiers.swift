/// A view whose subtree sees environment values set by this modifier.
///
/// The modifier's node owns one observable cell per key it sets and writes the new value into it
/// when the value changes (`==`, or `===` for objects), so exactly the descendants that read the
/// key re-evaluate; views in between do not.
public struct EnvironmentWriterView<Content: View>: View, PrimitiveView {
  let content: Content
  let write: @MainActor (inout EnvironmentValues) -> Void

  func makeChildren(_ node: ViewNode) -> [ChildSpec] {
    [ChildSpec(component: .slot(0), view: content)]
  }

  func childEnvironment(_ node: ViewNode, inherited: EnvironmentValues) -> EnvironmentValues {
    var scratch = EnvironmentValues()
    write(&scratch)
    var result = inherited
    for (id, entry) in scratch.writes {
      if let cell = node.ownedEnvironmentCells[id] {
        cell.update(entry.value)
        result.cells[id] = cell
      } else {
        let cell = EnvironmentCell(entry.value, name: entry.name)
        node.ownedEnvironmentCells[id] = cell
        result.cells[id] = cell
      }
    }
    return result
  }
}

extension View {
  /// Sets the environment value at `keyPath` to `value` for this view's subtree.
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
