import CReactiveState
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The graph side of a memoized derived value (``Computed``): both a source (others read
/// it) and a subscriber (it reads others).
///
/// Push-pull: a change walks down through derived nodes marking them stale (iteratively, in
/// ``ChangePropagation/notify(_:_:)``); nothing is computed then. A read pulls: a stale node
/// first brings its inputs up to date, in the order it read them, and recomputes only if one
/// of their versions moved — so each node recomputes at most once per change, an observer
/// never sees a mix of old and new inputs, and a recomputation that yields an equal value
/// stops there (its version does not move).
///
/// Ownership: a derived node holds its inputs strongly (`inputs`), inputs never hold it
/// (links are unowned). It is linked to its inputs only while it has subscribers: computed
/// without any (read outside tracking, or by an unobserved derived value), it keeps no
/// upstream links and validates its inputs' versions on every read instead (once per read, see
/// ``validatedInPass``); when its last subscriber goes away it drops its upstream links after
/// lingering through one change of its inputs (see ``noteOrphaned()``); when a subscribing
/// reader reads it again it links them back.
@usableFromInline
class DerivedNode: SourceNode, @unchecked Sendable {
  /// Propagation stack link (graph lock).
  @exclusivity(unchecked) final var nextToWalk: Unmanaged<DerivedNode>?
  /// The last propagation pass that reached this node (graph lock).
  @exclusivity(unchecked) final var walkedPass: UInt64 = 0
  /// Freshness of the cached value, in one word: ``stale`` (an input may have changed since
  /// the value was computed, or there is no value yet; it stays set while a refresh runs, so
  /// its version may still move), plus ``changedWhileLocked`` (a change reached the stale
  /// node while its compute lock was held), or ``lockFreeReadable`` (the value is current and
  /// its storage may be read without the compute lock); 0 is current. A refresh ends with a
  /// compare-exchange from `stale`, so a change marked meanwhile wins; every stale mark clears
  /// `lockFreeReadable`.
  ///
  /// A refresh writes nothing when it starts: a store there, followed by the loads of its
  /// inputs' versions, could be reordered after them (a store buffer), and a walk would find
  /// the node stale, skip it, and let the refresh publish a value computed before the change.
  /// Instead a walk that finds it stale looks at the compute lock (see ``markStale()``).
  @usableFromInline final let freshness = Atomic<UInt8>(DerivedNode.stale)
  static let stale: UInt8 = 1
  @inlinable static var lockFreeReadable: UInt8 { 2 }
  static let changedWhileLocked: UInt8 = 4

  /// Whether the value may differ from the one its version stands for: an input may have
  /// changed, or a refresh that may move the version is running.
  final var mayBeOutdated: Bool {
    freshness.load(ordering: .sequentiallyConsistent) & Self.stale != 0
  }
  /// A subscriber left while another thread held the compute lock, so the node could not
  /// drop its upstream links then: the holder re-checks when it releases the lock.
  final let hasPendingOrphanCheck = Atomic<Bool>(false)
  /// The node has no upstream links (it has no subscribers): nothing pushes staleness to it,
  /// so it stays stale and every read validates its inputs by version. Written with both the
  /// compute lock and the graph lock held.
  final let isUnlinked = Atomic<Bool>(true)
  /// Whether the running computation links what it reads (the node had subscribers when it
  /// started). Computing thread only.
  @exclusivity(unchecked) final var linksInputs = false
  /// Set (compute lock) when the value's owner is gone: the derivation and the cached outcome
  /// may be gone too, so the node never computes again. Its version moved when it was set, so
  /// a dependent still checking it sees a change.
  @exclusivity(unchecked) final var isAbandoned = false
  /// Whether a value (or error) is cached (compute lock).
  @exclusivity(unchecked) final var hasValue = false
  /// Whether the last outcome is a value its storage lets readers load without the lock.
  @exclusivity(unchecked) private var outcomeIsLockFreeReadable = false
  /// Set by the running computation (under the graph lock, on the computing thread) when an
  /// input it just linked had changed since it was read: no walk reached this node for that
  /// change, so the value may be outdated and nobody downstream would ever hear of it. The
  /// computation runs again before its outcome is published.
  @exclusivity(unchecked) final var missedChangeWhileComputing = false
  /// The node lost its last subscriber but keeps its upstream links for a while, counting
  /// the changes that reach it meanwhile (graph lock; see ``noteOrphaned()``).
  @exclusivity(unchecked) final var isLingering = false
  @exclusivity(unchecked) final var lingeringChanges: UInt8 = 0
  /// A lingering orphan may read this stale value, directly or through other stale derived
  /// values: a change that stops here counts for it (graph lock; see
  /// `DerivedNode+Lingering.swift`).
  @exclusivity(unchecked) final var holdsBackLingeringChange = false
  /// The orphan is on the list of those whose stale inputs are marked when the walk is over.
  @exclusivity(unchecked) final var isQueuedToMark = false
  /// False once a marking found that the lingering orphan reads no derived value, which its
  /// later changes then skip (graph lock).
  @exclusivity(unchecked) final var mayReadDerivedValues = true
  /// Which change of its inputs since it was orphaned (counting from 1) makes an orphan drop
  /// its upstream links; it keeps them through the ones before.
  static let lingeringLimit: UInt8 = 2
  /// The thread refreshing the node right now — checking its inputs or computing it — for
  /// cycle detection, 0 when none: the address of its thread-local state, unique among
  /// running threads and cheaper to get than a serial.
  final let refreshingThread = Atomic<UInt>(0)

  /// The calling thread, as ``refreshingThread`` records it.
  @inline(__always)
  static var currentThread: UInt { UInt(bitPattern: rs_current_thread()) }
  /// Serialises computations and validations of this node, and guards its dependency list:
  /// only a holder changes it (others use ``RawWordLock/tryLock()`` while holding the graph
  /// lock), so a computation walks and extends it with no graph lock unless a link changes.
  final let computeLock: RawWordLock
  /// What the last computation read, in order, with the versions it saw (compute lock).
  @exclusivity(unchecked) final var inputs: InputList
  /// How many inputs the side block (see `sideBlock`) holds before the list grows its own.
  private static let inlineInputCapacity = 4
  /// The lock word's size, rounded up to the inputs' alignment.
  private static var inlineInputsOffset: Int {
    let alignment = MemoryLayout<InputList.Input>.alignment
    return (MemoryLayout<rs_lock>.size + alignment - 1) / alignment * alignment
  }
  /// While a pull — a check of its inputs (see ``refreshKeepingLock(forSubscriber:)``) or a
  /// subscription (see ``subscribeUpstream()``) — has this node locked on its intrusive stack:
  /// the input it is at (compute lock; the node whose input it is: `stackParent`).
  @exclusivity(unchecked) final var stackIndex = 0
  /// The validation pass (`rs_validation_pass`) that was open when this node's last refresh
  /// while unlinked began (compute lock; 0: none). Unlinked, it stays stale, so without this
  /// every path to it within one read would check it again: in a graph of diamonds, a number
  /// of checks exponential in its depth. Within the pass it counts as current; a write on
  /// this thread (or an input's abandonment) renumbers the pass — also one made during the
  /// node's own refresh, which is why the number is taken when the refresh begins — and the
  /// next read opens a new one. Writes on other threads do not: a value checked earlier in
  /// the read is not checked again for them.
  @exclusivity(unchecked) final var validatedInPass: UInt64 = 0
  /// The last link confirmed by the running computation (computing thread).
  @exclusivity(unchecked) final var cursor: LinkPointer?
  private let scope = DerivedScope()

  // Layout: the rest of what a change through the node touches (its walk, refresh and
  // computation), before the fields other paths use, which follow.
  /// Runs the derivation with tracking active and stores its outcome; returns whether the
  /// value differs from the previous one (always true for the first value and for errors).
  /// A stored closure rather than an override, so a computation makes no virtual calls.
  private let evaluate: (UnsafeRawPointer) -> EvaluationOutcome
  /// What `evaluate` works on (the owner, unretained), set once right after initialisation.
  @exclusivity(unchecked) @usableFromInline final var evaluationSubject: UnsafeRawPointer?
  /// Objects that computations on this thread used and must not release while it holds
  /// this lock (compute lock; see ``hold(_:)``): nil, one object, or a ``HeldObjects``.
  @exclusivity(unchecked) final var heldUntilUnlocked: AnyObject?

  // Colder: diagnostics, deallocation, abandonment, interest updates, lingering, deep checks.
  /// Name used in diagnostics.
  @usableFromInline let name: String
  /// One allocation for the compute lock's word and the first ``inlineInputCapacity`` inputs,
  /// which every update touches together.
  private let sideBlock: UnsafeMutableRawPointer
  /// ``isAbandoned``, readable by a propagation walk (which holds the graph lock, not the
  /// compute lock). An abandoned node stays stale, so a walk would stop at it (a stale node's
  /// subscribers heard of the change that made it stale); instead every change of its inputs
  /// walks on through it, until its dependents, which see its moved version, stop reading it.
  /// A derived value created inside a derivation and freed when it returns is such a node.
  final let passesChangesOn = Atomic<Bool>(false)
  /// Set as the node is abandoned after a computation that read no input (`Computed { 42 }`):
  /// what it stands for can never change (see ``linkedInputChanged()``).
  final let abandonedReadingNothing = Atomic<Bool>(false)
  /// Worklist link of ``updateWillSetInterest(gained:)`` (graph lock; not the walk's
  /// `nextToWalk`: an update can happen during a walk, when a one-shot that fires unlinks).
  @exclusivity(unchecked) private var nextInterestUpdate: Unmanaged<DerivedNode>?
  /// The deallocation passes in which objects this value read — directly or through other
  /// derived values — went away while linked to it (graph lock). A registration that read
  /// such an object only through this value hears of it when the value goes (see
  /// ``ReactiveNode/derivedValueWillDeinitialize(_:objectsGone:)``).
  @exclusivity(unchecked) final var objectsGone = DeallocationPasses()
  /// The worklist links of the orphans whose lingering ended, and of those queued to mark
  /// their stale inputs (see `DerivedNode+Lingering.swift`).
  @exclusivity(unchecked) final var nextExpired: Unmanaged<DerivedNode>?
  @exclusivity(unchecked) final var nextToMark: Unmanaged<DerivedNode>?
  /// The node whose input this one is while a pull has it on its stack (see `stackIndex`).
  @exclusivity(unchecked) final var stackParent: Unmanaged<DerivedNode>?

  init(
    name: String,
    evaluate: @escaping (UnsafeRawPointer) -> EvaluationOutcome
  ) {
    self.name = name
    self.evaluate = evaluate
    sideBlock = malloc(
      Self.inlineInputsOffset + Self.inlineInputCapacity * MemoryLayout<InputList.Input>.stride)!
    computeLock = RawWordLock(word: sideBlock.bindMemory(to: rs_lock.self, capacity: 1))
    inputs = InputList(
      lending: (sideBlock + Self.inlineInputsOffset).bindMemory(
        to: InputList.Input.self, capacity: Self.inlineInputCapacity),
      capacity: Self.inlineInputCapacity)
    super.init(interest: .didSet, isDerived: true)
    scope.node = Unmanaged.passUnretained(self)
  }

  deinit {
    ChangePropagation.detachSubscribers(of: self)
    inputs.removeAll()
    free(sideBlock)
  }

  // MARK: - The derivation

  /// Called by the owner's deinitialiser: waits for a computation in progress, then makes the
  /// node inert (see `isAbandoned`).
  ///
  /// A dependent may keep the node itself a little longer (an observer holds its derived
  /// inputs until its next run), so the node drops its retained inputs (the derivation and
  /// what it captured live with the owner) but keeps its upstream links, through which
  /// changes reach that dependent (see `passesChangesOn`); they go when the node does.
  @usableFromInline
  final func abandon() {
    computeLock.lock()
    isAbandoned = true
    freshness.store(Self.stale, ordering: .sequentiallyConsistent)
    if hasValue && inputs.count == 0 { abandonedReadingNothing.store(true, ordering: .releasing) }
    passesChangesOn.store(true, ordering: .sequentiallyConsistent)
    moveVersion()
    // A change like a write: values found current earlier in a read on this thread check
    // again (see `validatedInPass`).
    rs_note_version_move()
    var abandonedInputs = inputs
    inputs = InputList()
    releaseComputeLock()
    // Outside the locks: releasing may deinitialise other derived values.
    abandonedInputs.removeAll()
  }

  /// Marks a new value (compute-lock holder, the only writer of a derived version, so no
  /// read-modify-write is needed). By two: odd versions mean "mutation in flight" to readers
  /// of property slots. Released: the lock's release, or the end of the refresh that a
  /// subscriber's check acquires (see ``publishCurrent(replacing:)``), publishes it.
  @inline(__always)
  private func moveVersion() {
    version.store(version.load(ordering: .relaxed) &+ 2, ordering: .releasing)
  }

  // MARK: - Push (graph lock held)

  /// From propagation: records that an input changes; returns whether to walk on to this
  /// node's subscribers (each node is walked at most once per change).
  final func invalidate(_ event: SourceEvent, pass: UInt64) -> Bool {
    guard walkedPass != pass else { return false }
    walkedPass = pass
    switch event {
    case .willSet:
      // Only subscribers that react to `willSet` care: a subgraph of `didSet` observers and
      // derived values without them is not walked. Also when stale: a continuous `willSet`
      // observer heard of the change that made it stale but read it before that change was
      // stored, and must hear of the next one too.
      return willSetListeners.load(ordering: .relaxed) != 0
    case .didSet:
      if isLingering { lingerThroughChange() }
      return markStale()
    case .deinitialized:
      return false
    }
  }

  /// A `didSet` walk reached the node (graph lock): marks it stale; returns whether to walk on
  /// to its subscribers.
  ///
  /// A node found stale was already announced to them, unless a refresh is under way: it
  /// consumed that change and may have read the versions of its inputs before this one
  /// moved. The walk moved the version (sequentially consistent) before it looks at the
  /// compute lock. A holder that took the lock before that reads its inputs after taking it,
  /// so it may have missed the change: the walk marks the word (`changedWhileLocked`), which
  /// makes the holder's publishing compare-exchange fail, and walks on. A lock taken later
  /// reads the new version. A lock found free after a holder published is read before the
  /// word is read again, so the walk sees that publication and marks it stale.
  ///
  /// A stale node the walk stops at may still owe the change to lingering orphans behind it
  /// (see ``holdsBackLingeringChange``).
  private func markStale() -> Bool {
    var lockChecked = false
    var lockHeld = false
    var now = freshness.load(ordering: .relaxed)
    while true {
      if now & Self.stale == 0 {
        // Current: a refresh starts only from stale, and the other writers of a current
        // node's word hold the graph lock or store stale too (abandoning) — a plain store.
        freshness.store(Self.stale, ordering: .releasing)
        return firstSubscriber != nil
      }
      if !lockChecked {
        lockChecked = true
        lockHeld = computeLock.isHeld
        // Sequentially consistent (a plain load on x86): it must not read a mark from before
        // the clearing exchange of a holder whose lock the load above saw.
        now = freshness.load(ordering: .sequentiallyConsistent)
        continue
      }
      if !lockHeld || now & Self.changedWhileLocked != 0 {
        if passesChangesOn.load(ordering: .relaxed) { return firstSubscriber != nil }
        if holdsBackLingeringChange { holdBackLingeringChange() }
        return false
      }
      let (marked, found) = freshness.compareExchange(
        expected: now, desired: now | Self.changedWhileLocked, ordering: .sequentiallyConsistent)
      if marked { return firstSubscriber != nil }
      now = found
    }
  }

  /// Under the graph lock: this node gained its first `willSet` listener (or lost its last),
  /// so it starts (or stops) wanting `willSet` from its inputs — and so on upstream through
  /// derived inputs, with a worklist instead of recursion. Links detached from their source's
  /// side no longer count there and are skipped.
  final func updateWillSetInterest(gained: Bool) {
    var pending: Unmanaged<DerivedNode>? = .passUnretained(self)
    while let next = pending {
      next._withUnsafeGuaranteedRef { node in
        pending = node.nextInterestUpdate
        node.nextInterestUpdate = nil
        if gained { node.interest.insert(.willSet) } else { node.interest.remove(.willSet) }
        var link = node.firstDependency
        while let edge = link {
          link = edge.pointee.nextDependency
          guard edge.pointee.previousSubscriber != edge else { continue }
          GraphLockPins.pin(edge.pointee.sourceNode)
          edge.pointee.sourceNode._withUnsafeGuaranteedRef { source in
            let count = source.willSetListeners.load(ordering: .relaxed)
            source.willSetListeners.store(gained ? count + 1 : count - 1, ordering: .relaxed)
            if source.isDerived && count == (gained ? 0 : 1) {
              let derived = unsafeDowncast(source, to: DerivedNode.self)
              derived.nextInterestUpdate = pending
              pending = .passUnretained(derived)
            }
          }
        }
      }
    }
  }

  override func derivedValueWillDeinitialize(_ link: LinkPointer, objectsGone: DeallocationPasses)
    -> DerivedValueDeparture
  {
    self.objectsGone.formUnion(objectsGone)
    unlinkDeparted(link)
    return .none
  }

  /// A property of an object being deallocated (see ``objectsGone``).
  override func sourceWillDeinitialize(_ link: LinkPointer) -> Bool {
    objectsGone.insert(ChangePropagation.detachPass)
    unlinkDeparted(link)
    return false
  }

  /// Under the graph lock: removes the link to an input that is going away.
  private func unlinkDeparted(_ link: LinkPointer) {
    // A departure is no change: the cached value (or the one being computed) stays valid,
    // since the source can never change again. It is not marked stale: nobody downstream
    // hears of it, and a stale node stops every later walk before its subscribers, so they
    // would never hear of a change of its other inputs again.
    if computeLock.tryLock() {
      ReactiveNode.unlink(link)
      computeLock.unlock()
    } else {
      // The holder owns the dependency list: only the source's side goes now.
      ReactiveNode.detachFromSource(link)
    }
  }

  /// An abandoned value takes over the inputs of an abandoned input that goes away (a
  /// temporary value made inside its derivation), so their changes still pass on through it.
  /// Its dependency list needs the compute lock: skipped when another thread holds it.
  override func takesOverInputsOfDepartingDerivedValue() -> Bool {
    passesChangesOn.load(ordering: .relaxed) && computeLock.tryLock()
  }

  override func finishTakingOverInputs() { computeLock.unlock() }

  /// Releases the compute lock, then performs an orphan check deferred to this holder and
  /// drops the object a computation held (see ``heldUntilUnlocked``).
  @inline(__always)
  final func releaseComputeLock() {
    if heldUntilUnlocked != nil { return releaseComputeLockThenHeldObject() }
    computeLock.unlock()
    if hasPendingOrphanCheck.load(ordering: .sequentiallyConsistent) {
      performDeferredOrphanChecks()
    }
  }

  @inline(never)
  private func performDeferredOrphanChecks() {
    while hasPendingOrphanCheck.load(ordering: .sequentiallyConsistent) {
      guard computeLock.tryLock() else { return }  // the new holder will see the flag
      GraphLock.withLock { dropUpstreamIfOrphaned() }
      computeLock.unlock()
    }
  }

  // MARK: - Pull

  /// Computes again after a computation that missed a change (see
  /// `missedChangeWhileComputing`): its links exist by now, so the next computation reads
  /// every change that completed, and a write still in flight will walk to this node.
  @inline(never)
  final func computeAgain(forSubscriber: Bool) {
    repeat { compute(forSubscriber: forSubscriber) } while missedChangeWhileComputing
  }

  override func missedChange(at link: LinkPointer) { missedChangeWhileComputing = true }

  /// Compute-lock holder, value current and stored (version moved), freshness still
  /// `expected`: publishes it as current — readable without the lock when the outcome allows
  /// it (a value, stored lock-free readable). An unlinked node stays stale: nothing marks it
  /// stale, so it must validate on every read. A compare-exchange, so a change marked
  /// meanwhile wins; releasing, so a subscriber that sees it sees the version. `knownLinked`:
  /// the caller saw the node linked since it took the lock (only its holders change that).
  final func publishCurrent(replacing expected: UInt8, knownLinked: Bool = false) {
    guard knownLinked || !isUnlinked.load(ordering: .relaxed) else { return }
    let current = outcomeIsLockFreeReadable ? Self.lockFreeReadable : 0
    guard current != expected else { return }
    _ = freshness.compareExchange(expected: expected, desired: current, ordering: .releasing)
  }

  /// A read that needs no compute lock: true when the value is current and lock-free
  /// readable (the caller then loads it from its storage); records the read in the current
  /// tracking scope. False sends the caller down ``refreshKeepingLock(forSubscriber:)`` —
  /// so does a read of this node from inside its own computation (it is never lock-free
  /// readable then), which reports the cycle there.
  @inlinable @inline(__always)
  final func beginLockFreeRead() -> Bool {
    guard freshness.load(ordering: .acquiring) == Self.lockFreeReadable else { return false }
    if BuildConfiguration.isUnoptimised, let pause = DerivedNode.pauseAfterLockFreeCheck.body {
      pause()
    }
    if let scope = rs_current_scope() {
      Unmanaged<TrackingScope>.fromOpaque(scope)._withUnsafeGuaranteedRef { $0.recordIfNew(self) }
    }
    return true
  }

  /// Tests only, unoptimised builds only (compiled out otherwise): called by a lock-free read
  /// after its freshness check, before the read is recorded, so a test can hold a reader there.
  @usableFromInline static let pauseAfterLockFreeCheck = EngineTestHook()

  /// Tests only, unoptimised builds only: called by a recomputation after it computed (and
  /// settled its links), before it publishes the value as current.
  static let pauseBeforePublishing = EngineTestHook()

  /// Runs the derivation with tracking active, stores its outcome and settles its links
  /// (compute-lock holder, refreshing). Returns true when they stay as they were, linked.
  @discardableResult @inline(__always)
  final func compute(forSubscriber: Bool) -> Bool {
    // Subscribers counted without the graph lock; a race with one arriving or leaving is
    // settled under the lock at the end.
    let links =
      forSubscriber || willSetListeners.load(ordering: .acquiring) != 0
      || didSetListeners.load(ordering: .acquiring) != 0
    linksInputs = links
    cursor = nil
    missedChangeWhileComputing = false
    inputs.restart()
    scope.reset()
    scope.begin()
    // Begun inside `withoutObservationTracking`: the enclosing computations stay reachable
    // (see ``outermostLocked(from:)``), and a write here is still theirs.
    scope.noteSuspendedScope()
    hasValue = true
    let outcome = evaluate(evaluationSubject.unsafelyUnwrapped)
    let changed = outcome.changed
    outcomeIsLockFreeReadable = outcome.lockFreeReadable
    scope.end()
    inputs.trim()
    // Before the links are settled: linking inputs may publish the value as current.
    if changed { moveVersion() }
    // The steady state: the same links as last time, still observed — no graph lock.
    if links && cursor == lastDependency && !isUnlinked.load(ordering: .relaxed)
      && !hasPendingOrphanCheck.load(ordering: .sequentiallyConsistent)
    {
      return true
    }
    let gainedSubscriber = GraphLock.withLock { () -> Bool in
      hasPendingOrphanCheck.store(false, ordering: .relaxed)
      if !linksInputs || (!forSubscriber && firstSubscriber == nil) {
        // Unobserved: no upstream links (including any from a time it was observed); reads
        // validate by version.
        unlinkAllDependencies()
        isUnlinked.store(true, ordering: .releasing)
        freshness.store(Self.stale, ordering: .sequentiallyConsistent)
        return firstSubscriber != nil
      }
      unlinkDependencies(after: cursor)
      isUnlinked.store(false, ordering: .releasing)
      return false
    }
    // A subscriber arrived while this computed unlinked: subscribe now.
    if gainedSubscriber { subscribeUpstream() }
    return false
  }

  /// A read of this node that failed because this thread is refreshing it, made by another
  /// derived value's computation (`scope`): still an input of that value, whose outcome came
  /// from the failure. Unrecorded, that outcome would stay cached after the cycle is gone —
  /// this node recomputed without reading the other — until another of its inputs changed.
  /// Recorded, its version move (or a later change pushed through it) brings the other value
  /// up to date. A node reading itself records nothing (it would be its own input).
  @inline(never)
  final func recordReadThatFoundACycle(in scope: TrackingScope) {
    guard let reader = scope as? DerivedScope, reader !== self.scope else { return }
    reader.recordIfNew(self)
  }
}
