import ReactiveStateMacrosFree
import Testing

/// B: writes, bindings and dependency tracking.
@MainActor
@Suite struct ViewGraphTrackingTests {
  struct ReadsA: View {
    let model: Triple
    var body: some View { Text("a=\(model.a)") }
  }

  @Test func modelsInvalidatePerPropertyRead() {
    let model = Triple()
    let host = ViewHost(ReadsA(model: model))
    model.b = 1
    host.flush()
    #expect(host.bodyCount(ReadsA.self) == 1)
    model.a = 1
    host.flush()
    #expect(host.bodyCount(ReadsA.self) == 2)
    #expect(host.texts == ["a=1"], "the re-evaluation runs after the store and sees the new value")
  }

  struct Conditional: View {
    let model: Triple
    var body: some View {
      Text(model.flag ? "b=\(model.b)" : "off")
    }
  }

  @Test func dependenciesAreRecollectedEachEvaluation() {
    let model = Triple()
    let host = ViewHost(Conditional(model: model))
    model.b = 1
    host.flush()
    #expect(host.bodyCount(Conditional.self) == 2)
    model.flag = false
    host.flush()
    #expect(host.bodyCount(Conditional.self) == 3)
    model.b = 2
    host.flush()
    #expect(host.bodyCount(Conditional.self) == 3, "b is no longer read")
  }

  struct ActionReader: View {
    let model: Triple
    var body: some View {
      Button("bump") { model.b = model.a + model.b + 1 }
    }
  }

  @Test func readsInActionClosuresCreateNoDependency() throws {
    let model = Triple()
    let host = ViewHost(ActionReader(model: model))
    try host.tap("bump")
    model.a = 5
    host.flush()
    #expect(model.b == 1)
    #expect(host.bodyCount(ActionReader.self) == 1)
  }

  struct StateCounter: View {
    @State private var count = 0
    @State private var writeOnly = 0
    var body: some View {
      VStack {
        Text("count \(count)")
        Button("same") { count = count + 0 }
        Button("plus two") {
          count += 1
          count += 1
        }
        Button("silent") { writeOnly += 1 }
      }
    }
  }

  @Test func equalStateWriteIsANoOpAndWritesCoalesce() throws {
    let host = ViewHost(StateCounter())
    try host.tap("same")
    #expect(host.bodyCount(StateCounter.self) == 1)
    try host.tap("plus two")
    #expect(host.bodyCount(StateCounter.self) == 2)
    #expect(host.texts.first == "count 2")
    try host.tap("silent")
    #expect(host.bodyCount(StateCounter.self) == 2, "state never read in body does not invalidate")
  }

  final class Box {
    var value = 0
  }

  struct NonEquatableState: View {
    @State private var items: [Box] = []
    @State private var box = Box()
    var body: some View {
      Text("\(items.count) \(box.value)")
      Button("same array") { items = items }
      Button("same object") { box = box }
    }
  }

  @Test func nonEquatableStateAlwaysInvalidatesButTheSameObjectDoesNot() throws {
    let host = ViewHost(NonEquatableState())
    try host.tap("same object")
    #expect(host.bodyCount(NonEquatableState.self) == 1, "=== for class references")
    try host.tap("same array")
    #expect(host.bodyCount(NonEquatableState.self) == 2, "no equality: always a change")
  }

  struct Field: View {
    @Binding var text: String
    var body: some View {
      VStack {
        Text("echo \(text)")
        TextField("field", text: $text)
      }
    }
  }

  struct PassesBinding: View {
    @State private var text = ""
    var body: some View { Field(text: $text) }
  }

  @Test func passingAProjectionDoesNotMakeTheParentDepend() throws {
    let host = ViewHost(PassesBinding())
    try host.setText("hi", in: "field")
    #expect(host.bodyCount(PassesBinding.self) == 1)
    #expect(host.bodyCount(Field.self) == 2)
    #expect(host.texts.first == "echo hi")
    #expect(host.value(of: "field") == "hi")
  }

  struct Pair: Equatable {
    var first = ""
    var second = 0
  }

  struct Derived: View {
    @State private var pair = Pair()
    var body: some View {
      VStack {
        Text("\(pair.first)/\(pair.second)")
        TextField("first", text: $pair.first)
        Stepper("second", value: $pair.second)
        Toggle("constant", isOn: .constant(true))
      }
    }
  }

