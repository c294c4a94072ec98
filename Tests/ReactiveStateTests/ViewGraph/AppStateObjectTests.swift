import ReactiveStateMacrosFree
import Testing

/// An app that owns a legacy model with `@StateObject` (SwiftUI's pre-Observation pattern for
/// app-wide models) creates it once and shares it with every window. The host never linked
/// the app's properties: each read of the property in the app's body was a "read before
/// mounting", creating a new object per window (and per read) and reporting a diagnostic.
@MainActor
@Suite(.serialized) struct AppStateObjectTests {
  /// An app-wide legacy store counting its instances.
  final class AppStore: ObservableObject {
    @Published var count = 0
    @MainActor static var created = 0
    @MainActor init() { Self.created += 1 }
  }

  struct StoreApp: App {
    @StateObject private var store = AppStore()
    var body: some Scene {
      WindowGroup { CounterRoot().environmentObject(store) }
    }
  }

  struct CounterRoot: View {
    @EnvironmentObject var store: AppStore
    var body: some View { Button("Count \(store.count)") { store.count += 1 } }
  }

  @Test func anAppsStateObjectIsCreatedOnceAndSharedByEveryWindow() throws {
    AppStore.created = 0
    var app: AppHost<StoreApp>?
    let reported = ObservationDiagnostics.capture {
      app = AppHost(StoreApp())
      _ = try? app?.openWindow()
      _ = try? app?.openWindow()
    }
    let windows = try #require(app?.windows)
    #expect(windows.count == 2)
    #expect(AppStore.created == 1, "one store for the app, not one per window")
    #expect(reported.filter { $0.message.contains("StateObject<AppStore>") }.isEmpty)

    try windows[0].host.tap("Count 0")
    app?.flush()
    #expect(windows[0].host.texts == ["Count 1"])
    #expect(windows[1].host.texts == ["Count 1"], "the other window shows the shared store")
    #expect(app?.issues.isEmpty == true)
  }
}
