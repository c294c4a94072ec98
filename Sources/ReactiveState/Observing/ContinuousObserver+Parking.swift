/// Parked continuous observers: an observer whose run read exactly one property waits in that
/// property's slot (see `PropertySlot+Parking.swift`) instead of being linked into the graph.
/// A write takes it out of the slot with one compare-exchange and runs it on the mutating
/// thread; the run parks it again. No graph lock, link or delivery queue is involved.
///
/// Only an observer that ``ContinuousObserver/parksInSlots`` parks, from a run that started
/// with no links; its phase is then `parked` for good: whether it sits in the slot or a thread
/// that took it runs it, nobody else changes its state but a cancellation. The parking word
/// holds a retain of the observer, which moves to the thread that takes it and back when the
/// run parks it again.
///
/// A run that reads a second source, a derived value or a main-thread-confined property —
/// or cannot park (the place is taken, or the property already has graph listeners, which
/// are older) — links its reads instead and the observer stays a graph observer from then on.
/// So does one taken by a write inside a transaction, which the transaction then runs at its
/// end.
///
/// Handshakes, each a pair of sequentially consistent operations of which one side sees the
/// other:
/// - with writers: a writer moves the version, then takes the word; a run parks, then
///   compares the version it read, and on a change takes itself back and runs again;
/// - with a cancellation: it marks the observer cancelled, then takes it out of the word;
///   a run parks, then looks at the mark, and takes itself back and lets go on a
///   cancellation. Whoever takes it out of the word owns its retain.
extension ContinuousObserver {
  /// How ``parkAfterRun(ownsRetain:checkingChanges:)`` ended.
  enum ParkOutcome {
    /// Parked, or cancelled: nothing left to run.
    case finished
    /// The property changed during the run: the caller runs again (it owns the retain).
    case changed
    /// Could not park: the run's read is a graph link now, and the run ends as a graph run.
    case linked
  }

  /// The first read of a run that reads singly: records `source` when it is a property that
  /// can be parked on (adopting its slot as the parking place), else returns false.
  @inline(__always)
  func recordSingleRead(_ source: SourceNode, version: UInt64) -> Bool {
    guard !source.isDerived, !source.isConfinedToMainThread else { return false }
    let slot = unsafeDowncast(source, to: PropertySlot.self)
    if slot !== parkingSlot { adoptParkingSlot(slot) }
    singleSource = .passUnretained(slot)
    singleVersion = version
    return true
  }

  /// Retains `slot` as the parking place, under the graph lock (a cancellation reads it
  /// there); the previous place is released after the lock.
  @inline(never)
  private func adoptParkingSlot(_ slot: PropertySlot) {
    var previous: PropertySlot? = slot
    GraphLock.lock()
    swap(&previous, &parkingSlot)
    parkingIsEstablished = false
    GraphLock.unlock()
    withExtendedLifetime(previous) {}
  }

  /// Ends single reading: the recorded read becomes a graph link (checked for a change it
  /// missed) and the observer a graph observer. Returns the link, if one was made.
  func linkSingleSource() -> LinkPointer? {
    readsSingleSource = false
    let single = singleSource
    singleSource = nil
    GraphLock.lock()
    defer { GraphLock.unlock() }
    if phase == .parked { phase = .running }
    return single?._withUnsafeGuaranteedRef { source -> LinkPointer? in
      guard !source.isDetached else { return nil }
      let link = ReactiveNode.link(source, to: self, after: nil, version: singleVersion)
      ReactiveNode.fenceAfterLinking(to: source)
      if source.changedSince(singleVersion) { missedChange(at: link) }
      return link
    }
  }

  /// After a run that read singly: parks the observer (``parkAfterRun(ownsRetain:checkingChanges:)``)
  /// and counts the runs a change during the run asks for (`changed`: run again); past
  /// ``rerunLimit`` it reports the loop and parks without looking for changes. `linked`: the
  /// cursor is set for the graph end of the run.
  func settleSingleRun(ownsRetain: inout Bool, reruns: inout Int) -> ParkOutcome {
    var outcome = parkAfterRun(ownsRetain: &ownsRetain, checkingChanges: true)
    if outcome == .changed {
      reruns += 1
      if reruns <= Self.rerunLimit { return .changed }
      reportSelfInvalidation(parkingSlot?.keyPath)
      outcome = parkAfterRun(ownsRetain: &ownsRetain, checkingChanges: false)
    }
    if outcome == .linked { cursor = lastDependency }
    return outcome
  }