  @Test func derivedBindingsWriteThroughAndConstantNeverWrites() throws {
    let host = ViewHost(Derived())
    try host.setText("x", in: "first")
    try host.increment("second")
    try host.toggle("constant")
    #expect(host.texts.first == "x/1")
    #expect(host.value(of: "constant") == "true")
  }

  struct WritesDuringBody: View {
    @State private var count = 0
    var body: some View {
      count += 1
      return Text("count \(count)")
    }
  }

  @Test func stateWriteDuringBodyIsRecordedAndDropped() {
    let host = ViewHost(WritesDuringBody())
    #expect(host.texts == ["count 0"])
    #expect(host.issues.map(\.kind) == [.stateWriteDuringUpdate])
    #expect(host.bodyCount(WritesDuringBody.self) == 1)
    #expect(!host.hasPendingUpdates)
  }

  struct PingView: View {
    let model: Triple
    var body: some View {
      let seen = model.a
      model.b += 1
      return Text("ping \(seen)")
    }
  }

  struct PongView: View {
    let model: Triple
    var body: some View {
      let seen = model.b
      model.a += 1
      return Text("pong \(seen)")
    }
  }

  struct PingPong: View {
    let model: Triple
    var body: some View {
      PingView(model: model)
      PongView(model: model)
    }
  }

  @Test func modelWritesDuringBodyAreRecordedAndTheCascadeIsBounded() {
    let model = Triple()
    let host = ViewHost(PingPong(model: model), mode: .manual)
    // `model.b += 1` reads `b` too: each body invalidates itself (its observer sees its own
    // write) and Pong's write of `a` invalidates Ping — all recorded, none re-entered.
    #expect(host.issues.map(\.kind) == [.modelWriteDuringUpdate, .modelWriteDuringUpdate])
    #expect(host.hasPendingUpdates)
    host.flush()
    #expect(host.issues.contains { $0.kind == .updateLoop })
    #expect(!host.hasPendingUpdates)
    let pings = host.bodyCount(PingView.self)
    #expect(pings >= host.maxPassesPerFlush && pings <= host.maxPassesPerFlush + 1)
  }

  struct SelfFeeding: View {
    let model: Triple
    @State private var other = 0
    var body: some View {
      model.a += 1  // recorded, and re-evaluated in the next pass until the loop is cut off
      return Button("other \(other)") { other += 1 }
    }
  }

  @Test func aViewWhoseBodyWriteLoopWasCutOffStillUpdatesLater() throws {
    let host = ViewHost(SelfFeeding(model: Triple()))
    #expect(host.issues.contains { $0.kind == .updateLoop })
    try host.tap("other 0")
    #expect(host.texts == ["other 1"])
  }

  struct ReadsChild: View {
    let model: Triple
    var body: some View { Text("child \(model.b)") }
  }

  struct ReadsParent: View {
    let model: Triple
    var body: some View {
      VStack {
        Text("parent \(model.a)")
        ReadsChild(model: model)
      }
    }
  }

  @Test func eachViewIsItsOwnTrackingScope() {
    let model = Triple()
    let host = ViewHost(ReadsParent(model: model))
    model.b = 1
    host.flush()
    #expect(host.bodyCount(ReadsParent.self) == 1)
    #expect(host.bodyCount(ReadsChild.self) == 2)
    model.a = 1
    host.flush()
    #expect(host.bodyCount(ReadsParent.self) == 2)
    #expect(host.bodyCount(ReadsChild.self) == 2, "an equal child value is not re-evaluated")
  }

  struct Adapter: View {
    let model: OptionalTitle
    var body: some View {
      let title = Binding(
        get: { model.title ?? "" },
        set: { model.title = $0.isEmpty ? nil : $0 })
      TextField("title", text: title)
    }
  }

  final class OptionalTitle: Observable {
    private let registrar = ObservationRegistrar()
    private var _title: String?
    var title: String? {
      get {
        registrar.access(self, keyPath: \.title)
        return _title
      }
      set {
        registrar.withMutation(of: self, keyPath: \.title, replacing: _title, with: newValue) {
          _title = newValue
        }
      }
    }
  }

  @Test func customBindingReadsAreTrackedByTheReader() throws {
    let model = OptionalTitle()
    let host = ViewHost(Adapter(model: model))
    model.title = "x"
    host.flush()
    #expect(host.value(of: "title") == "x")
    #expect(host.bodyCount(Adapter.self) == 1, "the control read the binding, not the body")
  }
}
