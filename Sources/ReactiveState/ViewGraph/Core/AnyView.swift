/// A type-erased view. Its child is matched by the erased view's concrete type, so switching
/// from one wrapped type to another is a new identity and ends the old state.
public struct AnyView: View, PrimitiveView {
  let wrapped: any View

  /// Erases `view`'s type. Wrapping an `AnyView` again does not nest: the inner view is
  /// unwrapped, so identity stays that of the concrete view.
  public init<V: View>(_ view: V) { wrapped = Self.unwrapped(view) }

  /// Erases an existential view; an `AnyView` is unwrapped, as by ``init(_:)``.
  public init(erasing view: any View) { wrapped = Self.unwrapped(view) }

  /// The concrete view `view` erases: its wrapped view when it is an `AnyView` already.
  private static func unwrapped(_ view: any View) -> any View {
    if let already = view as? AnyView { already.wrapped } else { view }
  }

  func makeChildren(_ node: ViewNode) -> [ChildSpec] {
    [ChildSpec(component: .slot(0), view: wrapped)]
  }
}
