/// Horizontal alignment of a ``VStack``'s children (recorded, not laid out).
public enum HorizontalAlignment: String, Sendable {
  /// Leading edges.
  case leading
  /// Centres.
  case center
  /// Trailing edges.
  case trailing
}

/// Vertical alignment of an ``HStack``'s children (recorded, not laid out).
public enum VerticalAlignment: String, Sendable {
  /// Top edges.
  case top
  /// Centres.
  case center
  /// Bottom edges.
  case bottom
  /// First text baselines.
  case firstTextBaseline
}

/// Two-dimensional alignment of a ``ZStack``'s children (recorded, not laid out).
public enum Alignment: String, Sendable {
  /// Centre.
  case center
  /// Leading edge.
  case leading
  /// Trailing edge.
  case trailing
  /// Top edge.
  case top
  /// Bottom edge.
  case bottom
  /// Top leading corner.
  case topLeading
  /// Top trailing corner.
  case topTrailing
  /// Bottom leading corner.
  case bottomLeading
  /// Bottom trailing corner.
  case bottomTrailing
}

/// `Name alignment=… spacing=…`, listing only the arguments that were given.
func stackLine(_ name: String, alignment: String?, spacing: Double?) -> String {
  var line = name
  if let alignment { line += " alignment=\(alignment)" }
  if let spacing { line += " spacing=\(spacing)" }
  return line
}

/// Children arranged vertically.
public struct VStack<Content: View>: View, PrimitiveView {
  let alignment: HorizontalAlignment?
  let spacing: Double?
  let content: Content

  /// A vertical stack of the builder's views.
  public init(
    alignment: HorizontalAlignment? = nil, spacing: Double? = nil,
    @ViewBuilder content: () -> Content
  ) {
    self.alignment = alignment
    self.spacing = spacing
    self.content = content()
  }

  func makeChildren(_ node: ViewNode) -> [ChildSpec] {
    [ChildSpec(component: .slot(0), view: content)]
  }
  func renderLine(_ node: ViewNode) -> String? {
    stackLine("VStack", alignment: alignment?.rawValue, spacing: spacing)
  }
}

/// Children arranged horizontally.
public struct HStack<Content: View>: View, PrimitiveView {
  let alignment: VerticalAlignment?
  let spacing: Double?
  let content: Content

  /// A horizontal stack of the builder's views.
  public init(
    alignment: VerticalAlignment? = nil, spacing: Double? = nil,
    @ViewBuilder content: () -> Content
  ) {
    self.alignment = alignment
    self.spacing = spacing
    self.content = content()
  }

  func makeChildren(_ node: ViewNode) -> [ChildSpec] {
    [ChildSpec(component: .slot(0), view: content)]
  }
  func renderLine(_ node: ViewNode) -> String? {
    stackLine("HStack", alignment: alignment?.rawValue, spacing: spacing)
  }
}

/// Children overlaid on each other.
public struct ZStack<Content: View>: View, PrimitiveView {
  let alignment: Alignment?
  let content: Content

  /// An overlay stack of the builder's views.
  public init(alignment: Alignment? = nil, @ViewBuilder content: () -> Content) {
    self.alignment = alignment
    self.content = content()
  }

  func makeChildren(_ node: ViewNode) -> [ChildSpec] {
    [ChildSpec(component: .slot(0), view: content)]
  }
  func renderLine(_ node: ViewNode) -> String? {
    stackLine("ZStack", alignment: alignment?.rawValue, spacing: nil)
  }
}

/// Flexible empty space.
public struct Spacer: View, PrimitiveView {
  let minLength: Double?
  /// A spacer of at least `minLength`.
  public init(minLength: Double? = nil) { self.minLength = minLength }
  func makeChildren(_ node: ViewNode) -> [ChildSpec] { [] }
  func renderLine(_ node: ViewNode) -> String? { "Spacer" }
}
