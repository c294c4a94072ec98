import ReactiveStateMacrosFree
import Testing

/// The test host: rendering, control lookup, update modes and the "why did this update" log.
@MainActor
@Suite struct ViewGraphHostTests {
  struct Gallery: View {
    @State private var name = "Ada"
    @State private var on = false
    @State private var count = 2
    @State private var query = ""

    var body: some View {
      List {
        Section("Controls") {
          TextField("Name", text: $name)
          Toggle("Enabled", isOn: $on)
          Stepper("Count", value: $count, in: 0...3)
          Button(action: { count = 0 }) {
            HStack(spacing: 4) {
              Circle()
              Text("Reset")
            }
          }
        }
        Group {
          LabeledContent("Total", value: "42")
          LabeledContent("Shapes") {
            ZStack(alignment: .topLeading) {
              Rectangle()
              RoundedRectangle(cornerRadius: 3)
              Capsule()
              Color.red
            }
          }
        }
        Spacer()
        EmptyView()
        Text("moved").position(x: 1, y: 2).attribute("tag", "x")
      }
      .searchable(text: $query)
    }
  }

  @Test func renderShowsTypesTextsAttributesAndControlValues() {
    let host = ViewHost(Gallery())
    #expect(
      host.render() == """
        Gallery
          SearchField "Search" text=""
            List
              Section "Controls"
                TextField "Name" text="Ada"
                Toggle "Enabled" isOn=false
                Stepper "Count" value=2
                Button
                  HStack spacing=4.0
                    Circle
                    Text "Reset"
              LabeledContent "Total"
                Text "42"
              LabeledContent "Shapes"
                ZStack alignment=topLeading
                  Rectangle
                  RoundedRectangle cornerRadius=3.0
                  Capsule
                  Color red
              Spacer
              Text "moved" [position=(1.0, 2.0)] [tag=x]
        """)
  }

  @Test func controlsAreFoundByLabelAndActedOn() throws {
    let host = ViewHost(Gallery())
    try host.type(" L.", into: "Name")
    try host.toggle("Enabled")
    try host.increment("Count")
    try host.increment("Count")
    try host.setText("q", in: "Search")
    #expect(host.value(of: "Name") == "Ada L.")
    #expect(host.value(of: "Enabled") == "true")
    #expect(host.value(of: "Count") == "3", "clamped to the range")
    #expect(host.value(of: "Search") == "q")
    try host.tap("Reset")
    try host.decrement("Count")
    #expect(host.value(of: "Count") == "0")
    #expect(throws: ViewHostError.notFound("Nope")) { try host.tap("Nope") }
    #expect(throws: ViewHostError.notFound("Name")) { try host.tap("Name") }
  }

  @Test func ambiguousLabelsNeedAnOccurrence() throws {
    struct Twins: View {
      @State private var hits = 0
      var body: some View {
        Text("hits \(hits)")
        Button("Hit") { hits += 1 }
        Button("Hit") { hits += 10 }
      }
    }
    let host = ViewHost(Twins())
    #expect(throws: ViewHostError.ambiguous("Hit", count: 2)) { try host.tap("Hit") }
    try host.tap("Hit", occurrence: 1)
    #expect(host.texts.first == "hits 10")
  }

  /// `value(of:)` takes an occurrence too: a button and a field with one label, or two
  /// fields, are told apart in tree order.
  @Test func ambiguousValuesNeedAnOccurrence() throws {
    struct Pair: View {
      @State private var first = "a"
      @State private var second = "b"
      var body: some View {
        TextField("Name", text: $first)
        TextField("Name", text: $second)
      }
    }
    let host = ViewHost(Pair())
    #expect(host.value(of: "Name") == nil, "ambiguous")
    #expect(host.value(of: "Name", occurrence: 0) == "a")
    #expect(host.value(of: "Name", occurrence: 1) == "b")
    #expect(host.value(of: "Name", occurrence: 2) == nil)
  }

  struct Logged: View {
    let model: Triple
    @State private var local = 0
    var body: some View {
      VStack {
        Text("a \(model.a) local \(local)")
        Button("local") { local += 1 }
        LoggedChild(value: model.a)
        EnvReader()
      }
      .environment(\.level, model.b)
    }
  }

  struct LoggedChild: View {
    let value: Int
    var body: some View { Text("child \(value)") }
  }

  struct EnvReader: View {
    @Environment(\.level) private var level
    var body: some View { Text("level \(level)") }
  }

  @Test func updateLogNamesTheNodeAndWhatInvalidatedIt() throws {
    let model = Triple()
    let host = ViewHost(Logged(model: model))
    #expect(
      host.updateLog.map(\.description) == [
        "Logged ← mount", "LoggedChild ← mount", "EnvReader ← mount",
      ])
    host.resetCounts()
    try host.tap("local")
    host.perform { model.a = 1 }
    host.perform { model.b = 7 }
    #expect(
      host.updateLog.map(\.description) == [
        "Logged ← state Logged.local",
        "Logged ← property \\Triple.<computed Int>",
        "LoggedChild ← new input from parent",
        "Logged ← property \\Triple.<computed Int>",
        "EnvReader ← environment LevelKey",
      ])
    #expect(host.updateLog[1].cause == .modelProperty(ObservedKeyPath(\Triple.a)))
    #expect(host.updateLog[3].cause == .modelProperty(ObservedKeyPath(\Triple.b)))
    #expect(
      host.updateLog.last?.path
        == "0:Logged/0:EnvironmentWriterView<VStack<TupleView<(Text, Button<Text>, LoggedChild, EnvReader)>>>/0:VStack<TupleView<(Text, Button<Text>, LoggedChild, EnvReader)>>/0:TupleView<(Text, Button<Text>, LoggedChild, EnvReader)>/3:EnvReader"
    )
  }

  struct IDRow: View {
    let label: String
    var body: some View { Text(label) }
  }

  struct IDRows: View {
    var picksFirst = false
    var body: some View {
      VStack {
        ForEach([3, 3], id: \.self) { IDRow(label: "int \($0)") }
        ForEach(["a"], id: \.self) { IDRow(label: $0) }
        ForEach([Int?.some(5)], id: \.self) { IDRow(label: "\($0 ?? 0)") }
        if picksFirst { Text("first") } else { IDRow(label: "second") }
        if !picksFirst { IDRow(label: "present") }
        IDRow(label: "explicit").id("x")
      }
    }
  }

  /// Each identity component prints in a node's path: a `ForEach` id (a repeat with its
  /// occurrence), an `if`/`else` arm as `b0`/`b1` (a present `if` without `else` as `b0`),
  /// and an explicit `.id` as `id=…`.
  @Test func pathsNameForEachIDsAsTheyPrint() {
    let host = ViewHost(IDRows())
    let rowPaths = host.updateLog.filter { $0.view == "IDRow" }.map {
      $0.path.split(separator: "/").last.map(String.init)
    }
    #expect(
      rowPaths == [
        "#3:IDRow", "#3~1:IDRow", "#a:IDRow", "#5:IDRow", "b1:IDRow", "b0:IDRow",
        "id=x:IDRow",
      ])
  }

  @Test func manualModeUpdatesOnlyOnFlush() throws {
    let model = Triple()
    let host = ViewHost(Logged(model: model), mode: .manual)
    try host.tap("local")
    #expect(host.texts.first == "a 0 local 0")
    #expect(host.hasPendingUpdates)
    host.flush()
    #expect(host.texts.first == "a 0 local 1")
    #expect(!host.hasPendingUpdates)
  }

  @Test func writesBeforeMountAreIgnoredAndReportedAndReadsSeeTheInitialValue() {
    struct Unmounted: View {
      @State var value = 3
      var body: some View { Text("\(value)") }
    }
    let view = Unmounted()
    let reported = ObservationDiagnostics.capture {
      view.value = 9
      #expect(view.value == 3)
      let binding = view.$value
      binding.wrappedValue = 5
      #expect(binding.wrappedValue == 3)
    }
    #expect(reported.count == 2, "the write and the projection; reads are not reported")
    #expect(reported.first?.message.contains("State<Int>") == true)
    #expect(reported.last?.message.contains("constant binding") == true)
  }

  enum Header {
    struct Title: View {
      let source: Triple
      var body: some View { Text("header \(source.a)") }
    }
  }

  enum Footer {
    struct Title: View {
      var body: some View { Text("footer") }
    }
  }

  struct TwoTitles: View {
    let source: Triple
    var body: some View {
      Header.Title(source: source)
      Footer.Title()
    }
  }

  /// Types with the same name in different scopes are counted apart.
  @Test func bodyCountTellsSameNamedTypesApart() {
    let source = Triple()
    let host = ViewHost(TwoTitles(source: source))
    source.a = 1
    host.flush()
    #expect(host.bodyCount(Header.Title.self) == 2)
    #expect(host.bodyCount(Footer.Title.self) == 1)
    #expect(host.bodyCounts(of: Footer.Title.self) == [1])
  }
}
