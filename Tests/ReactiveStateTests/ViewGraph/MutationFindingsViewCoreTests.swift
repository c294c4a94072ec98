import ReactiveStateMacrosFree
import Testing

/// Promises of the view graph's core views and primitives that mutation testing found
/// unpinned: each test fails when the behaviour it names is broken.
@MainActor
@Suite struct MutationFindingsViewCoreTests {
  // MARK: - Rendered lines

  struct Arrangement: View {
    var body: some View {
      VStack(alignment: .leading) {
        HStack(alignment: .firstTextBaseline, spacing: 2) {
          Text("say \"hi\"")
          Text(#"C:\dir"#)
        }
        Section {
          Text("two\nlines")
        }
      }
    }
  }

  /// A stack renders the alignment it was given, an untitled section renders as a bare
  /// `Section`, and rendered text escapes quotes, backslashes and newlines so each node stays
  /// on one line.
  @Test func renderShowsAlignmentsUntitledSectionsAndEscapedText() {
    let host = ViewHost(Arrangement())
    #expect(
      host.render() == #"""
        Arrangement
          VStack alignment=leading
            HStack alignment=firstTextBaseline spacing=2.0
              Text "say \"hi\""
              Text "C:\\dir"
            Section
              Text "two\nlines"
        """#)
  }

  // MARK: - A button's label

  struct TwoWordButton: View {
    @State private var saves = 0
    func save() { saves += 1 }
    var body: some View {
      Text("saves \(saves)")
      Button(action: save) {
        Text("Save")
        Text("all")
      }
    }
  }

  /// A button built from several `Text`s is found by their contents joined with spaces.
  @Test func aButtonWithSeveralLabelTextsIsFoundByTheSpaceJoinedText() throws {
    let host = ViewHost(TwoWordButton())
    try host.tap("Save all")
    #expect(host.texts.first == "saves 1")
    #expect(throws: ViewHostError.notFound("Saveall")) { try host.tap("Saveall") }
  }

  // MARK: - ForEach over a range

  struct RangeRows: View {
    @State private var lower = 1
    var body: some View {
      Button("grow") { lower = 0 }
      ForEach(lower..<3) { index in
        CounterView(label: "row \(index)")
      }
    }
  }

  /// `ForEach(range)` keys each row by its integer: when the range grows at the front, the
  /// existing rows keep their state and only the new row starts fresh. SwiftUI documents this
  /// initialiser for constant ranges only (it keeps reading the first range); following a
  /// changed range, keyed by the integers, is a deliberate difference.
  @Test func aRangeForEachKeysRowsByTheirInteger() throws {
    let host = ViewHost(RangeRows())
    try host.tap("row 1 0")
    #expect(host.texts == ["grow", "row 1 1", "row 2 0"])
    try host.tap("grow")
    #expect(host.texts == ["grow", "row 0 0", "row 1 1", "row 2 0"])
    #expect(host.issues.isEmpty)
  }

  // MARK: - if #available

  struct Availability: View {
    var body: some View {
      if #available(macOS 10.15, iOS 13, *) {
        CounterView(label: "available")
      } else {
        Text("unavailable")
      }
    }
  }

  /// The content of an available `if #available` arm is shown (erased by
  /// `buildLimitedAvailability`, as SwiftUI's builder does) and keeps its state.
  @Test func anAvailableBranchShowsItsContentAndKeepsItsState() throws {
    let host = ViewHost(Availability())
    #expect(host.texts == ["available 0"])
    try host.tap("available 0")
    #expect(host.texts == ["available 1"])
  }

  // MARK: - Controls skip an equal value

  /// Counts reads of ``Settings``' computed members.
  final class ReadCounter {
    var reads = 0
  }

  /// A value whose members count their reads; the counter is not part of its identity.
  struct Settings: Equatable {
    var storedOn = false
    var storedName = "Ada"
    let counter: ReadCounter

    var on: Bool {
      get {
        counter.reads += 1
        return storedOn
      }
      set { storedOn = newValue }
    }

    var name: String {
      get {
        counter.reads += 1
        return storedName
      }
      set { storedName = newValue }
    }

    static func == (lhs: Settings, rhs: Settings) -> Bool {
      lhs.storedOn == rhs.storedOn && lhs.storedName == rhs.storedName
    }
  }

  struct SettingsScreen: View {
    @State private var ticks = 0
    @State private var settings: Settings
    init(counter: ReadCounter) { _settings = State(initialValue: Settings(counter: counter)) }
    var body: some View {
      Button("tick \(ticks)") { ticks += 1 }
      Toggle("On", isOn: $settings.on)
      TextField("Name", text: $settings.name)
    }
  }

  /// A `Toggle` or `TextField` handed an equal value (same title, binding to the same source)
  /// by a re-evaluated parent is not re-expanded, so it does not read its binding again
  /// (``PrimitiveView/skipsWhenEqual``); a change of its own source still updates it.
  @Test func aControlHandedAnEqualValueDoesNotReadItsBindingAgain() throws {
    let counter = ReadCounter()
    let host = ViewHost(SettingsScreen(counter: counter))
    let readsAtMount = counter.reads
    try host.tap("tick 0")
    #expect(host.texts.first == "tick 1")
    #expect(counter.reads == readsAtMount)
    try host.toggle("On")
    #expect(host.value(of: "On") == "true")
    #expect(host.value(of: "Name") == "Ada")
  }
}
