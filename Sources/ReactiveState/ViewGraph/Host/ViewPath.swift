/// A view's structural path from the root, e.g. `0:Root/0:VStack<…>/1:Row`, as a chain of
/// levels: each stores its own `component:Type` and its parent's level, and the text is built
/// when asked for. A node at depth d so adds one small object, not a copy of a d-level string:
/// mounting a deep tree (and logging every evaluation) stays linear in its size.
final class ViewPath: Sendable {
  let parent: ViewPath?
  let level: String

  init(parent: ViewPath?, level: String) {
    self.parent = parent
    self.level = level
  }

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
