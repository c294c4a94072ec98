import CReactiveState
import Synchronization

/// The mutation edges a subscriber reacts to.
struct MutationInterest: OptionSet {
  let rawValue: UInt8
  static let willSet = MutationInterest(rawValue: 1)
  static let didSet = MutationInterest(rawValue: 2)
}

/// A node others can depend on: a property slot or a derived value. The listener counts are
/// atomic so a writer can skip the lock for an edge (`willSet`/`didSet`) nobody listens to.
@usableFromInline
class SourceNode: ReactiveNode, @unchecked Sendable {
  @exclusivity(unchecked) final var firstSubscriber: LinkPointer?
  @exclusivity(unchecked) final var lastSubscriber: LinkPointer?
  /// Bumped whenever the source's value may have changed: a property slot at `willSet`
  /// (becomes odd) and at `didSet` (even again); a derived value by two when a recomputation
  /// produced a different value. A reader remembers the version it saw and compares later
  /// (missed-change detection at install, validation of derived values).
  final let version = Atomic<UInt64>(0)
  /// Thread that last began a mutation (made `version` odd): a scope re-armed on that thread
  /// while the mutation is in flight (inside its `willSet` callbacks) reads "before" it, as
  /// in Observation, instead of treating it as a missed change.
  final let mutatingThread = Atomic<UInt64>(0)
  /// Stamp of the last tracking scope that recorded this source: a cheap duplicate filter,
  /// one word per source. Another scope's read in between — on another thread, or one begun
  /// inside `withoutObservationTracking`, which cannot tell the enclosing scope — overwrites
  /// it, so a re-read looks new and the scope may record the source twice. Every scope
  /// tolerates that: a one-shot's install links each source once (``installMark``), a
  /// derived value is walked once per change, and a continuous observer that a walk reaches
  /// through two links runs once (see `ContinuousObserver.enqueue`).
  @usableFromInline final let lastReaderStamp = Atomic<UInt64>(0)

  /// Whether this is the first read of the source by the scope stamped `stamp` (and marks
  /// it read). It may say so of a re-read (see ``lastReaderStamp``), which callers tolerate.
  @inline(__always)
  final func isFirstRead(byScope stamp: UInt64) -> Bool {
    if lastReaderStamp.load(ordering: .relaxed) == stamp { return false }
    lastReaderStamp.store(stamp, ordering: .relaxed)
    return true
  }
  /// Marks the source read by the scope stamped `stamp`, for a scope's `record(_:)`, which is
  /// reached only through ``TrackingScope/recordIfNew(_:)``: that found it not read yet.
  @inline(__always)
  final func markFirstRead(byScope stamp: UInt64) {
    lastReaderStamp.store(stamp, ordering: .relaxed)
  }
  /// Install pass that last linked this source (duplicate filter under the graph lock).
  @exclusivity(unchecked) final var installMark: UInt64 = 0
  /// The ``ObservationWave`` of this source's last completed `didSet` walk; 0 after a new
  /// subscriber was linked or a walk reached a derived value. Written under the graph lock,
  /// read without it by a write deciding whether it may skip its walk (see
  /// ``ChangePropagation/notify(_:_:firstCalling:)``).
  final let didSetWalkWave = Atomic<UInt64>(0)

  /// Whether a `didSet` walk of this source completed in the current wave and nothing linked
  /// to it since: every subscriber that walk reached is still queued or dirty, so a write
  /// whose version move is done may skip its own walk, without the graph lock.
  ///
  /// Both sides of each race order a store before a load with a full barrier: the write's
  /// version increment, then these loads; a linker's reset of the mark, then its check of the
  /// version it read; a consumer's wave advance, then its reads. So either the write sees the
  /// reset or the advance (and walks), or the linker or consumer sees the new version. A
  /// main-thread-confined property moves its version with a plain store: a fence first.
  @inline(__always)
  final var hasCurrentDidSetWalk: Bool {
    if isConfinedToMainThread { rs_full_fence() }
    return didSetWalkWave.load(ordering: .sequentiallyConsistent) == ObservationWave.currentValue
  }
  /// Set under the graph lock when the source is gone (its registrar was deallocated).
  @exclusivity(unchecked) final var isDetached = false
  /// A property of a ``MainActorObservationRegistrar``: the main thread moves its version and
  /// parks its one-shots with plain stores, so another thread that links to it and then
  /// compares versions issues a process-wide barrier, not just a fence (see
  /// ``ReactiveNode/fenceAfterLinking(to:)``). Set before the source is
  /// published.
  @exclusivity(unchecked) final var isConfinedToMainThread = false
  /// Set, then fenced, by the first plain version move (the main thread writing a confined
  /// property). Until then every move was atomic — the main actor may run on another thread,
  /// as in some test harnesses — and a linker needs no process-wide barrier.
  final let hadPlainWrite = Atomic<Bool>(false)

