import CReactiveState

/// A main-actor observer (`observe { @MainActor in … }`) whose run waits for its hop to the
/// main actor — another thread's change queued it — when the main thread changes something
/// it read: the contract runs the body on the main thread right after that change (or at the
/// end of the main thread's transaction), so the main thread takes the queued run over
/// instead of letting its change wait for the hop.
///
/// The hop job already scheduled then has nothing of its own to run. It must not run a later
/// queued run either: one waiting in another thread's open transaction (whose end owns it),
/// or one another thread queued and is about to hand to the scheduler itself. So every
/// takeover counts an abandoned hop, and each hop job first consumes one of those, if any,
/// doing nothing (the jobs are interchangeable: some remaining job runs a real queued run).
extension ContinuousObserver {
  /// Under the graph lock, on the main thread, with a queued run not waiting in a
  /// transaction (so its hop is scheduled, or about to be): takes it over. Inside this
  /// thread's transaction it waits for the transaction's end; otherwise it starts now, as a
  /// run `receive` starts (returns true: the caller delivers it on this thread).
  func takeOverHop(kind: ObservationTracking.Event.Kind) -> Bool {
    abandonedHops += 1
    pendingDepth = 0  // a main-thread change, not the end of a chain of scheduled runs
    if let transaction = ObservationTransaction.current {
      isWaitingInTransaction = true
      transaction._withUnsafeGuaranteedRef { $0.postpone(self) }
      return false
    }
    phase = .running
    ObservationWave.advance()
    // `handsPendingRetainToQueue` stays as it is: no queue reads it for a main-actor observer
    // (another thread's queue may still hold this one), and each queue keeps its own retain.
    startedByReceive = true
    startPass = ChangePropagation.currentPass
    startKind = kind
    startIsCertain = pendingIsCertain || kind == .willSet
    startKeyPath = pendingKeyPath
    pendingKeyPath = nil
    return true
  }

  /// The job a main-actor hop runs: the queued run, unless the job was abandoned by a
  /// takeover (see the extension's doc), or the run ends a chain of more than ``rerunLimit``
  /// scheduled runs (then it is dropped, as ``handToScheduler()`` drops other observers').
  func runHop() {
    GraphLock.lock()
    if abandonedHops > 0 {
      abandonedHops -= 1
      GraphLock.unlock()
      return
    }
    guard phase == .queued else {
      GraphLock.unlock()
      return
    }
    guard pendingDepth <= UInt64(Self.rerunLimit) else {
      GraphLock.unlock()
      dropSchedulingLoop()
      return
    }
    runQueuedChange()
  }
}
