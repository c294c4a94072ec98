extension ContinuousObserver {
  /// Runs the body until a run ends with nothing pending, inlined into each entry (see
  /// ``execute(kind:keyPath:certain:)``). `ranOnce`: the caller already ran the body once and
  /// it linked its reads; this ends that run (which wrote an observed property if `wroteOnce`),
  /// after `reruns` runs — and `triedCleanEnd`: its clean end failed. `inputsUnchanged`: the
  /// caller pulled the derived inputs (the run is not certain) and none changed.
  @inline(__always)
  func executeLoop(
    kind: ObservationTracking.Event.Kind, keyPath: consuming AnyKeyPath?, certain: Bool,
    ranOnce: Bool = false, wroteOnce: Bool = false, reruns: Int = 0,
    triedCleanEnd: Bool = false, inputsUnchanged: Bool = false
  ) {
    var kind = kind
    var certain = certain
    var reruns = reruns
    var ranOnce = ranOnce
    var wroteDuringRun = wroteOnce
    var triedCleanEnd = triedCleanEnd
    var inputsUnchanged = inputsUnchanged
    while true {
      if ranOnce {
        ranOnce = false
      } else if !certain && (inputsUnchanged || !inputsChanged()) {
        inputsUnchanged = false
        // Only derived inputs were invalidated and they recomputed to equal values.
        GraphLock.lock()
        if let end = runEnd() {
          GraphLock.unlock()
          finish(end)
          return
        }
        (kind, keyPath, certain) = (pendingKind, pendingKeyPath, pendingIsCertain)
        ObservationWave.advance()  // the next iteration consumes the new changes
        GraphLock.unlock()
        continue
      } else {
        if cancelRequested.load(ordering: .acquiring) {
          // Cancelled meanwhile (before a delivery started the run, or while it pulled derived
          // inputs): the body does not start after `cancel()` returned; the links go.
          GraphLock.lock()
          let end = runEnd()
          GraphLock.unlock()
          if let end { finish(end) }
          return
        }
        wroteDuringRun = runBody(kind: kind, keyPath: keyPath)
        if readsSingleSource {
          switch settleSingleRun(reruns: &reruns) {
          case .parked, .stopped: return
          case .changed:
            (kind, keyPath, certain) = (.didSet, nil, true)
            continue
          case .linked: break
          }
        }
      }

      // Otherwise (a change or a cancellation arrived meanwhile): the locked path.
      if !triedCleanEnd && endsRunCleanly() {
        // Usually nil: released only when not (the unconditional release call costs 9
        // instructions).
        if let held = consume keyPath { withExtendedLifetime(held) {} }
        return
      }
      triedCleanEnd = false
      GraphLock.lock()
      if phase != .cancelled { unlinkDependencies(after: cursor) }
      if let end = runEnd() {
        GraphLock.unlock()
        finish(end)
        return
      }
      if parksRuns, let scheduler {
        // The run changed something it read: its owner decides when to run it again.
        phase = .queued
        GraphLock.unlock()
        scheduler.schedule { [weak self] in self?.runIfQueued() }
        return
      }
      if let parking {
        // An `ObservedValues` evaluation changed something it read (or another thread did
        // meanwhile): the consumer's next request evaluates again, once, instead of this run
        // repeating inline up to the limit. The consumer is running it, so it outlives this.
        phase = .queued
        GraphLock.unlock()
        parking._withUnsafeGuaranteedRef { $0.park(self) }
        return
      }
      (kind, keyPath, certain) = (pendingKind, pendingKeyPath, pendingIsCertain)
      // Only a run that changed what it read itself (wrote an observed property, or
      // deallocated an object it read) counts toward the limit: changes from other threads
      // never invalidate it forever, and the last one must be seen.
      if (wroteDuringRun || deallocatedWhatItRead) && dirtiedByOwnThread { reruns += 1 }
      if reruns > Self.rerunLimit {
        phase = .idle
        pendingKeyPath = nil
        ObservationWave.advance()  // no longer waiting: later changes must reach it again
        GraphLock.unlock()
        reportSelfInvalidation(keyPath, byDeallocation: kind == .deinit)
        return
      }
      ObservationWave.advance()  // the re-run consumes the new changes
      GraphLock.unlock()
    }
  }

  /// How a run ended: back to idle, or cancelled (then `releasesRun`: the cancellation
  /// retained the observer for the run, which must release it last).
  private enum RunEnd {
    case idle
    case cancelled(releasesRun: Bool)
  }

  /// Under the graph lock, after an iteration: how the run ends — cancelled (every link is
  /// dropped) or nothing changed while it ran (back to idle) — or nil: the dirty mark is
  /// cleared and the caller runs again with the pending change.
  private func runEnd() -> RunEnd? {
    if phase == .cancelled {
      unlinkAllDependencies()
      defer { cancellationRetainsRun = false }
      return .cancelled(releasesRun: cancellationRetainsRun)
    }
    guard dirtyWhileRunning else {
      phase = .idle
      pendingKeyPath = nil
      return .idle
    }
    phase = .running  // clears the dirty bit
    return nil
  }

  /// After the graph lock is released: the last step of a run that ended. Nothing may touch
  /// the observer after it (it may be deallocated).
  private func finish(_ end: RunEnd) {
    guard case .cancelled(let releasesRun) = end else { return }
    releaseDerivedInputs()
    if releasesRun { Unmanaged.passUnretained(self).release() }
  }
}
