/// An orphan — a derived value whose last subscriber went away — keeps its upstream links
/// through a few changes of its inputs before it drops them.
extension DerivedNode {
  /// The last subscriber went away (graph lock). The upstream links stay through the next
  /// ``lingeringLimit`` changes of an input, so a subscriber that comes back meanwhile — a
  /// dynamic dependency switching back and forth, a one-shot re-armed after it fired — finds
  /// them in place instead of unlinking and relinking every time; the change after that
  /// drops them. A recomputation with no subscriber drops them at once (an unobserved
  /// computation links nothing).
  ///
  /// A stale value orphaned because a dependent's lingering ended drops its links with it (it
  /// already heard a change it did not consume): its derived inputs, stale too, pass on no
  /// later change until read, so no change might ever reach it to end its lingering.
  func noteOrphaned() {
    guard firstSubscriber == nil, !isUnlinked.load(ordering: .relaxed) else { return }
    if Self.isDroppingExpiredOrphans && mayBeOutdated { return queueToDropUpstream() }
    isLingering = true
    lingeringChanges = 0
  }

  /// A change reached a lingering orphan (graph lock, inside a walk): at the last change it
  /// lingers through, unless a subscriber came back, it is queued to drop its upstream links
  /// when the walk is over (see ``dropExpiredOrphans()``).
  @inline(never)
  final func lingerThroughChange() {
    guard firstSubscriber == nil else {
      isLingering = false
      return
    }
    lingeringChanges += 1
    guard lingeringChanges >= Self.lingeringLimit else { return }
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
