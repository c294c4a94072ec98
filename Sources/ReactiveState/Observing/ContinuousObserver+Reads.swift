import CReactiveState
/// How a running ``ContinuousObserver`` records what it reads: reusing last run's links in
/// order, reading singly while it may park, and keeping the derived values it read (which the
/// next change pulls).
extension ContinuousObserver {
  /// Runs the body until a run ends with nothing pending. The common run is straight code: a
  /// change certain to matter, or derived inputs that changed when pulled; a body that does
  /// not read singly; a clean end. Anything else goes on in the loop
  /// (``executeLoop(kind:keyPath:certain:ranOnce:wroteOnce:reruns:triedCleanEnd:inputsUnchanged:)``),
  /// whose state this path keeps off its frame.
  func execute(kind: ObservationTracking.Event.Kind, keyPath: consuming AnyKeyPath?, certain: Bool)
  {
    guard certain || inputsChanged() else {
      return executeLoop(kind: kind, keyPath: keyPath, certain: false, inputsUnchanged: true)
    }
    if cancelRequested.load(ordering: .acquiring) || (parksInSlots && firstDependency == nil) {
      return executeLoop(kind: kind, keyPath: keyPath, certain: true)
    }
    let wrote = runBody(kind: kind, keyPath: keyPath)
    if endsRunCleanly() {
      if let held = consume keyPath { withExtendedLifetime(held) {} }
      return
    }
    executeLoop(
      kind: kind, keyPath: keyPath, certain: true, ranOnce: true, wroteOnce: wrote,
      triedCleanEnd: true)
  }

  /// One run of the body, reading singly when the observer parks and has no links; returns
  /// whether the run wrote an observed property on this thread.
  @inline(__always)
  func runBody(kind: ObservationTracking.Event.Kind, keyPath: borrowing AnyKeyPath?) -> Bool {
    cursor = nil
    derivedInputs.restart()
    readsSingleSource = parksInSlots && firstDependency == nil
    singleSource = nil
    let checkedOut = ObserverScopeStack.checkOut(for: self)
    let wrote = checkedOut._withUnsafeGuaranteedRef { scope in
      scope.reset()
      scope.wroteDuringRun = false
      scope.wroteParkingSlot = false
      dirtiedByOwnThread = false
      deallocatedWhatItRead = false
      bodyThread.store(UInt(bitPattern: rs_current_thread()), ordering: .relaxed)
      scope.begin()
      // Begun inside `withoutObservationTracking` (a write there ran it): a write here is
      // still the suspended scope's too — its observer's, when this run is part of a loop.
      scope.noteSuspendedScope()
      if hasEventBody {
        eventBody.unsafelyUnwrapped(
          ObservationTracking.Event(kind: kind, keyPath: copy keyPath, canceller: self))
      } else {
        plainBody()
      }
      scope.end()
      bodyThread.store(0, ordering: .relaxed)
      runWroteParkingSlot = scope.wroteParkingSlot
      return scope.wroteDuringRun
    }
    ObserverScopeStack.checkIn(checkedOut)
    derivedInputs.trim()
    return wrote
  }

  /// A run's clean end: it kept the same links as last time, and no change or cancellation
  /// arrived meanwhile (either changes the word), so it goes straight back to idle, no lock.
  @inline(__always)
  func endsRunCleanly() -> Bool {
    cursor == lastDependency
      && state.compareExchange(
        expected: Phase.running.rawValue, desired: Phase.idle.rawValue,
        ordering: .acquiringAndReleasing
      ).exchanged
  }

  /// ``track(_:stamp:hadNestedScope:readAt:)`` of a read made now, by a run that does not read
  /// singly (see ``readsSingleSource``); out of line and static, so the scope's `record`
  /// reaches it with a jump (its register for `self` stays its own; a closure holding this
  /// body was called through a frame of its own). The steady state — the next old link is
  /// this source's (so it is no re-read after a nested scope either, see
  /// `isConfirmedThisRun`), and a derived source is the next kept one — makes no call.
  ///
  /// A re-read that another scope's stamp made look new (see ``SourceNode/lastReaderStamp``)
  /// may link the source a second time: no check here costs the reads for that rare case,
  /// and a change that reaches the observer through both links runs it once (``enqueue``).
  @inline(never)
  static func trackRead(
    _ slot: SourceNode, by observer: ContinuousObserver, stamp: UInt64, hadNestedScope: Bool
  ) {
    // Reached through `recordIfNew`, which found `slot` not read yet in this run.
    slot.markFirstRead(byScope: stamp)
    let version = slot.version.load(ordering: .sequentiallyConsistent)
    guard let reused = observer.reuseNextLink(slot, version: version, after: observer.cursor)
    else { return observer.link(slot, version: version, hadNestedScope: hadNestedScope) }
    observer.cursor = reused
    if slot.isDerived { observer.derivedInputs.append(slot, version: version) }
  }

