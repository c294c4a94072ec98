/// An orphan — a derived value whose last subscriber went away — keeps its upstream links
/// through a few changes of its inputs before it drops them.
///
/// A change counts for a lingering orphan when a walk reaches it, or stops at a stale derived
/// value it reads, directly or through other stale derived values. A walk stops at a stale
/// value (its subscribers heard of the change that made it stale), so an orphan that reads
/// derived values would otherwise hear only the first change: nothing would end its lingering.
/// Such stale values are marked (``holdsBackLingeringChange``) while an orphan lingers stale
/// behind them; a walk that stops at a marked value passes the change on to the orphans behind
/// it, through marked values only, when it is over (see ``endDidSetWalk(pass:)``). Nothing else
/// is walked: a change stopping at an unmarked stale value costs one more load.
extension DerivedNode {
  /// The last subscriber went away (graph lock). The upstream links stay until the
  /// ``lingeringLimit``-th change of an input after that, which drops them, so a subscriber
  /// that comes back before — a dynamic dependency switching back and forth, a one-shot
  /// re-armed after it fired — finds them in place instead of unlinking and relinking every
  /// time. A recomputation with no subscriber drops them at once (an unobserved
  /// computation links nothing).
  ///
  /// A stale value orphaned because a dependent's lingering ended drops its links with it (it
  /// already heard a change it did not consume).
  func noteOrphaned() {
    guard firstSubscriber == nil, !isUnlinked.load(ordering: .relaxed) else { return }
    if Self.isDroppingExpiredOrphans && mayBeOutdated { return queueToDropUpstream() }
    isLingering = true
    lingeringChanges = 0
    mayReadDerivedValues = true
    // Current, its derived inputs are current too: a change of theirs walks on to it.
    if mayBeOutdated { markStaleInputsSoon() }
  }

  /// A change reached a lingering orphan (graph lock, inside a walk): at the last change it
  /// lingers through, unless a subscriber came back, it is queued to drop its upstream links
  /// when the walk is over (see ``dropExpiredOrphans()``); before, its stale inputs are marked
  /// then, so that the next change reaches it through them.
  @inline(never)
  final func lingerThroughChange() {
    guard firstSubscriber == nil else {
      isLingering = false
      return
    }
    lingeringChanges += 1
    guard lingeringChanges >= Self.lingeringLimit else {
      if mayReadDerivedValues { queueToMark() }
      return
    }
    queueToDropUpstream()
  }

  /// Queues the orphan to drop its upstream links when the walk is over (graph lock).
  private func queueToDropUpstream() {
    isLingering = false
    nextExpired = Self.expiredOrphans
    Self.expiredOrphans = .passUnretained(self)
  }

  /// Whether ``dropExpiredOrphans()`` is draining its queue (graph lock).
  nonisolated(unsafe) private static var isDroppingExpiredOrphans = false

  /// Orphans whose lingering ended during the current walk, linked by `nextExpired` (graph
  /// lock). Unretained: a node's deinitialiser takes the graph lock, so a queued node stays
  /// valid until the walk's critical section ends, and that is when the queue is drained.
  nonisolated(unsafe) private static var expiredOrphans: Unmanaged<DerivedNode>?

  /// After a walk, still under the graph lock: the orphans whose lingering ended drop their
  /// upstream links. Not during the walk, which may be iterating the very subscriber list one
  /// of those links is on.
  @inline(__always)
  static func dropExpiredOrphans() {
    if expiredOrphans != nil { dropExpiredOrphanList() }
  }

  private static func dropExpiredOrphanList() {
    isDroppingExpiredOrphans = true
    defer { isDroppingExpiredOrphans = false }
    while let next = expiredOrphans {
      next._withUnsafeGuaranteedRef { orphan in
        expiredOrphans = orphan.nextExpired
        orphan.nextExpired = nil
        orphan.dropUpstream()
      }
    }
  }

  /// Drops upstream links now (graph lock). When another thread holds the compute lock, the
  /// flag makes that holder do it when it releases the lock.
  private func dropUpstream() {
    hasPendingOrphanCheck.store(true, ordering: .sequentiallyConsistent)
    guard computeLock.tryLock() else { return }
    dropUpstreamIfOrphaned()
    computeLock.unlock()
  }

  /// Graph and compute locks held: drops the upstream links if nothing subscribes any more.
  func dropUpstreamIfOrphaned() {
    hasPendingOrphanCheck.store(false, ordering: .relaxed)
    guard firstSubscriber == nil, !isUnlinked.load(ordering: .relaxed) else { return }
    unlinkAllDependencies()
    isUnlinked.store(true, ordering: .releasing)
    freshness.store(Self.stale, ordering: .sequentiallyConsistent)
  }
}

// MARK: - Changes held back by stale values

extension DerivedNode {
  /// Whether a propagation walk is under way (graph lock): marking then waits for its end, as
  /// the walk uses the worklist link marking uses (`nextToWalk`) and may still make stale, and
  /// walk through, values the marking would skip as current.
  nonisolated(unsafe) static var isInsideWalk = false

  /// Stale values marked ``holdsBackLingeringChange`` that the current walk stopped at,
  /// linked by `nextToWalk` (graph lock; unretained, as ``expiredOrphans``).
  nonisolated(unsafe) private static var heldBackChanges: Unmanaged<DerivedNode>?

