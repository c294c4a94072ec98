import ReactiveStateMacrosFree
import Testing

/// Closing a window ends its identities, and their storage goes with them: a window root's
/// `@StateObject` is released even while the test (or anything else) still holds the
/// ``Window`` and its host. The closed host kept its tree, and with it every node's slots,
/// so the object of each closed window stayed alive as long as its `Window` did. Now the closed
/// host releases its tree: a `@State` model (whose initial value the view value holds) and what
/// the views' actions captured go too, while `texts` and `render()` keep what it showed.
@MainActor
@Suite(.serialized) struct WindowCloseReleaseTests {
  /// A per-window legacy model counting its live instances.
  final class WindowModel: ObservableObject {
    @Published var title = "draft"
    @MainActor static var alive = 0
    @MainActor init() { Self.alive += 1 }
    deinit { MainActor.assumeIsolated { Self.alive -= 1 } }
  }

  struct WindowRoot: View {
    @StateObject private var model = WindowModel()
    var body: some View { Button("Title \(model.title)") { model.title += "!" } }
  }

  struct EditorApp: App {
    var body: some Scene { WindowGroup { WindowRoot() } }
  }

  @Test func closingAWindowReleasesItsRootsStateObject() throws {
    WindowModel.alive = 0
    let app = AppHost(EditorApp())
    let first = try app.openWindow()
    let second = try app.openWindow()
    try first.host.tap("Title draft")
    #expect(second.host.texts == ["Title draft"], "each window has its own model")
    #expect(WindowModel.alive == 2)

    app.close(first)
    #expect(first.host.isClosed)
    #expect(WindowModel.alive == 1, "the closed window's model is released")
    try second.host.tap("Title draft")
    #expect(second.host.texts == ["Title draft!"])
  }

  /// A per-view `@Observable`-style model counting its live instances.
  @MainActor final class Draft: MainActorTrackedObservable {
    let observationRegistrar = MainActorObservationRegistrar()
    @Tracked var words = 0
    static var alive = 0
    init() { Self.alive += 1 }
    isolated deinit { Self.alive -= 1 }
  }

  /// Owns its model through `@State` (the initial value lives in the view value) and
  /// captures it in a button's action.
  struct DraftEditor: View {
    @State private var draft = Draft()
    var body: some View {
      VStack {
        Text("words \(draft.words)")
        Button("Add word") { draft.words += 1 }
      }
    }
  }

  struct DraftApp: App {
    var body: some Scene { WindowGroup { DraftEditor() } }
  }

  /// In `.manual` mode the tap leaves the editor waiting in the dirty queue when the host closes.
  @Test(arguments: [ViewHost.UpdateMode.automatic, .manual])
  func closingAHostReleasesItsStateModelAndKeepsWhatItShowed(mode: ViewHost.UpdateMode) throws {
    Draft.alive = 0
    let host = ViewHost(DraftEditor(), mode: mode)
    try host.tap("Add word")
    #expect(host.hasPendingUpdates == (mode == .manual))
    let shown = (texts: host.texts, rendering: host.render())
    #expect(shown.texts == [mode == .manual ? "words 0" : "words 1", "Add word"])
    #expect(Draft.alive == 1)

    host.close()
    #expect(Draft.alive == 0, "the view value, its state and its action's captures are freed")
    #expect(host.texts == shown.texts && host.render() == shown.rendering)
    #expect(host.nodeCount == 0 && host.count(of: DraftEditor.self) == 0, "no live view")
    #expect(host.value(of: "Add word") == nil)
    #expect(throws: ViewHostError.notFound("Add word")) { try host.tap("Add word") }
  }

  /// A host dropped without `close()` while a view waits in its dirty queue frees that view's
  /// storage: the queue gives back the reference it holds on each waiting node.
  @Test func droppingAHostWithAViewInItsDirtyQueueReleasesItsStateModel() throws {
    Draft.alive = 0
    var host: ViewHost? = ViewHost(DraftEditor(), mode: .manual)
    try host?.tap("Add word")
    #expect(host?.hasPendingUpdates == true)
    #expect(Draft.alive == 1)
    host = nil
    #expect(Draft.alive == 0)
  }

  @Test func closingAWindowNobodyHoldsReleasesItsStateModel() throws {
    Draft.alive = 0
    let app = AppHost(DraftApp())
    try app.openWindow()
    try app.openWindow().host.tap("Add word")
    #expect(Draft.alive == 2)
    app.close(app.windows[1])
    #expect(Draft.alive == 1, "the app keeps the closed window's issues, not its views")
    #expect(app.windows.map { $0.host.texts } == [["words 0", "Add word"]])
  }

  /// A view whose `onDisappear` closes the host it is in (as "closing the last document
  /// closes the window" code does), counting its calls.
  struct ClosesItsHostOnDisappear: View {
    let host: () -> ViewHost?
    let disappeared: Box<Int>
    var body: some View {
      Text("document").onDisappear {
        disappeared.value += 1
        // A bound, so the code before the fix (a nested close() re-ran the removal, whose
        // onDisappear closed again) fails instead of overflowing the stack.
        if disappeared.value < 5 { host()?.close() }
      }
    }
  }

  /// Found by the session-41 re-entrancy review: `close()` guarded on `isClosed`, which it sets
  /// last, so a `close()` from the `onDisappear` it ran removed the tree again, without end.
  @Test func aCloseFromTheOnDisappearItRunsReturnsAtOnce() {
    let disappeared = Box(0)
    weak var weakHost: ViewHost?
    let host = ViewHost(ClosesItsHostOnDisappear(host: { weakHost }, disappeared: disappeared))
    weakHost = host
    host.close()
    #expect(host.isClosed)
    #expect(disappeared.value == 1, "onDisappear runs once per identity")
    #expect(host.texts == ["document"])
    #expect(host.issues.isEmpty)
  }
}
