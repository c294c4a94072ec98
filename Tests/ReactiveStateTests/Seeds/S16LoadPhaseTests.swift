import ReactiveStateMacrosFree
import Testing

@MainActor
@Suite("S16 LoadPhase and the article list matrix") struct S16LoadPhaseTests {
  let swift = Article(id: 1, title: "Swift", isFavorite: true)
  let kotlin = Article(id: 2, title: "Kotlin")

  /// Reloads and completes the request with `result`.
  func load(
    _ model: ArticleListModel, _ result: Result<[Article], any Error>
  ) async {
    let index = model.repository.queries.count
    model.reload()
    await model.repository.waitForRequests(index + 1)
    switch result {
    case .success(let value): model.repository.succeed(index, value)
    case .failure(let error): model.repository.fail(index, error)
    }
    await model.loads.wait()
  }

  @Test("S16 (1) first load: success, empty, failure")
  func firstLoad() async {
    let success = ArticleListModel(repository: PendingRequests())
    success.reload()
    #expect(success.phase == .loading(previous: nil))
    await success.repository.waitForRequests(1)
    success.repository.succeed(0, [swift])
    await success.loads.wait()
    #expect(success.phase == .loaded([swift]))

    let empty = ArticleListModel(repository: PendingRequests())
    await load(empty, .success([]))
    #expect(empty.phase == .loaded([]), "empty is a success, not an error")
    #expect(empty.visibleArticles.isEmpty)

    let failure = ArticleListModel(repository: PendingRequests())
    await load(failure, .failure(FakeFailure()))
    #expect(failure.phase == .failed(message: "offline", previous: nil))
  }

  @Test("S16 (2) refresh keeps the previous content")
  func refreshKeepsPrevious() async {
    let model = ArticleListModel(repository: PendingRequests())
    await load(model, .success([swift]))
    model.reload()
    #expect(model.phase == .loading(previous: [swift]))
    #expect(model.visibleArticles == [swift])
    await model.repository.waitForRequests(2)
    model.repository.fail(1)
    await model.loads.wait()
    #expect(model.phase == .failed(message: "offline", previous: [swift]))
    #expect(model.visibleArticles == [swift])
  }

  @Test("S16 (3) a late first reload does not overwrite the second")
  func lateFirstReloadDiscarded() async {
    let model = ArticleListModel(repository: PendingRequests())
    model.repository.honorsCancellation = false
    let first = model.reload()
    await model.repository.waitForRequests(1)
    model.reload()
    await model.repository.waitForRequests(2)
    model.repository.succeed(1, [kotlin])
    await model.loads.wait()
    #expect(model.phase == .loaded([kotlin]))
    model.repository.succeed(0, [swift])
    await first.value  // the late first load has finished: whatever it did is done
    #expect(model.phase == .loaded([kotlin]))
    #expect(model.commits == 1, "the stale result was never committed")
  }

  @Test("S16 (4) cancel shows no error")
  func cancelShowsNoError() async {
    let model = ArticleListModel(repository: PendingRequests())
    await load(model, .success([swift]))
    let refresh = model.reload()
    await model.repository.waitForRequests(2)
    model.cancel()
    await refresh.value  // the cancelled request ended (with a CancellationError)
    #expect(model.repository.cancelled == [1])
    #expect(model.phase == .loaded([swift]), "back to what was shown, no error")
    #expect(model.phase.errorMessage == nil)
  }

  struct ListScreen: View {
    let model: ArticleListModel
    var body: some View {
      VStack {
        Text(model.phase.isLoading ? "loading" : "ready")
        ForEach(model.visibleArticles) { Text($0.title) }
      }
    }
  }

  @Test("S16 (5) a filter change refilters without a request")
  func filterChangeRefilters() async {
    let model = ArticleListModel(repository: PendingRequests())
    await load(model, .success([swift, kotlin]))
    let host = ViewHost(ListScreen(model: model))
    #expect(host.texts == ["ready", "Swift", "Kotlin"])
    model.filter = .favorites
    host.flush()
    #expect(host.texts == ["ready", "Swift"])
    #expect(model.repository.queries.count == 1)
  }

