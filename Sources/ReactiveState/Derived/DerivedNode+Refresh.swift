import CReactiveState

/// The pull: bringing a derived value up to date when it is read.
///
/// A stale node checks its inputs in the order it read them and recomputes only when one's
/// version moved. A derived input that may be outdated is checked first, and so on upstream.
/// That check is a loop over an intrusive stack, not recursion: each node on it is locked by
/// the refreshing thread and records its parent (``stackParent``) and the input it is at
/// (``stackIndex``). A chain of any depth is validated in constant stack space, at about the
/// cost of the recursion it replaced (384 instructions per node of the benchmarks' 1000-deep
/// chain then, against 380; 327 since the pull's frames were trimmed). Locks are taken parent
/// before input, as the recursive order did; a first computation still nests through the
/// derivations themselves, as it must.
extension DerivedNode {
  /// Brings the cached value up to date. Returns false when reading it now would be a cycle
  /// (the diagnostic is reported).
  final func refresh() -> Bool {
    guard refreshKeepingLock(forSubscriber: false) else { return false }
    releaseComputeLock()
    return true
  }

  /// ``refresh()`` for a reader linked to this node (a continuous observer checking the
  /// derived values its last run read): a node found unlinked subscribes to its inputs again.
  /// Its upstream links can go while the reader links it (a lingering orphan read lock-free as
  /// its lingering ends); settled unchanged, it would stay unlinked, and later changes of its
  /// inputs would never reach the reader.
  final func refreshForSubscriber() -> Bool {
    let refreshed = refreshKeepingLockInline(forSubscriber: true)
    guard refreshed.locked else { return false }
    // Out of line, with the loop: the common path keeps no values across iterations.
    if !refreshed.linked && !isAbandoned && isUnlinked.load(ordering: .relaxed) {
      return relinkForSubscriber()
    }
    releaseComputeLock()
    return true
  }

  /// The end of ``refreshForSubscriber()`` for a node found unlinked (compute lock held,
  /// refreshed): subscribes it to its inputs again, and refreshes again until it stays current.
  @inline(never)
  private func relinkForSubscriber() -> Bool {
    while true {
      subscribeUpstream()
      // An input that moved after the check above and before the links were back reached
      // nobody: the relink left the node stale. Bring it up to date again (linked now, so
      // a later change is pushed), or the reader would compare an unmoved version and
      // never hear of it.
      let relinkedStale = freshness.load(ordering: .sequentiallyConsistent) & Self.stale != 0
      releaseComputeLock()
      if !relinkedStale { return true }
      guard refreshKeepingLock(forSubscriber: true) else { return false }
      if isAbandoned || !isUnlinked.load(ordering: .relaxed) {
        releaseComputeLock()
        return true
      }
    }
  }

  /// ``refresh()`` that leaves the compute lock held on success (the caller reads the value
  /// and calls ``releaseComputeLock()``). `forSubscriber`: the reader is about to subscribe to
  /// this node, so a computation links its inputs even though the node has no subscriber yet.
  final func refreshKeepingLock(forSubscriber: Bool) -> Bool {
    refreshKeepingLockInline(forSubscriber: forSubscriber).locked
  }

  /// ``refreshKeepingLock(forSubscriber:)``, inlined into ``refreshForSubscriber()``: an
  /// observer's check of its derived inputs, the pull every change through them makes.
  /// `linked`: the refresh found the node linked to its inputs (false: not known).
  @inline(__always)
  private func refreshKeepingLockInline(forSubscriber: Bool) -> (locked: Bool, linked: Bool) {
    guard lockUnlessCycle() else { return (false, false) }
    guard beginRefresh() else { return (true, false) }
    if isUnlinked.load(ordering: .relaxed) && rs_validation_pass() == 0 {
      return (true, refreshInNewPass(forSubscriber: forSubscriber))
    }
    return (true, finishRefresh(forSubscriber: forSubscriber))
  }

