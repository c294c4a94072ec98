import CReactiveState
import Synchronization

/// Runs `body` as one transaction: continuous observers affected by its mutations run at
/// most once, after the outermost transaction on this thread ends, and see all of its new
/// values (no intermediate states). Transactions nest; only the outermost one delivers.
/// A transaction that ends by throwing still delivers: its mutations were made.
///
/// An observer without a scheduler runs on this thread as the transaction ends. One with a
/// scheduler (`.mainActor`, a ``ManualScheduler``, an ``ObservedValues`` iteration) is handed
/// to its scheduler then, and runs wherever and whenever that scheduler runs it.
///
/// Only delivery to continuous observers (``observe(scheduler:fileID:line:_:)``,
/// ``withContinuousObservation(options:scheduler:fileID:line:apply:)``) is deferred. One-shot
/// `withObservationTracking` observers keep their contract and fire inside the first
/// mutation's `willSet`. Mutations made on other threads are not part of this transaction,
/// but an observer already waiting in its queue takes them in: it runs once, when this
/// transaction ends, and sees them then (so do not make a transaction wait for another
/// thread to observe its own change to something such an observer reads).
@discardableResult
public func withTransaction<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
  let transaction = ObservationTransaction.begin()
  defer { ObservationTransaction.end(transaction) }
  return try body()
}

/// One thread's transaction bookkeeping: the observers to run when the outermost
/// transaction ends, in a FIFO chained through the observers themselves (not retained: see
/// ``postpone(_:)``). Created on the thread's first transaction and reused (one small object
/// per thread), so a transaction allocates nothing.
final class ObservationTransaction {
  /// Numbers the drains of all threads (see ``ContinuousObserver/drainStamp``).
  private static let drains = Atomic<UInt64>(0)
  @exclusivity(unchecked) private var head: Unmanaged<ContinuousObserver>?
  @exclusivity(unchecked) private var tail: Unmanaged<ContinuousObserver>?

  /// The calling thread's open transaction, if any (unretained: the thread keeps it alive).
  static var current: Unmanaged<ObservationTransaction>? {
    let thread = rs_current_thread()
    guard thread.pointee.transaction_depth > 0, let raw = thread.pointee.transaction else {
      return nil
    }
    return Unmanaged<ObservationTransaction>.fromOpaque(raw)
  }

  /// Whether the calling thread has an open transaction (one load).
  static var isOpenOnCurrentThread: Bool { rs_current_thread().pointee.transaction_depth > 0 }

  static func begin() -> Unmanaged<ObservationTransaction> {
    let thread = rs_current_thread()
    let transaction: Unmanaged<ObservationTransaction>
    if let existing = thread.pointee.transaction {
      transaction = Unmanaged<ObservationTransaction>.fromOpaque(existing)
    } else {
      transaction = Unmanaged.passRetained(ObservationTransaction())
      ThreadCaches.registerExitCleanup(thread)
      thread.pointee.transaction = transaction.toOpaque()
    }
    thread.pointee.transaction_depth += 1
    return transaction
  }

  static func end(_ transaction: Unmanaged<ObservationTransaction>) {
    let thread = rs_current_thread()
    thread.pointee.transaction_depth -= 1
    guard thread.pointee.transaction_depth == 0 else { return }
    // Runs may open transactions and queue more observers: drain until quiet, with the
    // transaction still counted as open so their deliveries queue up here too.
    thread.pointee.transaction_depth = 1
    defer { thread.pointee.transaction_depth = 0 }
    transaction._withUnsafeGuaranteedRef { $0.drain() }
  }

  /// Runs the queued observers, round by round (a round is what was queued when it began).
  private func drain() {
    let drain = Self.drains.wrappingAdd(1, ordering: .relaxed).newValue
    // Rounds in a row in which no observer ran for the first time in this drain: a cascade
    // that still reaches new observers is making progress (however long, and however often
    // an observer reading many of its links re-runs); observers that keep re-queueing each
    // other reach no new one, and are stopped after the limit instead of hanging.
    var roundsWithoutNewcomer = 0
    while var cursor = head {
      head = nil
      tail = nil
      roundsWithoutNewcomer += 1
      let abandon = roundsWithoutNewcomer > ContinuousObserver.rerunLimit
      while true {
        let next = Self.detach(cursor)
        // Nothing touches `cursor` after its run: it may be gone. A newcomer runs even in the
        // round that gives up: it is not one of the observers that keep re-queueing.
        cursor._withUnsafeGuaranteedRef { observer in
          let isNewcomer = observer.drainStamp != drain
          if isNewcomer {
            observer.drainStamp = drain
            roundsWithoutNewcomer = 0
          }
          observer.runPostponed(abandon && !isNewcomer ? .abandon : .run)
        }
        guard let next else { break }
        cursor = next
      }
    }
  }

  /// Defers `observer`'s run to the end of this transaction (caller holds the graph lock).
  /// The queue holds no retain: the observer stays alive while it waits because its owner
  /// cancels before letting go, and a cancellation of a waiting observer retains it for the
  /// queue (see ``ContinuousObserver/runPostponed(_:)``). An observer already
  /// waiting here (queued again after a forced run, say) keeps its place: its queued run
  /// happens when the drain reaches it.
  func postpone(_ observer: ContinuousObserver) {
    guard !observer.isPostponed else { return }
    observer.isPostponed = true
    let entry = Unmanaged.passUnretained(observer)
    observer.nextPostponed = nil
    if let tail { tail._withUnsafeGuaranteedRef { $0.nextPostponed = entry } } else { head = entry }
    tail = entry
  }

  /// Takes `entry` off its chain (it is no longer postponed, so it may be queued again while
  /// it runs) and returns the entry after it.
  private static func detach(_ entry: Unmanaged<ContinuousObserver>)
    -> Unmanaged<ContinuousObserver>?
  {
    entry._withUnsafeGuaranteedRef { observer in
      defer {
        observer.nextPostponed = nil
        observer.isPostponed = false
      }
      return observer.nextPostponed
    }
  }

  deinit {
    while let entry = head {
      head = Self.detach(entry)
      entry._withUnsafeGuaranteedRef { $0.runPostponed(.drop) }
    }
  }
}
