import ReactiveStateMacrosFree

/// An article of the seed scenarios (S2, S16).
struct Article: Identifiable, Equatable, Sendable {
  var id: Int
  var title: String
  var isFavorite = false
}

/// A failure a fake service reports.
struct FakeFailure: Error, CustomStringConvertible {
  var description: String { "offline" }
}

/// A deterministic stand-in for a network service: every request suspends until the test
/// completes it by index (in any order), so races are exact; no sleeps.
///
/// With `honorsCancellation` false, a cancelled request still completes when the test says
/// so — the "underlying work cannot be cancelled, its completion arrives late" case.
@MainActor
final class PendingRequests<Output: Sendable> {
  private(set) var queries: [String] = []
  private var continuations: [Int: CheckedContinuation<Output, any Error>] = [:]
  private var arrivalWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
  /// Indices of requests whose task was cancelled.
  private(set) var cancelled: Set<Int> = []
  var honorsCancellation = true

  init() {}

  /// Issues request `query`; returns what the test completes it with.
  func request(_ query: String = "") async throws -> Output {
    let index = queries.count
    queries.append(query)
    let ready = arrivalWaiters.filter { $0.count <= queries.count }
    arrivalWaiters.removeAll { $0.count <= queries.count }
    for waiter in ready { waiter.continuation.resume() }
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuations[index] = $0 }
    } onCancel: {
      Task { @MainActor in self.cancel(index) }
    }
  }

  /// Suspends until at least `count` requests were issued.
  func waitForRequests(_ count: Int) async {
    if queries.count >= count { return }
    await withCheckedContinuation { arrivalWaiters.append((count, $0)) }
  }

  /// Completes request `index` with `value`.
  func succeed(_ index: Int, _ value: Output) {
    continuations.removeValue(forKey: index)?.resume(returning: value)
  }

  /// Fails request `index`.
  func fail(_ index: Int, _ error: any Error = FakeFailure()) {
    continuations.removeValue(forKey: index)?.resume(throwing: error)
  }

  var pendingCount: Int { continuations.count }

  private func cancel(_ index: Int) {
    cancelled.insert(index)
    if honorsCancellation { fail(index, CancellationError()) }
  }
}
