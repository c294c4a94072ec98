/// Parked continuous observers: an observer whose run read exactly one property waits in that
/// property's slot (see `PropertySlot+Parking.swift`) instead of being linked into the graph.
/// The write it waits for runs it on the mutating thread, and the run parks it again; no
/// graph lock, link or delivery queue is involved, and the writer needs no atomic operation
/// beyond its version move (see `PropertySlot+ParkedContinuous.swift`).
///
/// Only an observer that ``ContinuousObserver/parksInSlots`` parks, from a run that started
/// with no links; its phase is then `parked` for good: whether it waits in the slot or a
/// write runs it, nobody else changes its state but a cancellation. It takes its place in the
/// slot at its run's first read of the property (so writes during the rest of the run mark it
/// dirty) and keeps it across runs. The parking word holds a retain of the observer, released
/// by whoever removes it from the word.
///
/// A run that reads a second source, a derived value or a main-thread-confined property —
/// or cannot park (the place is taken, or the property already has graph listeners, which
/// are older) — links its reads instead and the observer stays a graph observer from then on.
/// So does one run by a write inside a transaction, which the transaction then runs at its end.
extension ContinuousObserver {
  /// How a run that read singly ended (``settleSingleRun(reruns:)``).
  enum ParkOutcome {
    /// Parked: another thread may be running it already, so the caller touches nothing.
    case parked
    /// Cancelled, or its registrar is gone: the run is over (the word's retain it owed, if
    /// any, is released).
    case stopped
    /// A write may have been missed during the run: run again.
    case changed
    /// Could not park: the run's read is a graph link now, and the run ends as a graph run.
    case linked
  }

  private var address: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

  /// The first read of a run that reads singly: records `source` when it is a property the
  /// observer can park on (taking its place there if it has none yet), else returns false.
  @inline(__always)
  func recordSingleRead(_ source: SourceNode, version: UInt64) -> Bool {
    guard !source.isDerived, !source.isConfinedToMainThread else { return false }
    let slot = unsafeDowncast(source, to: PropertySlot.self)
    if slot !== parkingSlot || !parkingIsEstablished {
      guard establishParking(in: slot) else { return false }
    }
    singleSource = .passUnretained(slot)
    singleVersion = version
    return true
  }

  /// Takes the observer's place in `slot` (leaving its previous one), under the graph lock (a
  /// cancellation reads `parkingSlot` there). Fails when the place is taken or closed, when
  /// the property already has graph listeners (older: they keep their turn), or after a
  /// cancellation.
  @inline(never)
  private func establishParking(in slot: PropertySlot) -> Bool {
    var previous: PropertySlot? = slot
    var spareRetain = false  // the previous word's retain, reused for the new one
    GraphLock.lock()
    if phase == .running { phase = .parked }  // the first run
    guard phase == .parked else {
      GraphLock.unlock()
      return false
    }
    var cancelled = false
    if parkingIsEstablished, let place = parkingSlot {
      (spareRetain, cancelled) = place.vacate(by: address)
      parkingIsEstablished = false
    }
    swap(&previous, &parkingSlot)
    if slot.willSetListeners.load(ordering: .relaxed) == 0
      && slot.didSetListeners.load(ordering: .relaxed) == 0
      && slot.occupy(by: address, cancelled: cancelled)
    {
      parkingIsEstablished = true
      if spareRetain {
        spareRetain = false
      } else {
        _ = Unmanaged.passUnretained(self).retain()
      }
    }
    GraphLock.unlock()
    if spareRetain { owesWordRelease = true }
    withExtendedLifetime(previous) {}
    return parkingIsEstablished
  }

  /// Leaves the parking word (if in it): its retain is owed (``owesWordRelease``).
  private func leaveParking() {
    guard parkingIsEstablished, let place = parkingSlot else { return }
    parkingIsEstablished = false
    if place.vacate(by: address).removed { owesWordRelease = true }
  }

