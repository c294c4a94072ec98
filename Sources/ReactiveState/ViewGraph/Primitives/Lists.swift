/// A scrolling list of rows.
public struct List<Content: View>: View, PrimitiveView {
  let content: Content

  /// A list of the builder's views.
  public init(@ViewBuilder content: () -> Content) { self.content = content() }

  func makeChildren(_ node: ViewNode) -> [ChildSpec] {
    [ChildSpec(component: .slot(0), view: content)]
  }
  func renderLine(_ node: ViewNode) -> String? { "List" }
}

extension List {
  /// A list with one row per element, keyed by `id` (as `List { ForEach(data, id:) { … } }`).
  public init<Data: RandomAccessCollection, ID: Hashable, Row: View>(
    _ data: Data, id: KeyPath<Data.Element, ID>,
    @ViewBuilder rowContent: @escaping (Data.Element) -> Row
  ) where Content == ForEach<Data, ID, Row> {
    content = ForEach(data, id: id, content: rowContent)
  }

  /// A list with one row per `Identifiable` element.
  public init<Data: RandomAccessCollection, Row: View>(
    _ data: Data, @ViewBuilder rowContent: @escaping (Data.Element) -> Row
  ) where Data.Element: Identifiable, Content == ForEach<Data, Data.Element.ID, Row> {
    content = ForEach(data, content: rowContent)
  }
}

/// A container for grouped controls.
public struct Form<Content: View>: View, PrimitiveView {
  let content: Content

  /// A form of the builder's views.
  public init(@ViewBuilder content: () -> Content) { self.content = content() }

  func makeChildren(_ node: ViewNode) -> [ChildSpec] {
    [ChildSpec(component: .slot(0), view: content)]
  }
  func renderLine(_ node: ViewNode) -> String? { "Form" }
}

/// A titled group of rows in a ``List`` or ``Form``.
public struct Section<Content: View>: View, PrimitiveView {
  let title: String?
  let content: Content

  /// A section headed `title`.
  public init<S: StringProtocol>(_ title: S, @ViewBuilder content: () -> Content) {
    self.title = String(title)
    self.content = content()
  }

  /// A section without a header.
  public init(@ViewBuilder content: () -> Content) {
    title = nil
    self.content = content()
  }

  func makeChildren(_ node: ViewNode) -> [ChildSpec] {
    [ChildSpec(component: .slot(0), view: content)]
  }
  func renderLine(_ node: ViewNode) -> String? {
    title.map { "Section \(quoted($0))" } ?? "Section"
  }
}

/// A title paired with a value or with content views.
public struct LabeledContent<Content: View>: View, PrimitiveView {
  let title: String
  let content: Content

  /// `title` with content views.
  public init<S: StringProtocol>(_ title: S, @ViewBuilder content: () -> Content) {
    self.title = String(title)
    self.content = content()
  }

  func makeChildren(_ node: ViewNode) -> [ChildSpec] {
    [ChildSpec(component: .slot(0), view: content)]
  }
  func renderLine(_ node: ViewNode) -> String? { "LabeledContent \(quoted(title))" }
}

extension LabeledContent where Content == Text {
  /// `title` with a textual value.
  public init<S: StringProtocol, V: StringProtocol>(_ title: S, value: V) {
    self.title = String(title)
    content = Text(value)
  }
}
