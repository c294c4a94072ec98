/// Groups views without adding structure.
///
/// Attribute modifiers applied to a group (`.disabled`, rendered attributes) apply to each
/// child. Lifecycle and identity modifiers (`onAppear`, `onDisappear`, `task`, `onChange`,
/// `.id`) treat the group as one view: `Group { A(); B() }.onAppear { … }` runs once when the
/// group appears, and a branch switch inside the group does not run it again. Deliberate
/// simplification: SwiftUI applies them to each child; put them on the children for that.
public struct Group<Content: View>: View, PrimitiveView {
  let content: Content

  /// Creates a group of the builder's views.
  public init(@ViewBuilder content: () -> Content) { self.content = content() }

  func makeChildren(_ node: ViewNode) -> [ChildSpec] {
    [ChildSpec(component: .slot(0), view: content)]
  }
}
