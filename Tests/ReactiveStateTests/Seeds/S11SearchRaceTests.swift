import ReactiveStateMacrosFree
import Testing

/// S11 (seed 001 §13.1): a search model that cancels the previous task and guards completion
/// with a revision, written as the article writes it (the guard by hand).
@MainActor
final class RaceSearchModel: Observable {
  enum Phase: Equatable {
    case idle
    case loading
    case loaded([String])
    case failed(String)
  }

  private let registrar = ObservationRegistrar()
  private var _query = ""
  private var _phase = Phase.idle
  let service: PendingRequests<[String]>
  /// Not observed (`@ObservationIgnored` in the article): plain stored properties.
  private(set) var searchTask: Task<Void, Never>?
  private var revision = 0

  init(service: PendingRequests<[String]>) { self.service = service }

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

  private(set) var phase: Phase {
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

  func search() {
    revision += 1
    let requestRevision = revision
    let requestQuery = query
    searchTask?.cancel()
    phase = .loading
    searchTask = Task { [weak self, service] in
      do {
        let results = try await service.request(requestQuery)
        try Task.checkCancellation()
        guard let self, self.revision == requestRevision, self.query == requestQuery else {
          return
        }
        self.phase = .loaded(results)
      } catch is CancellationError {
        return
      } catch {
        guard let self, self.revision == requestRevision else { return }
        self.phase = .failed(String(describing: error))
      }
    }
  }

  func cancel() {
    revision += 1
    searchTask?.cancel()
    searchTask = nil
  }
}

@MainActor
@Suite("S11 search race") struct S11SearchRaceTests {
  @Test("S11 a slow first request finishing after the second never overwrites it")
  func slowFirstRequestIsDiscarded() async {
    let service = PendingRequests<[String]>()
    service.honorsCancellation = false  // the first request's work cannot be cancelled
    let model = RaceSearchModel(service: service)
    model.query = "sw"
    model.search()
    let first = model.searchTask
    await service.waitForRequests(1)
    model.query = "swift"
    model.search()
    let second = model.searchTask
    await service.waitForRequests(2)
    let phaseChanges = Box(0)
    withObservationTracking({ _ = model.phase }, onChange: { phaseChanges.value += 1 })
    service.succeed(1, ["Swift 6"])
    await second?.value
    #expect(model.phase == .loaded(["Swift 6"]))
    #expect(phaseChanges.value == 1, "a reader of phase heard the result")
    withObservationTracking({ _ = model.phase }, onChange: { phaseChanges.value += 1 })
    service.succeed(0, ["Swing"])  // late
    await first?.value
    #expect(model.phase == .loaded(["Swift 6"]), "the stale result was dropped")
    #expect(phaseChanges.value == 1, "the stale result did not even invalidate phase's readers")
    #expect(service.cancelled == [0])
  }

  @Test("S11 cancel shows no error")
  func cancelShowsNoError() async {
    let service = PendingRequests<[String]>()
    let model = RaceSearchModel(service: service)
    model.query = "swift"
    model.search()
    let task = model.searchTask
    await service.waitForRequests(1)
    let phaseChanges = Box(0)
    withObservationTracking({ _ = model.phase }, onChange: { phaseChanges.value += 1 })
    model.cancel()
    await task?.value
    #expect(model.phase == .loading, "no failure is shown for a cancellation")
    #expect(phaseChanges.value == 0, "the cancelled request did not write phase")
  }

  @Test("S11 a real failure of the latest request is shown")
  func failureOfLatestIsShown() async {
    let service = PendingRequests<[String]>()
    let model = RaceSearchModel(service: service)
    let queryChanges = Box(0)
    withObservationTracking({ _ = model.query }, onChange: { queryChanges.value += 1 })
    model.search()
    let task = model.searchTask
    await service.waitForRequests(1)
    service.fail(0)
    await task?.value
    #expect(model.phase == .failed("offline"))
    #expect(queryChanges.value == 0, "a reader of query alone ignores the search's phases")
  }
}
