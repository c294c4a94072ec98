import CReactiveState
import Synchronization

/// How changes and cancellations reach a ``ContinuousObserver``: state transitions made under
/// the graph lock (the delivery that follows is the class's `deliver`).
extension ContinuousObserver {
  /// Under the graph lock: records the change and says whether to deliver. `duringWalk`: a
  /// walk announcing a write reached the observer (``ChangePropagation/walkRoot`` is that
  /// property).
  func enqueue(
    kind: ObservationTracking.Event.Kind, link: LinkPointer?, duringWalk: Bool = false
  ) -> Bool {
    func keyPath() -> AnyKeyPath? {
      link?.pointee.sourceNode._withUnsafeGuaranteedRef { source in
        // Through derived values, the change is the written property's, as for a computed
        // property (whose getter read it).
        guard source.isDerived else { return source.changeKeyPath }
        guard duringWalk else { return nil }
        return ChangePropagation.walkRoot?._withUnsafeGuaranteedRef { $0.changeKeyPath }
      }
    }
    // A change through a derived value may recompute to an equal value (the cut-off, checked
    // by the run).
    let certain =
      link.map { !$0.pointee.sourceNode._withUnsafeGuaranteedRef { $0.isDerived } } ?? true
    switch phase {
    case .cancelled, .parked:  // a parked observer has no links
      return false
    case .running:
      if duringWalk && startPass == ChangePropagation.currentPass {
        // This walk started the run, which begins after the walk: it covers the change. A
        // second link to the same source (see `SourceNode.lastReaderStamp`) reached it.
        startIsCertain = startIsCertain || certain
        return false
      }
      if bodyThread.load(ordering: .relaxed) == UInt(bitPattern: rs_current_thread()) {
        dirtiedByOwnThread = true
        if kind == .deinit { deallocatedWhatItRead = true }
      }
      pendingKind = kind
      pendingKeyPath = keyPath()
      pendingIsCertain = dirtyWhileRunning ? pendingIsCertain || certain : certain
      // The running thread may end its run (→ idle) at the same moment: then start anew.
      let (marked, now) = state.compareExchange(
        expected: Phase.running.rawValue, desired: Phase.running.rawValue | Self.dirtyBit,
        ordering: .acquiringAndReleasing)
      if marked || now & Self.dirtyBit != 0 { return false }
      return enqueue(kind: kind, link: link, duringWalk: duringWalk)
    case .queued:
      pendingKind = kind
      pendingIsCertain = pendingIsCertain || certain
      if hasEventBody { pendingKeyPath = keyPath() }
      // A main-actor run waiting for its hop: the main thread's change runs it here at once
      // (so the walks that reach it meanwhile must not let that change skip its walk).
      if runsOnMainActor && !isWaitingInTransaction {
        if rs_is_main_thread() != 0 { return takeOverHop(kind: kind) }
        ChangePropagation.leavesSourceUnmarked = true
      }
      return false
    case .idle:
      // `receive` runs on the mutating thread: when delivery will be synchronous there, the
      // run starts now (saves a lock round trip in `deliver`).
      let transaction = ObservationTransaction.current
      let inline = deliversInline
      if inline && transaction == nil {
        startRunAtReceive(kind: kind, certain: certain)
        if hasEventBody { startKeyPath = keyPath() }
        return true
      }
      pendingKind = kind
      pendingIsCertain = certain
      if hasEventBody { pendingKeyPath = keyPath() }
      if inline {
        pendingDepth = 0  // a main-actor body queued in a transaction on the main thread
      } else if !parksRuns {
        pendingDepth = rs_current_thread().pointee.scheduled_run_depth + 1
        // A chain about to be dropped: its diagnostic names the change.
        if pendingDepth > UInt64(Self.rerunLimit) { pendingKeyPath = keyPath() }
      }
      phase = .queued
      if runsOnMainActor && transaction == nil {
        ChangePropagation.leavesSourceUnmarked = true  // see the `.queued` case
      }
      if !parksRuns, let transaction {
        // Straight into this thread's transaction, with no delivery to queue and no retain
        // (see `isWaitingInTransaction`).
        isWaitingInTransaction = true
        transaction._withUnsafeGuaranteedRef { $0.postpone(self) }
        return false
      }
      handsPendingRetainToQueue = false
      return true
    }
  }

  /// Under the graph lock, an idle observer whose change this thread delivers synchronously
  /// (see ``deliversInline``) outside any transaction: starts the run now; its `deliver`, on
  /// this thread, runs it without taking the lock again. `certain`: as in ``enqueue``.
  @inline(__always)
  func startRunAtReceive(kind: ObservationTracking.Event.Kind, certain: Bool) {
    phase = .running
    ObservationWave.advance()
    handsPendingRetainToQueue = true  // the run keeps the observer alive
    startedByReceive = true
    startPass = ChangePropagation.currentPass
    startKind = kind
    // A `willSet` run now, before the store, cannot know the derived value's new value: it is
    // delivered as a change that may come.
    startIsCertain = certain || kind == .willSet
  }

  func cancelObservation() {
    // Cancelled is final: a repeated cancellation (`cancel()`, then the token's deinit) needs
    // no lock.
    if phase == .cancelled { return }
    GraphLock.lock()
    let aftermath = cancelHoldingLock()
    GraphLock.unlock()
    finishCancellation(aftermath)
  }

  /// What a cancellation leaves to do once the graph lock is released.
  enum CancellationAftermath {
    case none
    /// The observer was taken out of its parking word, whose retain ends.
    case releaseParkingRetain
    /// No run can start any more: the derived inputs are the cancelling thread's to release.
    case releaseDerivedInputs
  }

  /// The transition to cancelled, under the graph lock; ``finishCancellation(_:)`` does the
  /// rest after the lock is released.
  func cancelHoldingLock() -> CancellationAftermath {
    // An exchange: the running thread may be ending its run without the lock.
    let previous = state.exchange(Phase.cancelled.rawValue, ordering: .acquiringAndReleasing)
    let wasPhase = Phase(rawValue: previous & ~Self.dirtyBit).unsafelyUnwrapped
    guard wasPhase != .cancelled else { return .none }
    cancelRequested.store(true, ordering: .sequentiallyConsistent)
    pendingKeyPath = nil
    if wasPhase == .parked {
      return reclaimForCancellation() ? .releaseParkingRetain : .none
    }
    // A running body finishes on its own thread and unlinks everything at its end; it may
    // hold no retain of its own (see the type's doc), so it gets one now.
    if wasPhase == .running {
      _ = Unmanaged.passUnretained(self).retain()
      cancellationRetainsRun = true
      return .none
    }
    if isWaitingInTransaction && !transactionHoldsRetain {
      // The queue reaches it after its owner may have let go.
      _ = Unmanaged.passUnretained(self).retain()
      transactionHoldsRetain = true
    }
    unlinkAllDependencies()
    return .releaseDerivedInputs
  }

  /// The end of a cancellation, after the graph lock is released (a release may deinitialise
  /// what takes that lock).
  func finishCancellation(_ aftermath: CancellationAftermath) {
    switch aftermath {
    case .none: break
    case .releaseParkingRetain: Unmanaged.passUnretained(self).release()
    case .releaseDerivedInputs: releaseDerivedInputs()
    }
  }

  static func describe(_ keyPath: AnyKeyPath?) -> String {
    // Swift prints a computed property's key path without its name
    // (`\Model.<computed 0x… (Int)>`); the type and value type still identify it.
    keyPath.map { String(describing: $0) } ?? "an observed value"
  }
}