  @MainActor final class Owners {
    var models: [ArticleListModel] = []
  }

  struct OwningScreen: View {
    @State private var model: ArticleListModel
    let owners: Owners

    init(repository: PendingRequests<[Article]>, owners: Owners) {
      _model = State(initialValue: ArticleListModel(repository: repository))
      self.owners = owners
    }

    var body: some View {
      ListScreen(model: model)
        .task { model.reload() }
        .onAppear { owners.models.append(model) }
    }
  }

  struct AccountRoot: View {
    @State private var account = "a"
    @State private var tick = 0
    let repository: PendingRequests<[Article]>
    let owners: Owners
    var body: some View {
      VStack {
        Button("switch account") { account = account == "a" ? "b" : "a" }
        Button("tick \(tick)") { tick += 1 }
        OwningScreen(repository: repository, owners: owners).id(account)
      }
    }
  }

  @Test("S16 (6, 7) state kept while the identity is the same; new owner on id change")
  func ownerFollowsIdentity() async throws {
    let repository = PendingRequests<[Article]>()
    let owners = Owners()
    let host = ViewHost(AccountRoot(repository: repository, owners: owners))
    await repository.waitForRequests(1)
    repository.succeed(0, [swift])
    await owners.models[0].loads.wait()
    host.flush()
    #expect(host.texts.contains("Swift"))
    try host.tap("tick 0")
    try host.tap("tick 1")
    #expect(owners.models.count == 1, "parent re-evaluation keeps the owner")
    #expect(host.texts.contains("Swift"), "and its loaded state")
    #expect(repository.queries.count == 1)
    try host.tap("switch account")
    // Checked before waiting for its request: without a new owner none would come (a hang).
    try #require(owners.models.count == 2, "the new identity appeared")
    #expect(owners.models[0] !== owners.models[1], "a new owner for the new id")
    await repository.waitForRequests(2)
    #expect(owners.models[1].phase == .loading(previous: nil))
    repository.succeed(1, [kotlin])
    await owners.models[1].loads.wait()
    host.flush()
    #expect(host.texts.contains("Kotlin") && !host.texts.contains("Swift"))
  }

  struct NeedsModel: View {
    @Environment(ArticleListModel.self) private var model
    var body: some View { Text("\(model.visibleArticles.count)") }
  }

  @Test("S16 (8) a missing environment dependency is caught")
  func missingEnvironmentCaught() {
    let host = ViewHost(NeedsModel())
    #expect(host.issues.map(\.kind) == [.missingEnvironmentObject])
    #expect(host.issues.first?.message.contains("ArticleListModel") == true)
    #expect(host.bodyCount(NeedsModel.self) == 0)
  }

  @Test("S16 (9) commits happen on the main actor")
  func mainActorCommits() async {
    let model = ArticleListModel(repository: PendingRequests())
    // `commit` calls `MainActor.preconditionIsolated()`; the model is `@MainActor` (Swift 6
    // checks the repository boundary at compile time).
    await load(model, .success([swift]))
    #expect(model.commits == 1)
  }

  @Test("S16 (10) no retain cycle between model, task and repository")
  func noRetainCycle() async {
    weak var weakModel: ArticleListModel?
    weak var weakRepository: PendingRequests<[Article]>?
    do {
      let repository = PendingRequests<[Article]>()
      let owners = Owners()
      var host: ViewHost? = ViewHost(OwningScreen(repository: repository, owners: owners))
      weakRepository = repository
      weakModel = owners.models.first
      #expect(weakModel != nil)
      await repository.waitForRequests(1)
      repository.succeed(0, [swift])
      await owners.models.first?.loads.wait()
      host?.close()
      await host?.settle()
      host = nil
    }
    #expect(weakModel == nil)
    #expect(weakRepository == nil)
  }
}
