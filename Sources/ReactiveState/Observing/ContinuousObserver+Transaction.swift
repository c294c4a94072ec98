import CReactiveState

/// How the end of a ``withTransaction(_:)`` reaches a continuous observer that waited in it.
extension ContinuousObserver {
  /// What the end of a transaction does with a waiting observer.
  enum PostponedRun {
    /// Runs its queued change.
    case run
    /// Drops it with a diagnostic: observers kept re-queueing each other.
    case abandon
    /// Drops it silently (its transaction is going away).
    case drop
  }

  /// The end of this thread's transaction reached the observer (see ``PostponedRun``). Then
  /// releases the retain a cancellation took for the queue, if any — the last touch.
  ///
  /// The queue holds no retain, and once the lock is released here the observer no longer
  /// waits in it, so a cancellation on another thread takes no retain for it either: after
  /// the unlock, only a path that took its own retain under the lock (a run, a hand-over to
  /// the scheduler) may touch the observer.
  func runPostponed(_ action: PostponedRun) {
    GraphLock.lock()
    isWaitingInTransaction = false
    let owesRelease = transactionHoldsRetain
    transactionHoldsRetain = false
    if action != .run {
      if phase == .queued { phase = .idle }
      ObservationWave.advance()  // no longer waiting: later changes must reach it again
      // Copied under the lock: the observer may be gone right after it.
      let abandoned = action == .abandon ? (name: name, keyPath: pendingKeyPath) : nil
      GraphLock.unlock()
      if let abandoned {
        ObservationDiagnostics.report(
          "\(abandoned.name) kept invalidating each other at the end of a transaction; last "
            + "change: \(Self.describe(abandoned.keyPath)). \(Self.cycleRemedy)")
      }
    } else if phase == .queued {
      // Not cancelled, so the queue owed nothing.
      guard !deliversInline else {
        // Running from here on: a cancellation retains the observer for the run.
        runQueuedChange()
        return
      }
      // A scheduled observer still runs where its scheduler says, now that the transaction
      // is over (never inline on the transaction's thread). Queued, it is still its token's
      // (a cancellation would need this lock): retained now, it outlives a cancellation that
      // lands before the scheduler holds it.
      let handedOver = Unmanaged.passUnretained(self).retain()
      // A main-actor run waiting for its hop is taken over by the main thread's next change
      // of what it read: that change must not skip its walk (see `leavesSourceUnmarked`).
      if runsOnMainActor { ObservationWave.advance() }
      GraphLock.unlock()
      handToScheduler()
      handedOver.release()
      return
    } else {
      GraphLock.unlock()
    }
    if owesRelease { Unmanaged.passUnretained(self).release() }
  }
}
