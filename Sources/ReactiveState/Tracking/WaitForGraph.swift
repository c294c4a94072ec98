/// Which thread is about to block waiting for what, and which thread holds that now: the
/// wait-for graph that tells a deadlock — a cycle of threads, each waiting for the next —
/// from plain contention, before the last thread of the cycle blocks.
///
/// A thread about to wait follows the chain (the holder of what it waits for, what that
/// thread waits for, its holder…); when the chain leads back to itself, the wait would close
/// a cycle and is not registered. The last thread of a cycle to arrive always sees it: every
/// other one registered its wait under this graph's lock after it became the holder of what
/// it holds. Only contended paths come here. ``AnyCancellable`` and ``DerivedNode`` share one
/// graph (``shared``): a cycle may pass through both kinds of wait (a cancel action reading a
/// value whose derivation cancels that token).
final class WaitForGraph<Target>: @unchecked Sendable {
  private let lock = WordLock()
  /// The waiting threads (their thread-state addresses) and what they wait for. A thread
  /// waits for one target at a time.
  private var waits: [(waiter: UInt, target: Target)] = []
  /// The thread holding `target` now, or 0 (read under the graph's lock).
  private let holder: (Target) -> UInt

  /// A graph whose targets are held by the threads `holder` names.
  init(holder: @escaping (Target) -> UInt) { self.holder = holder }

  /// Registers that `waiter` is about to wait for `target`; returns false, with nothing
  /// registered, when that wait would close a cycle of waiting threads.
  func beginWait(_ waiter: UInt, for target: Target) -> Bool {
    lock.lock()
    defer { lock.unlock() }
    var thread = holder(target)
    // A chain without a cycle ends within `waits.count` steps.
    for _ in 0...waits.count {
      if thread == 0 { break }
      if thread == waiter { return false }
      guard let next = waits.first(where: { $0.waiter == thread }) else { break }
      thread = holder(next.target)
    }
    waits.append((waiter, target))
    return true
  }

  /// The waits of `waiters` end (each holds what it waited for, gave up, or is about to be
  /// woken: no chain may pass through a thread that no longer waits).
  func endWaits(of waiters: [UInt]) {
    lock.withLock { waits.removeAll { waiters.contains($0.waiter) } }
  }
}

/// What a thread of the shared wait-for graph waits for.
enum WaitTarget {
  /// A derived value's compute lock, held by the thread refreshing the value (alive while its
  /// reader waits).
  case derivedValue(Unmanaged<DerivedNode>)
  /// The end of an ``AnyCancellable``'s action, held by the thread running it.
  case cancellation(runner: UInt)
}

extension WaitForGraph where Target == WaitTarget {
  /// The graph every blocking wait of the library registers in.
  static let shared = WaitForGraph<WaitTarget> { target in
    switch target {
    case .derivedValue(let node):
      node._withUnsafeGuaranteedRef { $0.refreshingThread.load(ordering: .relaxed) }
    case .cancellation(let runner): runner
    }
  }
}
