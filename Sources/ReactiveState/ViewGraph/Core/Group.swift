/// Groups views without adding structure; modifiers applied to a group apply to each child.
public struct Group<Content: View>: View, PrimitiveView {
  let content: Content

  /// Creates a group of the builder's views.
  public init(@ViewBuilder content: () -> Content) { self.content = content() }

  func makeChildren(_ node: ViewNode) -> [ChildSpec] {
    [ChildSpec(component: .slot(0), view: content)]
  }
}