  /// After a run that read singly: parks the observer in the slot it read, then checks that
  /// neither a change (unless `checkingChanges` is false: the rerun limit was reached) nor a
  /// cancellation slipped in meanwhile. `ownsRetain`: whether the caller holds the retain the
  /// parking word takes (one is taken when not).
  func parkAfterRun(ownsRetain: inout Bool, checkingChanges: Bool) -> ParkOutcome {
    guard let single = singleSource, phase == .parked || enterParkedPhase() else {
      _ = linkSingleSource()
      return .linked
    }
    return single._withUnsafeGuaranteedRef { slot in
      // Graph listeners of a property the observer is new to are older: they keep their turn.
      if !parkingIsEstablished
        && (slot.willSetListeners.load(ordering: .relaxed) != 0
          || slot.didSetListeners.load(ordering: .relaxed) != 0)
      {
        _ = linkSingleSource()
        return .linked
      }
      if !ownsRetain {
        _ = Unmanaged.passUnretained(self).retain()
        ownsRetain = true
      }
      guard let word = slot.parkContinuous(Unmanaged.passUnretained(self).toOpaque()) else {
        _ = linkSingleSource()
        return .linked
      }
      ownsRetain = false
      parkingIsEstablished = true
      let changed = checkingChanges && slot.changedSince(singleVersion)
      guard changed || cancelRequested.load(ordering: .sequentiallyConsistent),
        slot.reclaim(word)
      else { return .finished }  // whoever took it out of the word runs or releases it
      ownsRetain = true
      return cancelRequested.load(ordering: .acquiring) ? .finished : .changed
    }
  }

  /// The first run (phase `running`, no links) becomes a parked one, unless a cancellation
  /// came first.
  private func enterParkedPhase() -> Bool {
    GraphLock.lock()
    defer { GraphLock.unlock() }
    guard phase == .running, !dirtyWhileRunning else { return false }
    phase = .parked
    return true
  }

  /// A writer took the observer out of a slot (with its retain): runs it now, or — inside
  /// the writer's transaction — hands it to the transaction as a graph observer.
  static func runParked(_ raw: UnsafeMutableRawPointer) {
    Unmanaged<ContinuousObserver>.fromOpaque(raw)._withUnsafeGuaranteedRef { observer in
      if observer.cancelRequested.load(ordering: .acquiring) {
        Unmanaged.passUnretained(observer).release()
      } else if ObservationTransaction.isOpenOnCurrentThread {
        observer.postponeFromParking()
      } else {
        observer.runTakenFromParking()
      }
    }
  }

  /// Links the observer to its parking slot and queues the change in this thread's
  /// transaction, as for any graph observer; then lets go of the retain the word held.
  private func postponeFromParking() {
    GraphLock.lock()
    if phase == .parked, let slot = parkingSlot, !slot.isDetached {
      phase = .idle
      let link = ReactiveNode.link(
        slot, to: self, version: slot.version.load(ordering: .sequentiallyConsistent))
      _ = enqueue(kind: .didSet, link: link)
    }
    GraphLock.unlock()
    Unmanaged.passUnretained(self).release()
  }

  /// The registrar of the observer's parking slot is gone: its only dependency died, so it
  /// goes dormant (as a graph observer whose sources are gone); the word's retain ends here.
  static func discardParked(_ raw: UnsafeMutableRawPointer) {
    let observer = Unmanaged<ContinuousObserver>.fromOpaque(raw)
    observer._withUnsafeGuaranteedRef { observer in
      GraphLock.lock()
      if observer.phase == .parked { observer.phase = .idle }
      GraphLock.unlock()
    }
    observer.release()
  }

  /// Under the graph lock, cancelling a parked observer: takes it out of its slot if it is
  /// there (the caller then releases the word's retain, after the lock). Otherwise a thread
  /// that took it holds that retain and sees the cancellation before it parks it again.
  func reclaimForCancellation() -> Bool {
    parkingSlot?.reclaimContinuous(Unmanaged.passUnretained(self).toOpaque()) ?? false
  }

  /// Reports a run that kept invalidating itself (it was stopped).
  func reportSelfInvalidation(_ keyPath: AnyKeyPath?) {
    ObservationDiagnostics.report(
      "\(label) invalidated itself \(Self.rerunLimit) times in a row and was stopped; "
        + "it keeps changing \(describe(keyPath)), which it also reads. To fix: move the "
        + "write out of the observer, or read that value with withoutObservationTracking { … }")
  }
}
