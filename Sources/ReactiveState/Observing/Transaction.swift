import CReactiveState

/// Runs `body` as one transaction: continuous observers affected by its mutations run at
/// most once, after the outermost transaction on this thread ends, and see all of its new
/// values (no intermediate states). Transactions nest; only the outermost one delivers.
///
/// Only delivery to continuous observers (``observe(_:)``, ``withContinuousObservation(options:scheduler:apply:)``)
/// is deferred. One-shot `withObservationTracking` observers keep their contract and fire
/// inside the first mutation's `willSet`. Mutations made on other threads are not part of
/// this transaction.
@discardableResult
public func withTransaction<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
  let transaction = ObservationTransaction.begin()
  defer { ObservationTransaction.end(transaction) }
  return try body()
}

/// The open transaction of one thread: a nesting depth and the observers to run at the end.
final class ObservationTransaction {
  private var depth = 0
  private var pending: [ContinuousObserver] = []

  /// The calling thread's open transaction, if any.
  static var current: ObservationTransaction? {
    rs_current_thread().pointee.transaction.map {
      Unmanaged<ObservationTransaction>.fromOpaque($0).takeUnretainedValue()
    }
  }

  /// Whether the calling thread has an open transaction (no reference counting).
  static var isOpenOnCurrentThread: Bool { rs_current_thread().pointee.transaction != nil }

  static func begin() -> ObservationTransaction {
    let thread = rs_current_thread()
    let transaction: ObservationTransaction
    if let existing = thread.pointee.transaction {
      transaction = Unmanaged<ObservationTransaction>.fromOpaque(existing).takeUnretainedValue()
    } else {
      transaction = ObservationTransaction()
      thread.pointee.transaction = Unmanaged.passRetained(transaction).toOpaque()
    }
    transaction.depth += 1
    return transaction
  }

  static func end(_ transaction: ObservationTransaction) {
    transaction.depth -= 1
    guard transaction.depth == 0 else { return }
    // Runs may open transactions and queue more observers: drain until quiet.
    transaction.depth = 1
    var rounds = 0
    while !transaction.pending.isEmpty {
      rounds += 1
      let batch = transaction.pending
      transaction.pending = []
      if rounds > ContinuousObserver.rerunLimit {
        // Observers keep re-queueing each other: stop instead of hanging.
        for observer in batch {
          observer.abandonQueuedRun(
            reason: "kept invalidating each other at the end of a transaction")
        }
        continue
      }
      for observer in batch { observer.runIfQueued() }
    }
    transaction.depth = 0
    let thread = rs_current_thread()
    if let raw = thread.pointee.transaction {
      thread.pointee.transaction = nil
      Unmanaged<ObservationTransaction>.fromOpaque(raw).release()
    }
  }

  /// Defers `observer`'s run to the end of this transaction.
  func postpone(_ observer: ContinuousObserver) { pending.append(observer) }
}
