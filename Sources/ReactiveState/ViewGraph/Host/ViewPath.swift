/// A view's structural path from the root, e.g. `0:Root/0:VStack<…>/1:Row`, as a chain of
/// levels: each stores its own component and type name and its parent's level, and the text is
/// built when asked for. A node at depth d so adds one small object, not a copy of a d-level
/// string: mounting a deep tree (and logging every evaluation) stays linear in its size, and
/// mounting a node builds no text at all for the common components.
final class ViewPath: Sendable {
  /// A level's identity component: positions and integer ids as they are, any other id as its
  /// text, made with the level (an id's description could change later).
  enum Component: Sendable, CustomStringConvertible {
    case slot(Int)
    case branch(Int)
    case element(Int)
    case described(String)

    init(_ component: IdentityComponent) {
      switch component {
      case .slot(let index): self = .slot(index)
      case .branch(let index): self = .branch(index)
      case .element(let id): self = id.intValue.map(Self.element) ?? .described("\(component)")
      case .duplicate, .explicit: self = .described("\(component)")
      }
    }

    /// As ``IdentityComponent/description``.
    var description: String {
      switch self {
      case .slot(let index): "\(index)"
      case .branch(let index): "b\(index)"
      case .element(let id): "#\(id)"
      case .described(let text): text
      }
    }
  }

  let parent: ViewPath?
  private let component: Component
  /// The view's type name; nil for a path given as text.
  private let typeName: String?

  init(parent: ViewPath?, component: IdentityComponent, typeName: String) {
    self.parent = parent
    self.component = Component(component)
    self.typeName = typeName
  }

  /// A path of one level, `text`.
  init(text: String) {
    parent = nil
    component = .described(text)
    typeName = nil
  }

  /// This level: `component:Type`.
  var level: String { typeName.map { "\(component):\($0)" } ?? component.description }

  /// The levels from the root, joined by `/`.
  var text: String {
    var levels = [level]
    var next = parent
    while let current = next {
      levels.append(current.level)
      next = current.parent
    }
    return levels.reversed().joined(separator: "/")
  }
}
