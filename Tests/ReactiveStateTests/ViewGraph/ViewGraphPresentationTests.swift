import ReactiveStateMacrosFree
import Testing

/// `.sheet(item:)` identities, their state and tasks; continuous per-node tracking.
@MainActor
@Suite struct ViewGraphPresentationTests {
  struct Item: Identifiable, Equatable {
    var id: Int
  }

  @MainActor final class Probe {
    var starts: [Int] = []
    var cancels: [Int] = []
    var finished: [Int] = []
    let requests = PendingRequests<Void>()
  }

  struct SheetBody: View {
    let item: Item
    let probe: Probe
    @State private var taps = 0
    var body: some View {
      Button("Tap \(item.id): \(taps)") { taps += 1 }
        .task {
          probe.starts.append(item.id)
          _ = try? await probe.requests.request("\(item.id)")
          probe.finished.append(item.id)
        }
        .onDisappear { probe.cancels.append(item.id) }
    }
  }

  struct Presenter: View {
    @State private var item: Item?
    let probe: Probe
    var body: some View {
      VStack {
        Button("Show 1") { item = Item(id: 1) }
        Button("Show 2") { item = Item(id: 2) }
        Button("Hide") { item = nil }
      }
      .sheet(item: $item) { item in SheetBody(item: item, probe: probe) }
    }
  }

  @Test func anotherItemIsANewIdentityAndEndsThePreviousOne() async throws {
    let probe = Probe()
    let host = ViewHost(Presenter(probe: probe))
    try host.tap("Show 1")
    try host.tap("Tap 1: 0")
    #expect(host.texts.contains("Tap 1: 1"))
    while host.runningTaskCount < 1 || probe.starts.isEmpty { await Task.yield() }
    try host.tap("Show 2")
    #expect(host.texts.contains("Tap 2: 0"), "fresh state for the new item")
    #expect(probe.cancels == [1])
    try host.tap("Show 1")
    #expect(host.texts.contains("Tap 1: 0"), "the first item's state ended with its identity")
    try host.tap("Hide")
    #expect(!host.texts.contains { $0.hasPrefix("Tap") })
    #expect(probe.cancels == [1, 2, 1])
    await host.settle()
    #expect(probe.finished.count == probe.starts.count, "every sheet task was cancelled")
    #expect(host.runningTaskCount == 0)
  }

  struct Reader: View {
    let model: Triple
    let label: String
    var body: some View { Text("\(label) \(model.b)") }
  }

  struct Churner: View {
    let model: Triple
    var body: some View {
      // A new label each time `a` changes: the child is re-evaluated by its parent.
      Reader(model: model, label: "a\(model.a)")
    }
  }

  @Test func aChildReEvaluatedByItsParentKeepsOneRegistration() {
    let model = Triple()
    let host = ViewHost(Churner(model: model))
    for value in 1...20 {
      model.a = value
      host.flush()
    }
    #expect(host.bodyCount(Reader.self) == 21)
    host.resetCounts()
    model.b = 1
    host.flush()
    #expect(host.bodyCount(Reader.self) == 1, "one evaluation, not one per past registration")
    #expect(host.updateLog.map(\.cause) == [.modelProperty(ObservedKeyPath(\Triple.b))])
    #expect(host.texts == ["a20 1"])
  }
}

/// How presented content renders.
@MainActor
@Suite struct ViewGraphSheetRenderTests {
  struct Shown: View {
    @State private var isPresented = true
    var body: some View {
      Text("base").sheet(isPresented: $isPresented) { Text("inside") }
    }
  }

  @Test func presentedContentRendersUnderASheetLine() {
    let lines = ViewHost(Shown()).render().split(separator: "\n").map(String.init)
    let sheet = lines.firstIndex { $0.hasSuffix("Sheet") }
    let inside = lines.firstIndex { $0.hasSuffix("Text \"inside\"") }
    #expect(sheet != nil && inside == sheet.map { $0 + 1 })
    #expect(lines.contains { $0.hasSuffix("Text \"base\"") })
  }
}
