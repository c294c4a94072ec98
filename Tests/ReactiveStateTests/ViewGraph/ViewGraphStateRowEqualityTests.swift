import ReactiveStateMacrosFree
import Testing

/// A row with `@State` next to plain fields, under a parent that re-evaluates: the state's bytes
/// (a new handle, maybe another initial value) never make the row unequal, every plain field
/// still does, and a binding compares by what it points to.
@MainActor
@Suite struct ViewGraphStateRowEqualityTests {
  /// `@State` fields between plain ones, so a wrong skipped range would hide a plain field.
  struct SeededRow: View {
    let flag: Bool
    @State private var count: Int
    let title: String
    @State private var note = ""
    let index: Int
    init(flag: Bool, seed: Int, title: String, index: Int) {
      self.flag = flag
      _count = State(initialValue: seed)
      self.title = title
      self.index = index
    }
    var body: some View { Stepper("\(title) \(flag) \(index)", value: $count) }
  }

  struct SeedParent: View {
    let model: Triple
    var body: some View {
      SeededRow(flag: model.flag, seed: model.a, title: "row", index: model.b)
    }
  }

  @Test func anotherInitialValueKeepsTheRowAndItsState() throws {
    let model = Triple()
    let host = ViewHost(SeedParent(model: model))
    try host.increment("row true 0")
    host.perform { model.a = 50 }
    #expect(host.bodyCount(SeedParent.self) == 2)
    #expect(host.bodyCount(SeededRow.self) == 1, "a new initial value is not a new input")
    #expect(host.value(of: "row true 0") == "1", "the identity's state is kept")
    host.perform { model.b = 3 }
    #expect(host.bodyCount(SeededRow.self) == 2, "the field after the state changed")
    host.perform { model.flag = false }
    #expect(host.bodyCount(SeededRow.self) == 3, "the field before the state changed")
    #expect(host.value(of: "row false 3") == "1")
  }

  struct BoundRow: View {
    @Binding var value: Int
    var body: some View { Text("bound \(value)") }
  }

  struct BindingParent: View {
    let model: Triple
    @State private var first = 1
    @State private var second = 2
    var body: some View {
      Text("tick \(model.a)")
      BoundRow(value: model.flag ? $first : $second)
    }
  }

  @Test func aBindingToAnotherSourceReEvaluatesTheRow() {
    let model = Triple()
    let host = ViewHost(BindingParent(model: model))
    host.perform { model.a = 1 }
    #expect(host.bodyCount(BindingParent.self) == 2)
    #expect(host.bodyCount(BoundRow.self) == 1, "a fresh binding to the same state")
    host.perform { model.flag = false }
    #expect(host.bodyCount(BoundRow.self) == 2, "a binding to another state")
    #expect(host.texts == ["tick 1", "bound 2"])
  }
}