  /// ``track(_:stamp:hadNestedScope:readAt:)`` of a read made now by a run that reads singly
  /// (out of line and static, as ``trackRead(_:by:stamp:hadNestedScope:)``).
  @inline(never)
  static func trackSingleRead(
    _ slot: SourceNode, by observer: ContinuousObserver, stamp: UInt64, hadNestedScope: Bool
  ) {
    observer.track(slot, stamp: stamp, hadNestedScope: hadNestedScope, firstReadChecked: true)
  }

  /// Records a read during a run (called through the thread's current scope), made now or,
  /// by a nested one-shot, at `readAt`.
  @inline(__always)
  func track(
    _ slot: SourceNode, stamp: UInt64, hadNestedScope: Bool, readAt: UInt64? = nil,
    firstReadChecked: Bool = false
  ) {
    if firstReadChecked {
      slot.markFirstRead(byScope: stamp)
    } else {
      guard slot.isFirstRead(byScope: stamp) else { return }
    }
    let version = readAt ?? slot.version.load(ordering: .sequentiallyConsistent)
    if readsSingleSource {
      // A nested one-shot's read that a change overtook before it reached here: linked (the
      // link catches the change), as parking only hears of writes made once it is parked.
      let overtaken = readAt != nil && slot.changedSince(version)
      if singleSource == nil && !overtaken && recordSingleRead(slot, version: version) { return }
      if let single = singleSource, single.toOpaque() == Unmanaged.passUnretained(slot).toOpaque() {
        return  // a re-read after a nested scope re-stamped it
      }
      cursor = linkSingleSource()
    }
    link(slot, version: version, hadNestedScope: hadNestedScope)
  }

  /// The end of ``track(_:stamp:hadNestedScope:readAt:)``: reuses or makes the link, unless
  /// this run linked `slot` already.
  @inline(never)
  func link(_ slot: SourceNode, version: UInt64, hadNestedScope: Bool) {
    if hadNestedScope && isConfirmedThisRun(slot) { return }
    cursor = reuseOrLink(slot, version: version, after: cursor)
    if slot.isDerived { derivedInputs.append(slot, version: version) }
  }

  /// Whether this run already confirmed a link to `slot` — a re-read after a nested scope
  /// (e.g. a derived value's computation) re-stamped it. Linking it again would deliver every
  /// later change twice. Only this (running) thread changes the list up to the cursor.
  private func isConfirmedThisRun(_ slot: SourceNode) -> Bool {
    guard let last = cursor else { return false }
    // The common case, the next old link is this source: not a duplicate, reuse it.
    if last.pointee.nextDependency?.refers(to: slot) == true { return false }
    var link = firstDependency
    while let edge = link {
      if edge.refers(to: slot) { return true }
      if edge == last { return false }
      link = edge.pointee.nextDependency
    }
    return false
  }

  /// Lets go of the derived inputs (a cancelled observer; never under the graph lock: the
  /// last reference to a derived value deinitialises it, which takes that lock).
  func releaseDerivedInputs() {
    derivedInputs.restart()
    derivedInputs.trim()
  }

  /// Whether a derived input of the last run really changed: each is pulled (brought up to
  /// date) and its version compared, with no lock (the list is this running thread's). A
  /// property that changed needs no check: its change made the run certain (see `enqueue`),
  /// and one that lands during this check marks the run dirty.
  @inline(__always)
  func inputsChanged() -> Bool {
    for input in derivedInputs.inputs {
      let moved = input.source._withUnsafeGuaranteedRef { source in
        _ = unsafeDowncast(source, to: DerivedNode.self).refreshForSubscriber()
        return source.version.load(ordering: .sequentiallyConsistent) != input.version
      }
      if moved { return true }
    }
    return false
  }
}
