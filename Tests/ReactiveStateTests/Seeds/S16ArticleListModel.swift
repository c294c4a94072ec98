import ReactiveStateMacrosFree

/// S16 (seed 001 §15): which articles the list shows.
enum ArticleFilter: Equatable, Sendable {
  case all
  case favorites

  func includes(_ article: Article) -> Bool { self == .all || article.isFavorite }
}

/// S16: the article list model — a `LoadPhase` state machine, a filter, a derived
/// `visibleArticles`, and loads driven by `LatestTask` (cancel previous, revision guard,
/// cancellation is not an error, stale results dropped).
@MainActor
final class ArticleListModel: Observable {
  private let registrar = ObservationRegistrar()
  private var _phase = LoadPhase<[Article]>.idle
  private var _filter = ArticleFilter.all
  let repository: PendingRequests<[Article]>
  /// Not observed: starting or cancelling loads invalidates no view.
  let loads = LatestTask<[Article]>()
  /// Commits seen (each asserted to run on the main actor).
  private(set) var commits = 0

  init(repository: PendingRequests<[Article]>) { self.repository = repository }

  private(set) var phase: LoadPhase<[Article]> {
    get {
      registrar.access(self, keyPath: \.phase)
      return _phase
    }
    set {
      registrar.withMutation(of: self, keyPath: \.phase, replacing: _phase, with: newValue) {
        _phase = newValue
      }
    }
  }

  var filter: ArticleFilter {
    get {
      registrar.access(self, keyPath: \.filter)
      return _filter
    }
    set {
      registrar.withMutation(of: self, keyPath: \.filter, replacing: _filter, with: newValue) {
        _filter = newValue
      }
    }
  }

  /// Derived: never stored.
  var visibleArticles: [Article] { (phase.value ?? []).filter(filter.includes) }

  /// Starts a load; returns its task, so a test can wait for a stale one to finish.
  @discardableResult
  func reload() -> Task<Void, Never> {
    phase.begin()
    return loads.run(
      { [repository] in try await repository.request("articles") },
      commit: { [weak self] result in
        MainActor.preconditionIsolated()
        self?.commits += 1
        self?.phase.finish(result)
      })
  }

  func cancel() {
    loads.cancel()
    phase.cancel()
  }
}
