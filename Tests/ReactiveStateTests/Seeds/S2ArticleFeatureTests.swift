import ReactiveStateMacrosFree
import Testing

/// S2, S4 (seed 000): the article store of the feature root, as the article writes it.
@MainActor
final class FeatureArticleStore: Observable {
  enum LoadState: Equatable {
    case idle
    case loading
    case loaded
    case failed(message: String)
  }

  private let registrar = ObservationRegistrar()
  private var _query = ""
  private var _selectedID: Article.ID?
  private var _articles: [Article] = []
  private var _loadState = LoadState.idle
  /// Not observed (`@ObservationIgnored` in the article).
  var loadTask: Task<Void, Never>?

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

  var selectedID: Article.ID? {
    get {
      registrar.access(self, keyPath: \.selectedID)
      return _selectedID
    }
    set {
      registrar.withMutation(
        of: self, keyPath: \.selectedID, replacing: _selectedID, with: newValue
      ) { _selectedID = newValue }
    }
  }

  private(set) var articles: [Article] {
    get {
      registrar.access(self, keyPath: \.articles)
      return _articles
    }
    set {
      registrar.withMutation(of: self, keyPath: \.articles, replacing: _articles, with: newValue) {
        _articles = newValue
      }
    }
  }

  private(set) var loadState: LoadState {
    get {
      registrar.access(self, keyPath: \.loadState)
      return _loadState
    }
    set {
      registrar.withMutation(
        of: self, keyPath: \.loadState, replacing: _loadState, with: newValue
      ) { _loadState = newValue }
    }
  }

  func reload(using repository: PendingRequests<[Article]>) {
    loadTask?.cancel()
    loadState = .loading
    loadTask = Task {
      do {
        let result = try await repository.request("articles")
        try Task.checkCancellation()
        articles = result
        loadState = .loaded
      } catch is CancellationError {
        // The new request owns the state: a cancellation is not an error.
      } catch {
        loadState = .failed(message: String(describing: error))
      }
    }
  }

  /// Commits a loaded result (what a completed `reload` does).
  func finishLoading(_ result: [Article]) {
    articles = result
    loadState = .loaded
  }

  /// S4: an intent changing two fields together.
  func select(_ id: Article.ID?) {
    selectedID = id
    if id == nil { loadState = .idle }
  }
}

@MainActor
@Suite("S2 S4 article feature") struct S2ArticleFeatureTests {
  struct ArticleList: View {
    @Environment(FeatureArticleStore.self) private var store

    var body: some View {
      @Bindable var store = store
      VStack {
        Text("state \(String(describing: store.loadState))")
        List(filteredArticles) { article in Text(article.title) }
      }
      .searchable(text: $store.query)
    }

    private var filteredArticles: [Article] {
      store.articles.filter { article in
        store.query.isEmpty || article.title.lowercased().contains(store.query.lowercased())
      }
    }
  }

  struct ArticleFeature: View {
    @State private var store = FeatureArticleStore()
    let repository: PendingRequests<[Article]>
    let onStore: (FeatureArticleStore) -> Void

    var body: some View {
      ArticleList()
        .environment(store)
        .task { store.reload(using: repository) }
        .onAppear { onStore(store) }
    }
  }

  let articles = [Article(id: 1, title: "Swift Observation"), Article(id: 2, title: "Kotlin Flow")]

  @Test("S2 reload cancels the previous task; a cancelled load never shows as failure")
  func reloadCancelsPrevious() async throws {
    let repository = PendingRequests<[Article]>()
    var captured: FeatureArticleStore?
    let host = ViewHost(ArticleFeature(repository: repository) { captured = $0 })
    let store = try #require(captured)
    await repository.waitForRequests(1)
    let first = store.loadTask
    store.reload(using: repository)
    await repository.waitForRequests(2)
    await first?.value
    #expect(repository.cancelled == [0])
    #expect(store.loadState == .loading, "the cancelled load did not report a failure")
    repository.succeed(1, articles)
    await store.loadTask?.value
    host.flush()
    #expect(store.loadState == .loaded)
    #expect(host.texts == ["state loaded", "Swift Observation", "Kotlin Flow"])
  }

  @Test("S2 typing in search re-filters; changing loadTask invalidates nothing")
  func searchRefiltersAndLoadTaskIsIgnored() async throws {
    let repository = PendingRequests<[Article]>()
    var captured: FeatureArticleStore?
    let host = ViewHost(ArticleFeature(repository: repository) { captured = $0 })
    let store = try #require(captured)
    await repository.waitForRequests(1)
    repository.succeed(0, articles)
    await store.loadTask?.value
    host.flush()
    try host.type("swi", into: "Search")
    #expect(host.texts == ["state loaded", "Swift Observation"])
    #expect(store.query == "swi")
    host.resetCounts()
    store.loadTask = Task {}
    host.flush()
    #expect(!host.hasPendingUpdates)
    #expect(host.totalBodyEvaluations == 0)
    // The zero is the host's answer, not a dead host: an observed field still updates the list.
    host.perform { store.query = "kot" }
    #expect(host.bodyCount(ArticleList.self) == 1)
    #expect(host.texts == ["state loaded", "Kotlin Flow"])
  }

  struct Selection: View {
    let store: FeatureArticleStore
    var body: some View {
      Text("selected \(store.selectedID.map(String.init) ?? "none") \(store.loadState)")
    }
  }

  @Test("S4 select(_:) changes two fields consistently in one update pass")
  func selectIsOneConsistentUpdate() {
    let store = FeatureArticleStore()
    store.finishLoading(articles)
    store.select(2)
    let host = ViewHost(Selection(store: store))
    #expect(host.texts == ["selected 2 loaded"])
    let passes = host.passCount
    host.perform { store.select(nil) }
    #expect(store.selectedID == nil && store.loadState == .idle)
    #expect(host.passCount == passes + 1, "one update pass")
    #expect(host.bodyCount(Selection.self) == 2)
    #expect(host.texts == ["selected none idle"])
    // A selection alone (the load state stays idle) updates the view too: both fields are read.
    host.perform { store.select(1) }
    #expect(host.bodyCount(Selection.self) == 3)
    #expect(host.texts == ["selected 1 idle"])
  }
}