  /// Compute lock held, refreshing: checks the inputs, then settles or recomputes. Returns
  /// whether the node is linked (false: not known).
  @inline(__always)
  private func finishRefresh(forSubscriber: Bool) -> Bool {
    if hasValue && !inputsChanged() { return settleUnchanged() }
    return recompute(forSubscriber: forSubscriber)
  }

  /// ``finishRefresh(forSubscriber:)`` of an unlinked node read outside any validation
  /// pass: opens one for the read, so each unlinked value it reaches (checking inputs, or
  /// read by a computation) is checked once (see ``validatedInPass``).
  @inline(never)
  private func refreshInNewPass(forSubscriber: Bool) -> Bool {
    rs_set_validation_pass(TrackingScope.nextStamp())
    defer { rs_set_validation_pass(0) }
    return finishRefresh(forSubscriber: forSubscriber)
  }

  /// Compute lock held, refreshing, with a value: whether an input's version moved since the
  /// last computation, checking them in read order and stopping at the first change. A
  /// derived input that needs a check of its own inputs hands the rest to
  /// ``inputsChanged(of:descendingFrom:)``.
  @inline(__always)
  private func inputsChanged() -> Bool {
    stackIndex = 0
    let check = checkInputsFromStackIndex()
    guard let input = check.descendInto else { return check.changed }
    return Self.inputsChanged(of: .passUnretained(self), descendingFrom: input)
  }

  /// The rest of `root`'s ``inputsChanged()`` once its input `first` needs a check of its
  /// own: a loop over the intrusive stack (see the type's notes). Each node on it is locked
  /// and refreshing; when its check ends it is recomputed or settled, unlocked, and its
  /// parent resumes at the input it was at.
  @inline(never)
  private static func inputsChanged(
    of root: Unmanaged<DerivedNode>, descendingFrom first: Unmanaged<DerivedNode>
  ) -> Bool {
    var node = root
    var next: Unmanaged<DerivedNode>? = first  // an input to descend into, or nil: resume `node`
    while true {
      if let input = next {
        input._withUnsafeGuaranteedRef {
          $0.stackParent = node
          $0.stackIndex = 0
        }
        node = input
      }
      let check = node._withUnsafeGuaranteedRef { $0.checkInputsFromStackIndex() }
      next = check.descendInto
      if next != nil { continue }
      // Ascend while a node's check is over.
      var changed = check.changed
      while true {
        if node.toOpaque() == root.toOpaque() { return changed }
        let up = node._withUnsafeGuaranteedRef { $0.endCheck(inputsChanged: changed) }
        node = up.parent
        if !up.moved { break }
        changed = true
      }
      node._withUnsafeGuaranteedRef { $0.stackIndex += 1 }
    }
  }

  /// Takes the compute lock, unless this thread is refreshing this node (checking its inputs
  /// or computing it), or waiting for it would close a cycle of threads each computing a value
  /// the next one waits for (see ``waits``): then the read is a cycle, which is reported
  /// (returns false, nothing held).
  @inline(__always)
  private func lockUnlessCycle() -> Bool {
    // A thread refreshing this node holds its lock, so a lock taken is no cycle: the check
    // waits for a failed attempt.
    if computeLock.tryLock() { return true }
    return lockUnlessCycleAcrossThreads()
  }

