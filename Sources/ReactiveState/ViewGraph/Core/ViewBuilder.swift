/// Builds view content from `body` blocks: several children, `if`/`else`, `if let`, `switch`
/// and optionals, as SwiftUI's `@ViewBuilder` does.
@MainActor
@resultBuilder
public enum ViewBuilder {
  /// An empty block builds an ``EmptyView``.
  public static func buildBlock() -> EmptyView { EmptyView() }

  /// A single child is passed through unchanged.
  public static func buildBlock<Content: View>(_ content: Content) -> Content { content }

  /// Several children build a ``TupleView``; each child's identity is its position.
  public static func buildBlock<each Content: View>(_ content: repeat each Content) -> TupleView<
    (repeat each Content)
  > {
    var children: [any View] = []
    for child in repeat each content { children.append(child) }
    return TupleView(value: (repeat each content), children: children)
  }

  /// `if` without `else`: present content is a child of the optional's branch.
  public static func buildOptional<Content: View>(_ content: Content?) -> Content? { content }

  /// The `if` (or first `switch` case) arm.
  public static func buildEither<TrueContent: View, FalseContent: View>(first: TrueContent)
    -> ConditionalContent<TrueContent, FalseContent>
  {
    ConditionalContent(storage: .trueContent(first))
  }

  /// The `else` (or later `switch` case) arm.
  public static func buildEither<TrueContent: View, FalseContent: View>(second: FalseContent)
    -> ConditionalContent<TrueContent, FalseContent>
  {
    ConditionalContent(storage: .falseContent(second))
  }

  /// `if #available` content is passed through.
  public static func buildLimitedAvailability<Content: View>(_ content: Content) -> AnyView {
    AnyView(content)
  }
}

/// Several views side by side, produced by ``ViewBuilder``. Each child's identity is its slot.
public struct TupleView<T>: View, PrimitiveView {
  /// The children as a tuple, as SwiftUI exposes them.
  public let value: T
  let children: [any View]

  func makeChildren(_ node: ViewNode) -> [ChildSpec] {
    children.enumerated().map { ChildSpec(component: .slot($0.offset), view: $0.element) }
  }
}

/// One of two arms of an `if`/`else` or `switch`; each arm is a separate identity, so flipping
/// the condition ends the other arm's state.
public struct ConditionalContent<TrueContent: View, FalseContent: View>: View, PrimitiveView {
  enum Storage {
    case trueContent(TrueContent)
    case falseContent(FalseContent)
  }
  let storage: Storage

  func makeChildren(_ node: ViewNode) -> [ChildSpec] {
    switch storage {
    case .trueContent(let view): [ChildSpec(component: .branch(0), view: view)]
    case .falseContent(let view): [ChildSpec(component: .branch(1), view: view)]
    }
  }
}

extension Optional: View where Wrapped: View {}

/// Identifies `Optional` types without casting through the optional (a cast would look
/// through it): `Optional` view nodes, and optional fields compared by ``ViewEquality``.
protocol OptionalTypeMarker {
  /// The type the optional wraps.
  static var wrappedType: Any.Type { get }
  /// The wrapped value, nil for none.
  var anyWrapped: Any? { get }
}

extension Optional: OptionalTypeMarker {
  static var wrappedType: Any.Type { Wrapped.self }
  var anyWrapped: Any? { self.map { $0 } }
}

extension Optional: PrimitiveView where Wrapped: View {
  func makeChildren(_ node: ViewNode) -> [ChildSpec] {
    guard let wrapped = self else { return [] }
    return [ChildSpec(component: .branch(0), view: wrapped)]
  }
}

/// A view with no content.
public struct EmptyView: View, PrimitiveView {
  /// Creates an empty view.
  public init() {}
  func makeChildren(_ node: ViewNode) -> [ChildSpec] { [] }
  var expandsWithoutReads: Bool { true }
}
