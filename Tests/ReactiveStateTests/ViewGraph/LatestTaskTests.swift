import ReactiveStateMacrosFree
import Testing

/// `LatestTask` and `LoadPhase` on their own.
@MainActor
@Suite struct LatestTaskTests {
  @Test func onlyTheLatestRunCommitsAndCancellationIsNotAnError() async {
    let requests = PendingRequests<Int>()
    requests.honorsCancellation = false
    let latest = LatestTask<Int>()
    var committed: [String] = []
    let record: @MainActor (Result<Int, any Error>) -> Void = {
      committed.append("\((try? $0.get()).map(String.init) ?? "error")")
    }
    let first = latest.run({ try await requests.request("a") }, commit: record)
    await requests.waitForRequests(1)
    latest.run({ try await requests.request("b") }, commit: record)
    #expect(latest.revision == 2)
    await requests.waitForRequests(2)
    requests.succeed(1, 2)
    await latest.wait()
    requests.succeed(0, 1)
    await first.value
    #expect(committed == ["2"], "the stale first result was dropped")
    #expect(!latest.isRunning)

    latest.run({ try await requests.request("c") }, commit: record)
    await requests.waitForRequests(3)
    latest.cancel()
    requests.fail(2, CancellationError())
    for _ in 0..<5 { await Task.yield() }
    #expect(committed == ["2"], "a cancelled run commits nothing")
  }

  @Test func failuresOfTheLatestRunAreCommitted() async {
    let requests = PendingRequests<Int>()
    let latest = LatestTask<Int>()
    var failure: String?
    latest.run(
      { try await requests.request() },
      commit: { if case .failure(let error) = $0 { failure = "\(error)" } })
    await requests.waitForRequests(1)
    requests.fail(0)
    await latest.wait()
    #expect(failure == "offline")
  }

  /// A run nobody cancelled that ends in `CancellationError` (its operation awaited work that
  /// someone else cancelled) commits it, so a model following the `LoadPhase` pattern leaves
  /// `.loading` (back to what it showed, not `.failed`). Dropping it left the phase loading
  /// with nothing running.
  @Test func aCancellationErrorFromAnUncancelledRunEndsTheLoad() async {
    var phase = LoadPhase<Int>.loaded(1)
    let latest = LatestTask<Int>()
    phase.begin()
    latest.run({ throw CancellationError() }, commit: { phase.finish($0) })
    await latest.wait()
    #expect(!latest.isRunning)
    #expect(phase == .loaded(1))
  }

  @Test func loadPhaseTransitions() {
    var phase = LoadPhase<[Int]>.idle
    phase.begin()
    #expect(phase == .loading(previous: nil) && phase.isLoading)
    phase.cancel()
    #expect(phase == .idle)
    phase.begin()
    phase.finish(.success([1]))
    #expect(phase == .loaded([1]))
    phase.begin()
    #expect(phase.value == [1], "a refresh keeps showing the previous value")
    phase.finish(.failure(FakeFailure()))
    #expect(phase == .failed(message: "offline", previous: [1]))
    #expect(phase.errorMessage == "offline" && phase.value == [1])
    phase.begin()
    phase.cancel()
    #expect(phase == .loaded([1]), "cancelling a refresh returns to what was shown")
  }
}
