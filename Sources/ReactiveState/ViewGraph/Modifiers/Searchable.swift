/// A view with a search field bound to a string, as SwiftUI's `.searchable(text:)`. The field is
/// a text control labelled by its prompt (default `"Search"`), rendered as
/// `SearchField "Search" text="…"` above the content.
public struct SearchableView<Content: View>: View, PrimitiveView, ControlView {
  let content: Content
  let text: Binding<String>
  let prompt: String

  var controlKind: ControlKind { .textField }
  /// Typing re-expands this node alone: the content does not depend on the text it reads.
  static var childrenDependOnlyOnValue: Bool { true }
  func controlLabel(_ node: ViewNode) -> String { prompt }
  func makeChildren(_ node: ViewNode) -> [ChildSpec] {
    node.controlValue = text.wrappedValue
    return [ChildSpec(component: .slot(0), view: content)]
  }
  func renderLine(_ node: ViewNode) -> String? {
    "SearchField \(quoted(prompt)) text=\(quoted(node.controlValue ?? ""))"
  }
}

extension View {
  /// Adds a search field editing `text` (find it by `prompt` in ``ViewHost/setText(_:in:occurrence:)``).
  public func searchable(text: Binding<String>, prompt: String = "Search") -> SearchableView<Self> {
    SearchableView(content: self, text: text, prompt: prompt)
  }
}
