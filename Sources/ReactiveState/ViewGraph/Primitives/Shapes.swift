/// A filled rectangle. It has no children and renders as the line `Rectangle`.
public struct Rectangle: View, PrimitiveView {
  /// A rectangle.
  public init() {}
  func makeChildren(_ node: ViewNode) -> [ChildSpec] { [] }
  var expandsWithoutReads: Bool { true }
  func renderLine(_ node: ViewNode) -> String? { "Rectangle" }
}

/// A rectangle with rounded corners.
public struct RoundedRectangle: View, PrimitiveView {
  let cornerRadius: Double
  /// A rounded rectangle with corners of `cornerRadius`.
  public init(cornerRadius: Double) { self.cornerRadius = cornerRadius }
  func makeChildren(_ node: ViewNode) -> [ChildSpec] { [] }
  var expandsWithoutReads: Bool { true }
  func renderLine(_ node: ViewNode) -> String? { "RoundedRectangle cornerRadius=\(cornerRadius)" }
}

/// A filled circle. It has no children and renders as the line `Circle`.
public struct Circle: View, PrimitiveView {
  /// A circle.
  public init() {}
  func makeChildren(_ node: ViewNode) -> [ChildSpec] { [] }
  var expandsWithoutReads: Bool { true }
  func renderLine(_ node: ViewNode) -> String? { "Circle" }
}

/// A filled capsule. It has no children and renders as the line `Capsule`.
public struct Capsule: View, PrimitiveView {
  /// A capsule.
  public init() {}
  func makeChildren(_ node: ViewNode) -> [ChildSpec] { [] }
  var expandsWithoutReads: Bool { true }
  func renderLine(_ node: ViewNode) -> String? { "Capsule" }
}

/// A named colour; a view filling its space, or a style for `.foregroundStyle`.
public struct Color: View, PrimitiveView, Hashable, Sendable, CustomStringConvertible {
  /// The colour's name as rendered.
  public let name: String
  /// A colour named `name`.
  public init(_ name: String) { self.name = name }

  /// Red.
  public static let red = Color("red")
  /// Green.
  public static let green = Color("green")
  /// Blue.
  public static let blue = Color("blue")
  /// Orange.
  public static let orange = Color("orange")
  /// Gray.
  public static let gray = Color("gray")
  /// Primary text colour.
  public static let primary = Color("primary")
  /// Secondary text colour.
  public static let secondary = Color("secondary")

  /// The name.
  public nonisolated var description: String { name }
  func makeChildren(_ node: ViewNode) -> [ChildSpec] { [] }
  var expandsWithoutReads: Bool { true }
  func renderLine(_ node: ViewNode) -> String? { "Color \(name)" }
}
