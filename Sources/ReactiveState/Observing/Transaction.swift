import CReactiveState

/// Runs `body` as one transaction: continuous observers affected by its mutations run at
/// most once, after the outermost transaction on this thread ends, and see all of its new
/// values (no intermediate states). Transactions nest; only the outermost one delivers.
///
/// Only delivery to continuous observers (``observe(scheduler:_:)``,
/// ``withContinuousObservation(options:scheduler:apply:)``) is deferred. One-shot `withObservationTracking` observers keep their contract and fire
/// inside the first mutation's `willSet`. Mutations made on other threads are not part of
/// this transaction.
@discardableResult
public func withTransaction<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
  let transaction = ObservationTransaction.begin()
  defer { ObservationTransaction.end(transaction) }
  return try body()
}

/// One thread's transaction bookkeeping: the observers to run when the outermost
/// transaction ends. Created on the thread's first transaction and reused (one small object
/// per thread), so a transaction allocates nothing in a steady state.
final class ObservationTransaction {
  private var pending: [ContinuousObserver] = []
  private var draining: [ContinuousObserver] = []

  /// The calling thread's open transaction, if any.
  static var current: ObservationTransaction? {
    let thread = rs_current_thread()
    guard thread.pointee.transaction_depth > 0, let raw = thread.pointee.transaction else {
      return nil
    }
    return Unmanaged<ObservationTransaction>.fromOpaque(raw).takeUnretainedValue()
  }

  /// Whether the calling thread has an open transaction (one load).
  static var isOpenOnCurrentThread: Bool { rs_current_thread().pointee.transaction_depth > 0 }

  static func begin() -> ObservationTransaction {
    let thread = rs_current_thread()
    let transaction: ObservationTransaction
    if let existing = thread.pointee.transaction {
      transaction = Unmanaged<ObservationTransaction>.fromOpaque(existing).takeUnretainedValue()
    } else {
      transaction = ObservationTransaction()
      ThreadCaches.registerExitCleanup(thread)
      thread.pointee.transaction = Unmanaged.passRetained(transaction).toOpaque()
    }
    thread.pointee.transaction_depth += 1
    return transaction
  }

  static func end(_ transaction: ObservationTransaction) {
    let thread = rs_current_thread()
    thread.pointee.transaction_depth -= 1
    guard thread.pointee.transaction_depth == 0 else { return }
    // Runs may open transactions and queue more observers: drain until quiet, with the
    // transaction still counted as open so their deliveries queue up here too.
    thread.pointee.transaction_depth = 1
    defer { thread.pointee.transaction_depth = 0 }
    var rounds = 0
    while !transaction.pending.isEmpty {
      rounds += 1
      swap(&transaction.pending, &transaction.draining)
      defer { transaction.draining.removeAll(keepingCapacity: true) }
      if rounds > ContinuousObserver.rerunLimit {
        // Observers keep re-queueing each other: stop instead of hanging.
        for observer in transaction.draining {
          observer.abandonQueuedRun(
            reason: "kept invalidating each other at the end of a transaction")
        }
        continue
      }
      for index in transaction.draining.indices { transaction.draining[index].runIfQueued() }
    }
  }

  /// Defers `observer`'s run to the end of this transaction.
  func postpone(_ observer: ContinuousObserver) { pending.append(observer) }
}
