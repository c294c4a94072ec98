/// A line of read-only text. Renders as `Text "content"`.
public struct Text: View, PrimitiveView, Equatable {
  /// The displayed string.
  public let content: String

  /// Text showing `content`.
  public init<S: StringProtocol>(_ content: S) { self.content = String(content) }

  /// Text showing `content` verbatim.
  public init(verbatim content: String) { self.content = content }

  func makeChildren(_ node: ViewNode) -> [ChildSpec] { [] }
  var skipsWhenEqual: Bool { true }
  var expandsWithoutReads: Bool { true }
  func renderLine(_ node: ViewNode) -> String? { "Text \(quoted(content))" }
}

/// `"text"` with quotes and backslashes escaped, as used by the rendered tree.
func quoted(_ text: String) -> String {
  var result = "\""
  for character in text {
    switch character {
    case "\"": result += "\\\""
    case "\\": result += "\\\\"
    case "\n": result += "\\n"
    default: result.append(character)
    }
  }
  return result + "\""
}
