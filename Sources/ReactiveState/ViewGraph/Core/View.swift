/// A piece of user interface described as a value, as in SwiftUI.
///
/// A view's ``body`` is evaluated by a ``ViewHost`` inside its own tracking scope: every
/// observable property, `@State` value and environment value the body reads becomes a dependency
/// of that view alone, and a change to one of them re-evaluates only this view (and those of its
/// children whose inputs changed). Views are `@MainActor`, like SwiftUI's.
@MainActor
public protocol View {
  /// The type of view this view's body produces.
  associatedtype Body: View

  /// The content of this view. Must not write state: the host records such a write as a
  /// runtime issue; a `@State` write is dropped, and a model (or `objectWillChange`) write,
  /// which cannot be undone, updates its readers in the next pass.
  @ViewBuilder var body: Body { get }
}

extension Never: View {
  /// Primitive views have no body; the host never calls it.
  public var body: Never { fatalError("Never has no body") }
}

/// A view the host expands itself instead of calling `body` (containers, controls, modifiers).
@MainActor
protocol PrimitiveView {
  /// The children to mount under this node, with their identity components. Runs inside the
  /// node's own tracking scope, so reads made here (a `ForEach` row closure, a control reading
  /// its binding) re-expand this node alone.
  func makeChildren(_ node: ViewNode) -> [ChildSpec]

  /// The line this node contributes to ``ViewHost/render()``, or nil for a transparent node
  /// whose children render at its own indentation.
  func renderLine(_ node: ViewNode) -> String?

  /// False when the line already shows the children (a titled button's label).
  var rendersChildren: Bool { get }

  /// True for leaf views cheap to compare (a control holding a title and a binding): an equal
  /// new value skips re-expansion, so a frequently re-evaluated parent does not re-arm the
  /// control's tracking each time. Containers are always re-expanded. Must be the same for
  /// every value of a type: the host reads it once per type (``ViewTypeInfo``).
  var skipsWhenEqual: Bool { get }

  /// True for leaves whose ``makeChildren(_:)`` reads nothing and returns no children (text,
  /// shapes): the host expands them outside any tracking scope and gives their nodes no
  /// observer, since nothing could ever invalidate them. Must be the same for every value of
  /// a type, like ``skipsWhenEqual``.
  var expandsWithoutReads: Bool { get }

  /// The environment this node's children inherit; runs before ``makeChildren(_:)``, in the
  /// same tracking scope (what it reads re-expands the node when it changes).
  func childEnvironment(_ node: ViewNode, inherited: EnvironmentValues) -> EnvironmentValues

  /// True for modifiers whose children are their stored content, whatever the node reads (a
  /// search field's text, an inherited value it writes into): a re-expansion caused by those
  /// reads hands the children the values they already hold, so they are not re-evaluated.
  static var childrenDependOnlyOnValue: Bool { get }
}

extension PrimitiveView {
  func renderLine(_ node: ViewNode) -> String? { nil }
  var rendersChildren: Bool { true }
  var skipsWhenEqual: Bool { false }
  var expandsWithoutReads: Bool { false }
  func childEnvironment(_ node: ViewNode, inherited: EnvironmentValues) -> EnvironmentValues {
    inherited
  }
  static var childrenDependOnlyOnValue: Bool { false }
}

extension View where Body == Never {
  /// Built-in views have no body: the host expands them itself and never calls it.
  public var body: Never { fatalError("\(Self.self) is a built-in view without a body") }
}

/// One child produced by a node's expansion.
struct ChildSpec {
  var component: IdentityComponent
  var view: any View
}

/// A node's identity relative to its parent. Together with the concrete view type it decides
/// whether an existing child is reused (keeping its state) or a new one is mounted.
enum IdentityComponent: Hashable, CustomStringConvertible {
  /// Position inside a builder block or a container.
  case slot(Int)
  /// `if`/`else` arm, `switch` case or present optional.
  case branch(Int)
  /// `ForEach` element id.
  case element(ErasedID)
  /// A later element repeating an earlier `ForEach` id (a runtime issue; gets fresh state).
  case duplicate(ErasedID, Int)
  /// `.id(_:)`.
  case explicit(ErasedID)

  var description: String {
    switch self {
    case .slot(let index): "\(index)"
    case .branch(let index): "b\(index)"
    case .element(let id): "#\(id)"
    case .duplicate(let id, let index): "#\(id)~\(index)"
    case .explicit(let id): "id=\(id)"
    }
  }

  // Written out: the synthesized `==` costs about a hundred instructions more per compared
  // child, and every kept child of every re-evaluated node is compared.
  static func == (lhs: IdentityComponent, rhs: IdentityComponent) -> Bool {
    switch (lhs, rhs) {
    case (.slot(let left), .slot(let right)), (.branch(let left), .branch(let right)):
      left == right
    case (.element(let left), .element(let right)), (.explicit(let left), .explicit(let right)):
      left == right
    case (.duplicate(let left, let leftIndex), .duplicate(let right, let rightIndex)):
      leftIndex == rightIndex && left == right
    default:
      false
    }
  }
}

/// Calls `body` on an existential view (opened generically).
@MainActor
func evaluateBody<V: View>(_ view: V) -> any View { view.body }
