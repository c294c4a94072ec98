/// Which thread waits for which other thread's cancellation action: the wait-for graph that
/// keeps ``AnyCancellable/cancel()`` from deadlocking when tokens cancel each other.
///
/// A `cancel()` made while another thread runs the token's action waits for it to finish. Two
/// tokens whose actions cancel each other (a pair torn down together, whichever side ends
/// first), cancelled at once on two threads, would then each wait for the other forever. So a
/// thread about to wait follows the chain — the action's thread, the action that thread waits
/// for, its thread… — and, when it leads back to itself, returns without waiting, as a call
/// made from inside the action itself does.
enum CancellationWaits {
  private static let lock = WordLock()
  /// The waiting threads (their thread-state addresses) and the threads running the actions
  /// they wait for. A thread waits for one action at a time.
  nonisolated(unsafe) private static var waits: [(waiter: UInt, runner: UInt)] = []

  /// Registers that `waiter` is about to wait for the action `runner` runs; returns false,
  /// with nothing registered, when that wait would close a cycle of waiting threads.
  static func beginWait(_ waiter: UInt, for runner: UInt) -> Bool {
    lock.lock()
    defer { lock.unlock() }
    var holder = runner
    // A chain without a cycle ends within `waits.count` steps.
    for _ in 0...waits.count {
      if holder == waiter { return false }
      guard let next = waits.first(where: { $0.waiter == holder }) else { break }
      holder = next.runner
    }
    waits.append((waiter, runner))
    return true
  }

  /// The action `waiters` waited for finished: their waits end (before they are woken, so no
  /// chain passes through a thread that no longer waits).
  static func endWaits(of waiters: [UInt]) {
    lock.withLock { waits.removeAll { waiters.contains($0.waiter) } }
  }
}
