import ReactiveStateMacrosFree
import Testing

/// A `LatestTask` that goes away cancels its running task. It did not: the model owning it
/// went with its view identity (an `.id` change, a removed row), nothing could commit the
/// result any more, yet the request kept running — forever when it only ends on cancellation.
@MainActor
@Suite struct LatestTaskLifetimeTests {
  @Test func releasingTheRunnerCancelsItsRunningTask() async {
    let requests = PendingRequests<Int>()
    var latest: LatestTask<Int>? = LatestTask<Int>()
    var committed = false
    let task = latest?.run({ try await requests.request() }, commit: { _ in committed = true })
    await requests.waitForRequests(1)
    latest = nil
    for _ in 0..<1_000 where requests.cancelled.isEmpty { await Task.yield() }
    #expect(requests.cancelled == [0])
    requests.succeed(0, 1)  // no-op once cancelled; ends the request otherwise
    await task?.value
    #expect(!committed)
  }

  /// Owns a runner; its commit holds it weakly, as a model's should.
  @MainActor final class Loader {
    let loads = LatestTask<Int>()
    let requests: PendingRequests<Int>
    var value = 0

    init(requests: PendingRequests<Int>) { self.requests = requests }

    func reload() {
      loads.run(
        { [requests] in try await requests.request() },
        commit: { [weak self] result in self?.value = (try? result.get()) ?? -1 })
    }
  }

  struct LoaderScreen: View {
    @State private var loader: Loader

    init(requests: PendingRequests<Int>) {
      _loader = State(initialValue: Loader(requests: requests))
    }

    var body: some View { Text("loader").onAppear { loader.reload() } }
  }

  struct Account: View {
    @State private var account = 0
    let requests: PendingRequests<Int>
    var body: some View {
      VStack {
        Button("switch") { account += 1 }
        LoaderScreen(requests: requests).id(account)
      }
    }
  }

  @Test func anIdentityChangeCancelsTheLoadOfTheModelItOwned() async throws {
    let requests = PendingRequests<Int>()
    let host = ViewHost(Account(requests: requests))
    await requests.waitForRequests(1)
    try host.tap("switch")
    await requests.waitForRequests(2)
    for _ in 0..<1_000 where requests.cancelled.isEmpty { await Task.yield() }
    #expect(requests.cancelled == [0], "the ended identity's load was cancelled")
    requests.succeed(0, 1)
    requests.succeed(1, 2)
    host.close()
  }
}