  /// The contended half of ``lockUnlessCycle()``: a read by the thread refreshing this node is
  /// a cycle; otherwise it waits for the holder, unless that closes a cycle of threads.
  @inline(never)
  private func lockUnlessCycleAcrossThreads() -> Bool {
    let thread = Self.currentThread
    // `currentThread` is a thread-local address, never 0 (no refresh running).
    if refreshingThread.load(ordering: .relaxed) == thread {
      reportCycle(acrossThreads: false)
      return false
    }
    var sightings = 0
    // Two values that read each other, computed at once on two threads, would otherwise each
    // wait for the other's lock forever (one thread alone finds itself refreshing the value).
    while !WaitForGraph.shared.beginWait(thread, for: .derivedValue(.passUnretained(self))) {
      // A deadlock stays one; a chain read while a holder was handing over does not.
      if computeLock.tryLock() { return true }
      sightings += 1
      if sightings == 3 {
        reportCycle(acrossThreads: true)
        return false
      }
      rs_thread_yield()
    }
    // The wait is taken in slices: a thread whose wait cannot end (one subscribing a value to
    // its inputs, see `lockInputUnlessHeldHere`) may close a cycle through this one after
    // this one began to wait. Seen on three slices in a row, the cycle is no handover.
    sightings = 0
    while !computeLock.acquireOrWait(milliseconds: 10) {
      sightings = WaitForGraph.shared.closesCycle(thread) ? sightings + 1 : 0
      if sightings == 3 {
        WaitForGraph.shared.endWaits(of: [thread])
        reportCycle(acrossThreads: true)
        return false
      }
    }
    WaitForGraph.shared.endWaits(of: [thread])
    return true
  }

  /// Out of line, so building the message costs the read path nothing.
  @inline(never)
  private func reportCycle(acrossThreads: Bool) {
    let how =
      acrossThreads
      ? "is being computed on another thread that waits for a value this thread is computing"
      : "reads itself"
    ObservationDiagnostics.report(
      "\(name) \(how) (a cycle through derived values); the read fails with "
        + "DerivedValueCycle. To fix: remove the read of \(name) from its own derivation "
        + "(directly or through another derived value)"
    )
  }

  /// Compute lock held: whether the value must be brought up to date (it is stale); false
  /// when it is current, or abandoned (read only by a dependent's check, which sees its moved
  /// version).
  @inline(__always)
  private func beginRefresh() -> Bool {
    guard !isAbandoned else { return false }
    let now = freshness.load(ordering: .acquiring)
    guard now & Self.stale != 0 else { return false }
    // Unlinked, it is always stale: current if this read's pass checked it already, with no
    // write on this thread since that check began.
    if isUnlinked.load(ordering: .relaxed) {
      let pass = rs_validation_pass()
      if pass != 0 && validatedInPass == pass { return false }
      validatedInPass = pass
    }
    // The refresh consumes the change and leaves the word stale until it publishes (see
    // `freshness`); a subscriber that checks it meanwhile counts it as changed. A mark left
    // by a walk while another holder had the lock is cleared first, so a walk during this
    // refresh can mark it again: a read-modify-write, after which this refresh reads that
    // walk's version.
    if now & Self.changedWhileLocked != 0 {
      _ = freshness.exchange(Self.stale, ordering: .sequentiallyConsistent)
    }
    // From here until the refresh ends, a read of this node by this thread is a cycle: one
    // that reads it while checking its inputs (a dependency switched to it) as much as one
    // inside its computation. Cleared when the check settles, or after the last computation
    // (a change missed while computing computes again, still detecting cycles).
    refreshingThread.store(Self.currentThread, ordering: .relaxed)
    if BuildConfiguration.isUnoptimised, let hook = DerivedNode.beginningRefresh.body { hook() }
    return true
  }

  /// Tests only, unoptimised builds only: called each time a refresh of a stale value begins
  /// (before its inputs are checked), on the refreshing thread.
  static let beginningRefresh = EngineTestHook()

  /// The end of an input's check in ``inputsChanged(of:descendingFrom:)``: recomputes or
  /// settles it, unlocks it, and returns its parent with whether the parent's input (this
  /// node) moved from the version the parent read.
  @inline(never)
  private func endCheck(inputsChanged changed: Bool) -> (
    parent: Unmanaged<DerivedNode>, moved: Bool
  ) {
    if changed { recompute(forSubscriber: false) } else { _ = settleUnchanged() }
    let parent = stackParent.unsafelyUnwrapped
    stackParent = nil
    // The parent, locked by this thread, holds this input: it stays alive.
    releaseComputeLock()
    return (parent, parent._withUnsafeGuaranteedRef { $0.inputAtStackIndexMoved() })
  }