  /// Lingering orphans whose stale inputs are marked when the walk is over, linked by
  /// `nextToMark` (graph lock; unretained, as ``expiredOrphans``).
  nonisolated(unsafe) private static var orphansToMark: Unmanaged<DerivedNode>?

  /// A walk stopped at this marked stale value (graph lock): the change is passed on to the
  /// lingering orphans behind it when the walk is over. The walk does not use this node's
  /// `nextToWalk`: it reaches a node once and stacks only those it walks on through.
  @inline(never)
  final func holdBackLingeringChange() {
    nextToWalk = Self.heldBackChanges
    Self.heldBackChanges = .passUnretained(self)
  }

  /// After a `didSet` walk that reached derived values, still under the graph lock: passes
  /// the changes held back on to the lingering orphans behind them, then drops the upstream
  /// links of the orphans whose lingering ended.
  @inline(__always)
  static func endDidSetWalk(pass: UInt64) {
    if heldBackChanges != nil { passHeldBackChanges(pass: pass) }
    dropExpiredOrphans()
  }

  /// After every walk, still under the graph lock: marks the stale inputs of the orphans
  /// queued meanwhile.
  @inline(__always)
  static func endWalk() {
    if orphansToMark != nil { markStaleInputsOfQueuedOrphans() }
    isInsideWalk = false
  }

  /// From the stale values the walk stopped at, down through marked values only: each
  /// lingering orphan reached that the walk did not reach counts the change. The marks on the
  /// way are cleared; an orphan still lingering after it counted marks its inputs again.
  @inline(never)
  private static func passHeldBackChanges(pass: UInt64) {
    while let next = heldBackChanges {
      next._withUnsafeGuaranteedRef { node in
        heldBackChanges = node.nextToWalk
        node.holdsBackLingeringChange = false
        var link = node.firstSubscriber
        while let edge = link {
          link = edge.pointee.nextSubscriber
          let subscriberNode = edge.pointee.subscriberNode
          GraphLockPins.pin(subscriberNode)
          guard subscriberNode._withUnsafeGuaranteedRef({ $0.isDerived }) else { continue }
          Unmanaged<DerivedNode>.fromOpaque(subscriberNode.toOpaque())._withUnsafeGuaranteedRef {
            derived in
            guard derived.walkedPass != pass else { return }
            derived.walkedPass = pass
            if derived.isLingering { derived.lingerThroughChange() }
            if derived.holdsBackLingeringChange {
              derived.nextToWalk = heldBackChanges
              heldBackChanges = .passUnretained(derived)
            }
          }
        }
      }
    }
  }

  /// Queues the orphan to mark its stale inputs when the walk is over (graph lock).
  private func queueToMark() {
    guard !isQueuedToMark else { return }
    isQueuedToMark = true
    nextToMark = Self.orphansToMark
    Self.orphansToMark = .passUnretained(self)
  }

  /// Marks this stale orphan's stale inputs: now, or when the walk under way is over.
  private func markStaleInputsSoon() {
    if Self.isInsideWalk { return queueToMark() }
    markStaleInputs(pass: ChangePropagation.nextPass())
  }

  @inline(never)
  private static func markStaleInputsOfQueuedOrphans() {
    let pass = ChangePropagation.nextPass()
    while let next = orphansToMark {
      next._withUnsafeGuaranteedRef { orphan in
        orphansToMark = orphan.nextToMark
        orphan.nextToMark = nil
        orphan.isQueuedToMark = false
        guard orphan.isLingering, orphan.firstSubscriber == nil,
          !orphan.isUnlinked.load(ordering: .relaxed)
        else { return }
        orphan.markStaleInputs(pass: pass)
      }
    }
  }

  /// Marks ``holdsBackLingeringChange`` on this orphan's stale derived inputs, and on theirs,
  /// and so on (graph lock, no walk under way); each node once per `pass`. A current value is
  /// not marked, nor looked through: a change that reaches it walks on.
  private func markStaleInputs(pass: UInt64) {
    var marking: Unmanaged<DerivedNode>? = .passUnretained(self)
    var pending: Unmanaged<DerivedNode>?
    var readsDerivedValues = false
    while let current = marking {
      current._withUnsafeGuaranteedRef { node in
        var link = node.firstDependency
        while let edge = link {
          link = edge.pointee.nextDependency
          // Detached from the source's side: no change comes through it.
          guard edge.pointee.previousSubscriber != edge else { continue }
          let sourceNode = edge.pointee.sourceNode
          GraphLockPins.pin(sourceNode)
          guard sourceNode._withUnsafeGuaranteedRef({ $0.isDerived }) else { continue }
          readsDerivedValues = true
          Unmanaged<DerivedNode>.fromOpaque(sourceNode.toOpaque())._withUnsafeGuaranteedRef {
            input in
            guard input.walkedPass != pass else { return }
            input.walkedPass = pass
            guard input.mayBeOutdated else { return }
            input.holdsBackLingeringChange = true
            input.nextToWalk = pending
            pending = .passUnretained(input)
          }
        }
      }
      marking = pending
      pending = pending?._withUnsafeGuaranteedRef { $0.nextToWalk }
    }
    // Its inputs stay as they are while it lingers (a computation with no subscriber unlinks
    // them all): no later change of its needs marking.
    if !readsDerivedValues { mayReadDerivedValues = false }
  }
}
