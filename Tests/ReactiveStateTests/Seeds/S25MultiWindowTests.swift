import ReactiveStateMacrosFree
import Testing

/// S25 (seeds 000, 001): a per-window search/filter model.
@MainActor
final class WindowSearchModel: Observable {
  private let registrar = ObservationRegistrar()
  private var _query = ""

  var query: String {
    get {
      registrar.access(self, keyPath: \.query)
      return _query
    }
    set {
      registrar.withMutation(of: self, keyPath: \.query, replacing: _query, with: newValue) {
        _query = newValue
      }
    }
  }
}

/// Counts the tasks of window roots and how they ended.
@MainActor
final class WindowTaskProbe {
  var started = 0
  var cancelled = 0
  var models: [WindowSearchModel] = []
  var visitBindings: [Binding<Int>] = []
  private var gates: [Int: CheckedContinuation<Void, Never>] = [:]

  func run() async {
    started += 1
    let index = started
    await withTaskCancellationHandler {
      await withCheckedContinuation { gates[index] = $0 }
    } onCancel: {
      Task { @MainActor in self.release(index) }
    }
    if Task.isCancelled { cancelled += 1 }
  }

  var waiting: Int { gates.count }

  func release(_ index: Int) {
    gates.removeValue(forKey: index)?.resume()
  }
}

@MainActor
@Suite("S25 multi-window scoping") struct S25MultiWindowTests {
  struct SearchWindowRoot: View {
    @State private var search = WindowSearchModel()
    @State private var visits = 0
    @Environment(Session.self) private var session
    let probe: WindowTaskProbe

    var body: some View {
      @Bindable var search = search
      VStack {
        Text("user \(session.user?.displayName ?? "Guest")")
        Text("query \(search.query)")
      }
      .searchable(text: $search.query)
      .task { await probe.run() }
      .onAppear {
        probe.models.append(search)
        probe.visitBindings.append($visits)
      }
    }
  }

  struct NotesApp: App {
    let session = Session()
    let probe = WindowTaskProbe()

    var body: some Scene {
      WindowGroup {
        SearchWindowRoot(probe: probe).environment(session)
      }
    }
  }

  @Test("S25 windows scope their own state and share the app's session")
  func windowsScopeState() async throws {
    let app = AppHost(NotesApp())
    let first = try app.openWindow()
    let second = try app.openWindow()
    #expect(app.windows.count == 2)
    while app.app.probe.waiting < 2 { await Task.yield() }
    #expect(app.app.probe.models.count == 2)
    #expect(app.app.probe.models[0] !== app.app.probe.models[1], "one model per window")

    second.host.resetCounts()
    try first.host.type("milk", into: "Search")
    #expect(first.host.texts.contains("query milk"))
    #expect(second.host.texts.contains("query "), "the other window is untouched")
    #expect(second.host.totalBodyEvaluations == 0)

    app.app.session.logIn(as: "Ada")
    app.flush()
    #expect(first.host.texts.first == "user Ada")
    #expect(second.host.texts.first == "user Ada", "logging in updates both")

    app.close(first)
    #expect(app.windows.map(\.id) == [second.id])
    await first.host.settle()
    #expect(app.app.probe.cancelled == 1, "closing a window cancelled its task")
    #expect(first.host.runningTaskCount == 0)
    #expect(second.host.runningTaskCount == 1, "the other window's task still runs")
    app.app.probe.visitBindings[0].wrappedValue = 5
    #expect(app.app.probe.visitBindings[0].wrappedValue == 0, "the window's state ended")
    #expect(first.host.issues.map(\.kind) == [.writeToEndedIdentity])
    #expect(app.issues == first.host.issues, "a closed window's later issues are still the app's")
    app.app.probe.visitBindings[1].wrappedValue = 5
    #expect(app.app.probe.visitBindings[1].wrappedValue == 5)
    let before = first.host.totalBodyEvaluations
    app.app.session.logOut()
    app.flush()
    #expect(first.host.totalBodyEvaluations == before, "a closed window no longer updates")
    #expect(second.host.texts.first == "user Guest")
    app.close(second)
    await second.host.settle()
    #expect(app.app.probe.cancelled == 2)
  }

  /// A window root that loads in a task and, once loaded, writes its own `@State` during
  /// `body` (a runtime issue of its window).
  struct LoadingRoot: View {
    @State private var loaded = false
    @State private var renders = 0
    var body: some View {
      if loaded { renders += 1 }  // dropped, and recorded as a runtime issue
      return Text(loaded ? "loaded" : "loading")
        .task {
          await Task.yield()
          loaded = true
        }
    }
  }

  struct LoadingApp: App {
    var body: some Scene {
      WindowGroup { LoadingRoot() }
    }
  }

  @Test("S25 the app host settles every window and collects every window's issues")
  func appSettlesAndCollectsIssues() async throws {
    let app = AppHost(LoadingApp())
    let first = try app.openWindow()
    let second = try app.openWindow()
    #expect(app.issues.isEmpty)
    await app.settle()
    #expect(first.host.texts == ["loaded"])
    #expect(second.host.texts == ["loaded"])
    #expect(first.host.runningTaskCount == 0 && second.host.runningTaskCount == 0)
    #expect(app.issues.map(\.kind) == [.stateWriteDuringUpdate, .stateWriteDuringUpdate])
    #expect(app.issues.first?.description.hasPrefix("stateWriteDuringUpdate: ") == true)
    let issues = app.issues
    app.close(first)
    #expect(app.issues == issues, "closing a window loses none of its issues")
  }

  @Test("S25 opening an unknown scene fails")
  func unknownScene() {
    let app = AppHost(NotesApp())
    #expect(throws: AppHostError.noSuchScene("settings")) { try app.openWindow(id: "settings") }
  }
}