  /// Ends single reading: the observer leaves its parking place, the recorded read becomes a
  /// graph link (checked for a change it missed) and the observer a graph observer. Returns
  /// the link, if one was made.
  ///
  /// The word's retain: a graph observer's run needs none while its token lives (a
  /// cancellation retains it for the run), so it is released now — unless a cancellation
  /// already came (it found the observer parked and retained nothing): then it becomes that
  /// cancellation's retain for the run, which the run's end releases.
  func linkSingleSource() -> LinkPointer? {
    readsSingleSource = false
    let single = singleSource
    singleSource = nil
    leaveParking()
    var releasesNow = false
    GraphLock.lock()
    defer {
      GraphLock.unlock()
      if releasesNow { Unmanaged.passUnretained(self).release() }
    }
    if owesWordRelease {
      owesWordRelease = false
      if phase == .cancelled && !cancellationRetainsRun {
        cancellationRetainsRun = true
      } else {
        releasesNow = true
      }
    }
    if phase == .parked { phase = .running }
    return single?._withUnsafeGuaranteedRef { source -> LinkPointer? in
      guard !source.isDetached else { return nil }
      let link = ReactiveNode.link(source, to: self, after: nil, version: singleVersion)
      ReactiveNode.fenceAfterLinking(to: source)
      if source.changedSince(singleVersion) { missedChange(at: link) }
      return link
    }
  }

  /// After a run that read singly: parks the observer again, or says to run again
  /// (`changed`) when a write may have been missed during the run. Only runs that wrote the
  /// property the observer parks on themselves, or through a run nested in them (one begun
  /// inside their `withoutObservationTracking` too, see ``TrackingScope/suspendedScope``), count
  /// toward ``rerunLimit`` (``runWroteParkingSlot``), past which the loop is reported and the
  /// observer parks regardless.
  /// `linked`: the cursor is set for the graph end of the run.
  func settleSingleRun(reruns: inout Int) -> ParkOutcome {
    guard singleSource != nil, parkingIsEstablished else {
      _ = linkSingleSource()
      cursor = lastDependency
      return .linked
    }
    var outcome = reparkInPlace(honoringDirty: true)
    if outcome == .changed {
      if runWroteParkingSlot { reruns += 1 }
      if reruns <= Self.rerunLimit { return .changed }
      reportSelfInvalidation(parkingSlot?.keyPath)
      outcome = reparkInPlace(honoringDirty: false)
    }
    return outcome
  }

  @inline(__always)
  private func reparkInPlace(honoringDirty: Bool) -> ParkOutcome {
    // `singleSource` is `parkingSlot`, unretained (no reference counting on this path).
    let outcome = singleSource.unsafelyUnwrapped._withUnsafeGuaranteedRef {
      $0.repark(
        address, at: singleVersion, honoringDirty: honoringDirty,
        cancelRequested: { cancelRequested.load(ordering: .sequentiallyConsistent) })
    }
    switch outcome {
    case .parked: return .parked
    case .dirty: return .changed
    case .cancelled:
      parkingIsEstablished = false
      owesWordRelease = true
      settleWordRelease()
      return .stopped
    case .gone:
      parkingIsEstablished = false  // its registrar went: dormant
      return .stopped
    }
  }

  /// Releases the parking word's retain if the run removed the observer from it and still owes
  /// it (the run's last touch: never after the observer parked or went idle, when another
  /// thread may run it).
  @inline(__always)
  func settleWordRelease() {
    guard owesWordRelease else { return }
    owesWordRelease = false
    Unmanaged.passUnretained(self).release()
  }