  /// Whether a thread that just linked to this source (and fenced) must also issue a
  /// process-wide barrier before comparing versions: a confined property that the main
  /// thread writes with plain stores, linked from another thread.
  @inline(__always)
  final var needsProcessBarrierAfterLinking: Bool {
    isConfinedToMainThread && hadPlainWrite.load(ordering: .relaxed)
      && rs_is_main_thread() == 0
  }
  /// Subscribers that react to `willSet` / to `didSet`, readable without the lock.
  final let willSetListeners = Atomic<Int>(0)
  final let didSetListeners = Atomic<Int>(0)

  init() { super.init(interest: []) }

  init(interest: MutationInterest, isDerived: Bool) {
    super.init(interest: interest, isDerived: isDerived)
  }

  /// The key path an event about this source reports (property slots); nil otherwise.
  var changeKeyPath: AnyKeyPath? { nil }

  /// Whether a read recorded at `readVersion` may have missed a change, judged now.
  final func changedSince(_ readVersion: UInt64) -> Bool {
    // A stale derived value may change when next pulled, and one being recomputed may move
    // its version without notifying anyone: count either as changed.
    if isDerived
      && unsafeDowncast(self, to: DerivedNode.self).mayBeOutdated
    {
      return true
    }
    return versionChangedSince(readVersion)
  }

  /// ``changedSince(_:)`` of a source that is not a derived value (a property slot): its
  /// version says it all.
  @inline(__always)
  final func versionChangedSince(_ readVersion: UInt64) -> Bool {
    let now = version.load(ordering: .sequentiallyConsistent)
    if now != readVersion { return true }
    // Odd: a mutation was in flight when the value was read. On its own thread we are inside
    // its willSet callbacks (the toolchain's "re-arm reads the old value" case); elsewhere
    // the store may land after our read.
    return now & 1 == 1
      && mutatingThread.load(ordering: .relaxed) != TrackingScope.currentThreadIdentity
  }

  /// Under the graph lock, when a link to a subscriber with `interest` is added.
  ///
  /// Counts change only under the lock, so plain stores suffice; a linker that then checks
  /// versions issues a sequentially consistent fence first, pairing with the writer's
  /// version increment (one of the two sees the other).
  @inline(__always)
  final func addListener(_ interest: MutationInterest) {
    if interest.contains(.willSet) { countWillSetListener(added: true) }
    if interest.contains(.didSet) {
      didSetListeners.store(didSetListeners.load(ordering: .relaxed) + 1, ordering: .relaxed)
    }
  }

  /// Under the graph lock, when such a link is removed. A writer that still sees the old
  /// count only takes the lock and finds nothing to notify.
  @inline(__always)
  final func removeListener(_ interest: MutationInterest) {
    if interest.contains(.willSet) { countWillSetListener(added: false) }
    if interest.contains(.didSet) {
      didSetListeners.store(didSetListeners.load(ordering: .relaxed) - 1, ordering: .relaxed)
    }
  }

  /// Under the graph lock: counts a `willSet` listener in or out. A derived value that gains
  /// its first one (or loses its last) starts (or stops) wanting `willSet` from its own
  /// inputs, so a `willSet` walk only enters subgraphs where someone reacts to it.
  @inline(__always)
  private func countWillSetListener(added: Bool) {
    let count = willSetListeners.load(ordering: .relaxed)
    willSetListeners.store(added ? count + 1 : count - 1, ordering: .relaxed)
    if isDerived && count == (added ? 0 : 1) {
      unsafeDowncast(self, to: DerivedNode.self).updateWillSetInterest(gained: added)
    }
  }
}
