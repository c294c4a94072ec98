import ReactiveStateMacrosFree
import Testing

/// Item 24 of the view-runtime research (each view is its own tracking scope): a modifier that
/// re-expands because of its own reads — a `.searchable` field reading its text, an
/// `.environment(\.theme.size, …)` writing into an inherited value it reads — must not
/// re-evaluate its content, whose input did not change. The host re-fed the content to its
/// child, and a child holding a closure (never known equal) re-ran its body on every keystroke
/// or inherited change, though neither its parent nor anything it read had changed.
@MainActor
@Suite struct ModifierContentReevaluationTests {
  /// Holds a closure, so two of its values are never known to be equal.
  struct ClosureHolder: View {
    let onTap: () -> Void
    var body: some View { Text("holder") }
  }

  struct SearchScreen: View {
    @State private var query = ""
    var body: some View {
      ClosureHolder(onTap: {})
        .searchable(text: $query)
    }
  }

  @Test func typingInASearchFieldDoesNotReEvaluateItsContent() throws {
    let host = ViewHost(SearchScreen())
    host.resetCounts()
    try host.setText("swift", in: "Search")
    #expect(host.value(of: "Search") == "swift")
    #expect(host.render().contains("SearchField \"Search\" text=\"swift\""))
    #expect(host.bodyCount(SearchScreen.self) == 0)
    #expect(host.bodyCount(ClosureHolder.self) == 0, "the content reads nothing of the text")
  }

  struct SizeReader: View {
    @Environment(\.theme) private var theme
    var body: some View { Text("\(theme.color) \(theme.size)") }
  }

  /// Writes into the inherited theme; the body itself reads nothing.
  struct LargerText: View {
    var body: some View {
      VStack {
        ClosureHolder(onTap: {})
        SizeReader()
      }
      .environment(\.theme.size, 20)
    }
  }

  struct Themed: View {
    let model: Triple
    var body: some View {
      LargerText()
        .environment(\.theme, Theme(color: model.flag ? "red" : "blue", size: 12))
    }
  }

  @Test func anInheritedValueChangeReEvaluatesOnlyTheReadersBelowAWriterIntoIt() {
    let model = Triple()
    let host = ViewHost(Themed(model: model))
    #expect(host.texts.contains("red 20"))
    host.resetCounts()
    model.flag = false
    host.flush()
    #expect(host.texts.contains("blue 20"), "the writer follows the inherited value")
    #expect(host.bodyCount(SizeReader.self) == 1)
    #expect(host.bodyCount(LargerText.self) == 0)
    #expect(host.bodyCount(ClosureHolder.self) == 0, "it does not read the theme")
  }
}