  /// The write an observer waits for claimed it (it stays in the word, which keeps it alive):
  /// runs it now, or — inside the writer's transaction — hands it to the transaction as a
  /// graph observer.
  @inline(never)
  static func runParked(_ raw: UnsafeMutableRawPointer) {
    Unmanaged<ContinuousObserver>.fromOpaque(raw)._withUnsafeGuaranteedRef { observer in
      if observer.cancelRequested.load(ordering: .acquiring) {
        observer.leaveParking()
        observer.settleWordRelease()
      } else if ObservationTransaction.isOpenOnCurrentThread {
        observer.postponeFromParking()
      } else {
        observer.runTakenFromParking()
      }
    }
  }

  /// Runs a parked observer for the write it waited for (phase `parked`, no links, a plain
  /// body) until a run parks it again.
  private func runTakenFromParking() {
    var reruns = 0
    while true {
      let wrote = runBody(kind: .didSet, keyPath: nil)
      if readsSingleSource {
        switch settleSingleRun(reruns: &reruns) {
        case .parked, .stopped: return
        case .changed: continue
        case .linked: break
        }
      }
      // The run linked what it read: it ends as a graph run.
      endAsGraphRun(wroteOnce: wrote, reruns: reruns)
      return
    }
  }

  /// The end of a parked run that linked what it read, as a graph run's (see
  /// ``executeLoop(kind:keyPath:certain:ranOnce:wroteOnce:reruns:)``); out of line.
  @inline(never)
  private func endAsGraphRun(wroteOnce: Bool, reruns: Int) {
    executeLoop(
      kind: .didSet, keyPath: nil, certain: true, ranOnce: true, wroteOnce: wroteOnce,
      reruns: reruns)
  }

  /// Leaves the parking word, links the observer to its parking slot and queues the change in
  /// this thread's transaction, as for any graph observer.
  private func postponeFromParking() {
    leaveParking()
    GraphLock.lock()
    if phase == .parked, let slot = parkingSlot, !slot.isDetached {
      phase = .idle
      let link = ReactiveNode.link(
        slot, to: self, version: slot.version.load(ordering: .sequentiallyConsistent))
      _ = enqueue(kind: .didSet, link: link)
    }
    GraphLock.unlock()
    settleWordRelease()
  }

  /// A claimed observer removed from the word because it was cancelled: its retain ends here.
  static func releaseRemoved(_ raw: UnsafeMutableRawPointer) {
    Unmanaged<ContinuousObserver>.fromOpaque(raw).release()
  }

  /// The registrar of the observer's parking slot is gone: its only dependency died, so it
  /// goes dormant (as a graph observer whose sources are gone); the word's retain ends here.
  static func discardParked(_ raw: UnsafeMutableRawPointer) {
    let observer = Unmanaged<ContinuousObserver>.fromOpaque(raw)
    // Its phase stays `parked`: a run of it may still be going (its first run, on the thread
    // that called `observe`), and an idle phase would let a change start a second one.
    observer.release()
  }

  /// Under the graph lock, cancelling a parked observer: flags it in its parking word and
  /// returns whether it could be removed from it (the caller then releases the word's retain,
  /// after the lock); otherwise whoever removes it later releases it.
  func reclaimForCancellation() -> Bool {
    parkingSlot?.flagCancelled(address) ?? false
  }

  /// Reports a run that kept invalidating itself (it was stopped): its thread's writes during
  /// the run, its own or those of observers they ran inline, changed what it read.
  func reportSelfInvalidation(_ keyPath: AnyKeyPath?, byDeallocation: Bool = false) {
    let cause =
      byDeallocation
      ? "runs keep deallocating an object they read, which is a change. To fix: keep the "
        + "object alive outside the observer, or read it with withoutObservationTracking { … }"
      : "runs keep changing \(Self.describe(keyPath)), which it also reads (directly, or "
        + "through the observers its writes ran). To fix: move the write out of the observer "
        + "(or out of the observers it runs), or read that value with "
        + "withoutObservationTracking { … }"
    ObservationDiagnostics.report(
      "\(name) invalidated itself \(Self.rerunLimit) times in a row and was stopped; its "
        + cause)
  }
}
