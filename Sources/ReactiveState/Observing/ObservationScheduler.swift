/// Where a continuous observer re-runs after a change.
///
/// The default (no scheduler) re-runs synchronously on the thread that committed the change,
/// right after the mutation (or at the end of the outermost ``withTransaction(_:)``).
/// A scheduler receives one `schedule` call per pending re-run; an observer that is already
/// scheduled is not scheduled again (changes coalesce into that run).
public protocol ObservationScheduler: Sendable {
  /// Arranges for `work` to run once, later.
  func schedule(_ work: @escaping @Sendable () -> Void)
}

/// Runs observers on the main actor (one `Task` per coalesced re-run).
public struct MainActorScheduler: ObservationScheduler {
  /// Creates the scheduler.
  public init() {}

  /// Enqueues `work` on the main actor.
  public func schedule(_ work: @escaping @Sendable () -> Void) {
    Task { @MainActor in work() }
  }
}

extension ObservationScheduler where Self == MainActorScheduler {
  /// Re-run on the main actor.
  public static var mainActor: MainActorScheduler { MainActorScheduler() }
}

/// A scheduler that only runs work when told to: deterministic tests.
public final class ManualScheduler: ObservationScheduler, @unchecked Sendable {
  private let lock = WordLock()
  private var pending: [@Sendable () -> Void] = []

  /// Creates an empty scheduler.
  public init() {}

  /// Queues `work` until ``flush()``.
  public func schedule(_ work: @escaping @Sendable () -> Void) {
    lock.withLock { pending.append(work) }
  }

  /// Number of queued runs.
  public var pendingCount: Int { lock.withLock { pending.count } }

  /// Runs everything queued, including work queued while flushing; returns how many ran.
  @discardableResult
  public func flush() -> Int {
    var ran = 0
    while true {
      let batch = lock.withLock {
        let batch = pending
        pending = []
        return batch
      }
      if batch.isEmpty { return ran }
      for work in batch { work() }
      ran += batch.count
    }
  }
}
