import ReactiveStateMacrosFree
import Testing

/// Closing a window ends its identities, and their storage goes with them: a window root's
/// `@StateObject` is released even while the test (or anything else) still holds the
/// ``Window`` and its host. The closed host kept its tree, and with it every node's slots,
/// so the object of each closed window stayed alive as long as its `Window` did.
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
}
