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

/// An app's value-type `@State` is owned by the app, as in SwiftUI: created once when the app
/// is hosted, shared by every window (through a binding or a read in the scene's content),
/// and a write from one window reaches the others. It was not linked, so every write was
/// ignored (with a "used outside a view installed in a host" diagnostic).
@MainActor
@Suite struct AppValueStateTests {
  struct CountingApp: App {
    @State private var count = 0
    var body: some Scene {
      WindowGroup { CountButton(count: $count, title: "Count \(count)") }
    }
  }

  struct CountButton: View {
    @Binding var count: Int
    let title: String
    var body: some View {
      Text("shown \(count)")
      Button(title) { count += 1 }
    }
  }

  @Test func anAppsStateIsSharedByEveryWindowAndWritable() throws {
    var app: AppHost<CountingApp>?
    let reported = ObservationDiagnostics.capture {
      app = AppHost(CountingApp())
      _ = try? app?.openWindow()
      _ = try? app?.openWindow()
    }
    #expect(reported.isEmpty)
    let windows = try #require(app?.windows)
    try windows[0].host.tap("Count 0")
    app?.flush()
    #expect(windows[0].host.texts.first == "shown 1")
    #expect(windows[1].host.texts.first == "shown 1", "the other window reads the same state")
    let third = try #require(try app?.openWindow())
    #expect(third.host.texts == ["shown 1", "Count 1"], "a new window starts from the app's value")
    #expect(app?.issues.isEmpty == true)
  }
}
