/// A view with a visual attribute recorded for the rendered tree (not laid out). Transparent:
/// the attribute is appended to the first line of each child, e.g. `Button "Add" [disabled]`.
public struct AttributedView<Content: View>: View, PrimitiveView {
  let content: Content
  /// `name` or `name=value`; nil renders nothing (e.g. `.disabled(false)`).
  let attribute: String?
  /// True for `.disabled(true)`: controls below it cannot be acted on.
  let disables: Bool

  func makeChildren(_ node: ViewNode) -> [ChildSpec] {
    [ChildSpec(component: .slot(0), view: content)]
  }
}

extension View {
  /// Disables the controls in this view when `isDisabled` is true: ``ViewHost`` actions on them
  /// throw ``ViewHostError/disabled(_:)``. Rendered as `[disabled]`.
  public func disabled(_ isDisabled: Bool) -> AttributedView<Self> {
    AttributedView(content: self, attribute: isDisabled ? "disabled" : nil, disables: isDisabled)
  }

  /// Records a foreground style, rendered as `[foregroundStyle=…]`.
  public func foregroundStyle<Style>(_ style: Style) -> AttributedView<Self> {
    AttributedView(content: self, attribute: "foregroundStyle=\(style)", disables: false)
  }

  /// Records an absolute position, rendered as `[position=(x, y)]`.
  public func position(x: Double = 0, y: Double = 0) -> AttributedView<Self> {
    AttributedView(content: self, attribute: "position=(\(x), \(y))", disables: false)
  }

  /// Records a free-form attribute, rendered as `[name=value]` (or `[name]`).
  public func attribute(_ name: String, _ value: String? = nil) -> AttributedView<Self> {
    AttributedView(content: self, attribute: value.map { "\(name)=\($0)" } ?? name, disables: false)
  }
}
