/// A view whose content's identity includes an explicit id: when the id changes, the content's
/// identity ends (its state is discarded) and a fresh one is mounted; an equal id keeps it.
public struct IDView<Content: View, ID: Hashable>: View, PrimitiveView {
  let content: Content
  let id: ID

  func makeChildren(_ node: ViewNode) -> [ChildSpec] {
    [ChildSpec(component: .explicit(ErasedID(id)), view: content)]
  }
}

extension View {
  /// Gives this view an explicit identity `id` (see ``IDView``).
  public func id<ID: Hashable>(_ id: ID) -> IDView<Self, ID> { IDView(content: self, id: id) }
}
