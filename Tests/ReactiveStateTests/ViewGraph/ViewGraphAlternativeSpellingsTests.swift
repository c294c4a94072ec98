import ReactiveStateMacrosFree
import Testing

/// The second spellings SwiftUI code uses for the same things — `List(data, id:)`, an
/// untitled `Section`, `AnyView(erasing:)`, `Text(verbatim:)`, an optional `@State` without
/// an initial value, `Bindable(model)`, `Binding(projectedValue:)`, `ObservedObject(_:)` —
/// build the same graph and data flow as the first ones.
@MainActor
@Suite struct ViewGraphAlternativeSpellingsTests {
  struct Stepper: View {
    @Binding var value: Int
    init(value: Binding<Int>) { _value = Binding(projectedValue: value) }
    var body: some View { Button("step \(value)") { value += 1 } }
  }

  struct Screen: View {
    let model: Triple
    let names: [String]
    @State private var picked: Int?
    @State private var steps = 0
    var body: some View {
      List(names, id: \.self) { name in
        Text(verbatim: name)
      }
      Section {
        AnyView(erasing: Text("picked \(picked.map(String.init) ?? "none")") as any View)
        Button("pick") { picked = 7 }
      }
      Stepper(value: $steps)
      Text("steps \(steps)")
      Button("bump a") { Bindable(model).a.wrappedValue += 1 }
      Text("a \(model.a)")
    }
  }

  @Test func alternativeSpellingsBuildTheSameGraph() throws {
    let model = Triple()
    let host = ViewHost(Screen(model: model, names: ["x", "y"]))
    #expect(
      host.texts == ["x", "y", "picked none", "pick", "step 0", "steps 0", "bump a", "a 0"])
    let nodes = host.nodeCount
    try host.tap("pick")
    try host.tap("step 0")
    try host.tap("bump a")
    #expect(
      host.texts == ["x", "y", "picked 7", "pick", "step 1", "steps 1", "bump a", "a 1"])
    #expect(host.nodeCount == nodes, "no identity was added or lost")
    #expect(host.count(of: Stepper.self) == 1)
  }

  struct LegacyLabel: View {
    @ObservedObject var counter: LegacyCounterModel
    init(_ counter: LegacyCounterModel) { _counter = ObservedObject(counter) }
    var body: some View {
      Text("count \(counter.count)")
      TextField("note", text: $counter.note)
    }
  }

  @Test func anObservedObjectWrappedByHandSubscribesAndBinds() throws {
    let counter = LegacyCounterModel()
    let host = ViewHost(LegacyLabel(counter))
    host.perform { counter.count = 2 }
    #expect(host.texts.first == "count 2")
    try host.setText("hello", in: "note")
    #expect(counter.note == "hello")
  }
}
