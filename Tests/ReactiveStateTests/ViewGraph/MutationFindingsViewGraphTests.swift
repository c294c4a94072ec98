import ReactiveStateMacrosFree
import Testing

/// Promises of the view graph that mutation testing found unpinned: each test fails when the
/// behaviour it names is broken.
@MainActor
@Suite struct MutationFindingsViewGraphTests {
  // MARK: - onDisappear carries the last view value's action

  struct Farewell: View {
    let word: String
    let log: ViewGraphLifecycleTests.Log
    var body: some View {
      Text("farewell \(word)").onDisappear { log.entries.append("bye \(word)") }
    }
  }

  struct FarewellParent: View {
    let log: ViewGraphLifecycleTests.Log
    @State private var word = "first"
    @State private var shown = true
    var body: some View {
      VStack {
        Button("Rename") { word = "second" }
        Button("Hide") { shown = false }
        if shown { Farewell(word: word, log: log) }
      }
    }
  }

  // Pins: onDisappear runs the action of the last view value, not the one seen at mount.
  @Test func onDisappearRunsTheActionOfTheLastViewValue() throws {
    let log = ViewGraphLifecycleTests.Log()
    let host = ViewHost(FarewellParent(log: log))
    try host.tap("Rename")
    #expect(host.texts.contains("farewell second"))
    try host.tap("Hide")
    #expect(log.entries == ["bye second"])
  }

  // MARK: - Bindings to different members of one source

  struct Pair: Equatable {
    var left = "L"
    var right = "R"
  }

  struct MemberField: View {
    @Binding var text: String
    var body: some View { Text("shows \(text)") }
  }

  struct MemberSwitcher: View {
    @State private var pair = Pair()
    @State private var editsRight = false
    var body: some View {
      VStack {
        Button("Switch") { editsRight = true }
        MemberField(text: editsRight ? $pair.right : $pair.left)
      }
    }
  }

  // Pins: `$state.a` and `$state.b` are different sources, so a child handed the other re-evaluates.
  @Test func aChildHandedABindingToAnotherMemberIsReevaluated() throws {
    let host = ViewHost(MemberSwitcher())
    #expect(host.texts.contains("shows L"))
    try host.tap("Switch")
    #expect(host.texts.contains("shows R"))
    #expect(!host.texts.contains("shows L"))
  }

  // MARK: - Repeated ForEach ids

  // Pins: each repeated ForEach id is its own identity, kept with its state when the data changes.
  @Test func everyRepeatedIDKeepsItsOwnRowWhenTheDataChanges() throws {
    let list = ViewGraphIdentityTests.ItemList([1, 1, 1])
    let host = ViewHost(ViewGraphIdentityTests.Rows(list: list))
    try host.tap("row1 0", occurrence: 2)
    #expect(host.texts == ["row1 0", "row1 0", "row1 1"])
    list.items.append(ViewGraphIdentityTests.Item(id: 2))
    host.flush()
    #expect(host.texts == ["row1 0", "row1 0", "row1 1", "row2 0"])
  }

  // MARK: - DismissAction equality

  /// Reads the dismiss action in its body (the button keeps the value it read).
  struct DismissReader: View {
    @Environment(\.dismiss) private var dismiss
    var body: some View {
      let close = dismiss
      return Button("Close sheet") { close() }
    }
  }

  struct BumpingPresenter: View {
    @State private var isPresented = false
    @State private var bumps = 0
    var body: some View {
      VStack {
        Button("Show") { isPresented = true }
        Button("Bump \(bumps)") { bumps += 1 }
      }
      .sheet(isPresented: $isPresented) { DismissReader() }
    }
  }

  // Pins: re-evaluating the presenter hands the sheet an equal DismissAction, so its readers stay put.
  @Test func reEvaluatingAPresenterDoesNotReEvaluateTheDismissReaders() throws {
    let host = ViewHost(BumpingPresenter())
    try host.tap("Show")
    #expect(host.bodyCount(DismissReader.self) == 1)
    try host.tap("Bump 0")
    #expect(host.texts.contains("Bump 1"))
    #expect(host.bodyCount(DismissReader.self) == 1)
    try host.tap("Close sheet")
    #expect(!host.texts.contains("Close sheet"))
  }

  // MARK: - Window groups

  struct TwoGroupsApp: App {
    var body: some Scene {
      WindowGroup(id: "main") { Text("main window") }
      WindowGroup(id: "settings") { Text("settings window") }
    }
  }

  // Pins: `openWindow()` without an id opens the first window group declared; an id picks its group.
  @Test func openingAWindowWithoutAnIDUsesTheFirstGroup() throws {
    let app = AppHost(TwoGroupsApp())
    let first = try app.openWindow()
    #expect(first.sceneID == "main")
    #expect(first.host.texts == ["main window"])
    let settings = try app.openWindow(id: "settings")
    #expect(settings.sceneID == "settings")
    #expect(settings.host.texts == ["settings window"])
  }

  // MARK: - Nested actions

  // Pins: nested actions do not update; only the outermost action flushes, at its end.
  @Test func onlyTheOutermostActionFlushes() throws {
    let host = ViewHost(CounterView(label: "nested"))
    var seenInside: [String] = []
    var pendingInside = false
    try host.perform {
      try host.tap("nested 0")
      seenInside = host.texts
      pendingInside = host.hasPendingUpdates
    }
    #expect(seenInside == ["nested 0"])
    #expect(pendingInside)
    #expect(host.texts == ["nested 1"])
  }

  // MARK: - onChange before tasks

  @MainActor final class TaskCountProbe {
    weak var host: ViewHost?
    var countsSeen: [Int] = []
  }

  struct ChangeThenTask: View {
    let probe: TaskCountProbe
    @State private var shown = false
    var body: some View {
      VStack {
        Button("Show") { shown = true }
        if shown { Text("worker").task {} }
      }
      .onChange(of: shown) { probe.countsSeen.append(probe.host?.runningTaskCount ?? -1) }
    }
  }

  // Pins: the onChange phase runs before the task phase of the same pass (no task started yet).
  @Test func onChangeActionsRunBeforeTasksOfTheSamePassStart() async throws {
    let probe = TaskCountProbe()
    let host = ViewHost(ChangeThenTask(probe: probe))
    probe.host = host
    try host.tap("Show")
    #expect(probe.countsSeen == [0])
    #expect(host.runningTaskCount == 1)
    await host.settle()
    #expect(host.runningTaskCount == 0)
  }
}