  /// Compute lock held, refreshing: no input changed, so the value is current again. Returns
  /// whether the node is linked to its inputs.
  @inline(__always)
  private func settleUnchanged() -> Bool {
    refreshingThread.store(0, ordering: .relaxed)
    // Unlinked, nothing will mark it stale: the next read validates again (a path to it
    // in this read's pass does not, see `validatedInPass`). No walk reaches an unlinked node
    // and only compute-lock holders unlink, so the word is still the plain `stale` that
    // ``beginRefresh()`` left: the store (an exchange on x86, a third of an unobserved read's
    // atomics) only runs should that ever change.
    if isUnlinked.load(ordering: .acquiring) {
      if freshness.load(ordering: .relaxed) != Self.stale {
        freshness.store(Self.stale, ordering: .sequentiallyConsistent)
      }
      return false
    }
    publishCurrent(replacing: Self.stale, knownLinked: true)
    return true
  }

  /// Compute lock held, refreshing: recomputes and publishes the outcome as current. Returns
  /// true when the computation kept the node's links as they were (it is linked; false: not
  /// known).
  @discardableResult @inline(__always)
  private func recompute(forSubscriber: Bool) -> Bool {
    var linked = compute(forSubscriber: forSubscriber)
    if missedChangeWhileComputing {
      computeAgain(forSubscriber: forSubscriber)
      linked = false
    }
    refreshingThread.store(0, ordering: .relaxed)
    if BuildConfiguration.isUnoptimised, let pause = DerivedNode.pauseBeforePublishing.body {
      pause()
    }
    publishCurrent(replacing: Self.stale, knownLinked: linked)
    return linked
  }

  /// A derived input about to be checked (its compute lock not held by this thread): brings it
  /// up to date on the spot when that needs no check of its own inputs — it is current, has no
  /// value yet, or reading it is a cycle (reported) — and returns false; otherwise returns
  /// true with the input locked and refreshing.
  @inline(__always)
  private func refreshUnlessChecking() -> Bool {
    guard lockUnlessCycle() else { return false }
    guard beginRefresh() else {
      releaseComputeLock()
      return false
    }
    if hasValue { return true }
    computeFirstValue()
    return false
  }

  /// ``refreshUnlessChecking()`` for an input with no value yet: computes it and unlocks.
  @inline(never)
  private func computeFirstValue() {
    recompute(forSubscriber: false)
    releaseComputeLock()
  }

  /// Compute lock held, refreshing: checks the inputs from ``stackIndex`` on, in read
  /// order, stopping at the first change or at a derived input that needs a check of its own
  /// (returned, locked and refreshing, for the caller to descend into).
  @inline(__always)
  private func checkInputsFromStackIndex() -> (
    changed: Bool, descendInto: Unmanaged<DerivedNode>?
  ) {
    let entries = inputs.inputs
    while stackIndex < entries.count {
      let entry = entries[stackIndex]
      let moved = entry.source._withUnsafeGuaranteedRef { source -> Bool? in
        // A property: its version, as read with the entry (nothing ran since).
        guard source.isDerived else {
          return source.version.load(ordering: .sequentiallyConsistent) != entry.version
        }
        if unsafeDowncast(source, to: DerivedNode.self).refreshUnlessChecking() { return nil }
        return inputAtStackIndexMoved()
      }
      guard let moved else { return (false, Unmanaged.fromOpaque(entry.source.toOpaque())) }
      if moved { return (true, nil) }
      stackIndex += 1
    }
    return (false, nil)
  }

  /// Whether the input at ``stackIndex`` has moved from the version the last
  /// computation read (compute lock held).
  @inline(__always)
  private func inputAtStackIndexMoved() -> Bool {
    let entry = inputs.inputs[stackIndex]
    return entry.source._withUnsafeGuaranteedRef {
      $0.version.load(ordering: .sequentiallyConsistent) != entry.version
    }
  }
}
