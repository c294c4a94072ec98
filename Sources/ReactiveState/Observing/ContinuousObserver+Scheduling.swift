import CReactiveState

/// How a scheduled continuous observer's queued change reaches its scheduler, and how a chain
/// of scheduled runs that keep causing each other is stopped.
extension ContinuousObserver {
  /// Whether a change committed on this thread runs the observer here (at the end of the
  /// mutation, or of this thread's transaction) rather than through its scheduler: always
  /// without a scheduler; for a main-actor body, on the main thread — where the runtime
  /// itself counts code as isolated to the main actor.
  var deliversInline: Bool {
    !hasScheduler || (runsOnMainActor && rs_is_main_thread() != 0)
  }

  /// Gives a queued change to the scheduler: parks the observer in its parking lot, or
  /// schedules a closure that runs it (``runIfQueued()``) — unless the change ends a chain of
  /// more than ``rerunLimit`` scheduled runs, each caused by the one before.
  ///
  /// A scheduled job holds the observer weakly: its token owns it, and a cancelled observer's
  /// body and captures are released at once, not when a scheduler that may never run (or runs
  /// much later) drops the job.
  func handToScheduler() {
    if runsOnMainActor, let scheduler {
      // The main thread may take the run over meanwhile (and reset its depth): the hop job
      // decides under the graph lock (see ``runHop()``).
      scheduler.schedule { [weak self] in self?.runHop() }
    } else if pendingDepth > UInt64(Self.rerunLimit) {
      dropSchedulingLoop()
    } else if let parking {
      parking._withUnsafeGuaranteedRef { $0.park(self) }
    } else if let scheduler {
      scheduler.schedule { [weak self] in self?.runIfQueued() }
    }
  }

  /// Drops a queued change that ends a chain of scheduled runs longer than ``rerunLimit``
  /// (observers changing each other through their schedulers), with a diagnostic. The
  /// observer keeps its dependencies: a later change from outside the chain runs it again.
  func dropSchedulingLoop() {
    let keyPath = dropQueuedRun()
    ObservationDiagnostics.report(
      "\(name) was stopped after \(Self.rerunLimit) scheduled runs in a row, each caused by "
        + "a change the previous one made (observers keep changing each other through their "
        + "schedulers, or a chain of more than \(Self.rerunLimit) scheduled observers each "
        + "feeding the next: run such a pipeline without schedulers, in a transaction); last "
        + "change: \(Self.describe(keyPath)). \(Self.cycleRemedy)")
  }

  /// Drops the queued change, if any, without running it: the observer keeps its
  /// dependencies, and the next change queues it again (its owner gave up on this one).
  /// Returns the dropped change's key path, if known.
  @discardableResult
  func dropQueuedRun() -> AnyKeyPath? {
    GraphLock.lock()
    defer { GraphLock.unlock() }
    let keyPath = pendingKeyPath
    if phase == .queued {
      phase = .idle
      pendingKeyPath = nil
      pendingDepth = 0
      ObservationWave.advance()  // no longer waiting: later changes must reach it again
    }
    return keyPath
  }

  /// The remedy the diagnostics of observers that keep changing each other give.
  static let cycleRemedy =
    "To fix: break the cycle — an observer must not write what another one reads while that "
    + "one writes what it reads (move a write out, or read with withoutObservationTracking { … })"

}
