import CReactiveState
import Synchronization

/// An active tracking scope on one thread: where `access` records reads.
///
/// The innermost scope of a thread lives in a C `_Thread_local` slot (one load to test), as
/// an unretained pointer: the function that installs a scope keeps it alive and restores the
/// previous scope before returning.
@usableFromInline
class TrackingScope {
  /// The scope that was current when this one was installed.
  @exclusivity(unchecked) private(set) final var parent: UnsafeMutableRawPointer?
  /// Unique per scope per thread (thread id in the high bits), used by
  /// ``PropertySlot/lastReaderStamp`` as a duplicate filter.
  @exclusivity(unchecked) @usableFromInline private(set) final var stamp: UInt64 = 0
  /// Call site and registrar of the last recorded read, as address bits (0: none): a repeated
  /// read of the same property costs two compares (of plain words: no optional's nil test).
  @exclusivity(unchecked) @usableFromInline final var lastSite: UInt = 0
  @exclusivity(unchecked) @usableFromInline final var lastStorage: UInt = 0
  /// The ``rs_storage_epoch`` in which `lastStorage` was recorded: a storage deallocated
  /// since then may have handed its address to a new one, which `lastStorage` must not match.
  @exclusivity(unchecked) @usableFromInline final var lastStorageEpoch: UInt64 = 0
  /// Whether another scope began inside this one since ``reset()`` (a derived value computed,
  /// a nested observation): it stamped the sources it read with its own stamp, so a later
  /// read of such a source here looks like a first read although it may not be one. Not set
  /// by one begun inside `withoutObservationTracking` (none is current then), nor by another
  /// thread's: see ``SourceNode/lastReaderStamp`` for why a duplicate is tolerated.
  @exclusivity(unchecked) final var hadNestedScope = false
  /// The scope that a `withoutObservationTracking` around this one suspended, when this one
  /// began there with no scope current (set by one-shot tracking, derived values'
  /// computations and continuous observers' runs, see ``noteSuspendedScope()``; meaningful
  /// only when `parent` is nil): a write made while this scope is active is that scope's own
  /// too, as it would be without this scope in between (a continuous observer's rerun limit
  /// counts on it).
  @exclusivity(unchecked) final var suspendedScope: UnsafeMutableRawPointer?

  init() {}

  /// Prepares the scope for a new run (fresh stamp, no cached read). `parent` is left as is:
  /// ``begin()`` sets it, and it is read only while the scope is active.
  @inline(__always)
  final func reset() {
    stamp = TrackingScope.nextStamp()
    lastSite = 0
    lastStorage = 0
    hadNestedScope = false
  }

  /// Records a read. Subclasses decide what a read means. Reached only through
  /// ``recordIfNew(_:)``, which found the source's stamp not this scope's: each override
  /// either marks it read (``SourceNode/markFirstRead(byScope:)``) or filters repeats with
  /// ``SourceNode/isFirstRead(byScope:)``.
  @usableFromInline func record(_ slot: SourceNode) {}

  /// Records a read that a scope nested in this one made at `version` (a one-shot's reads
  /// merge upward as its `apply` ends): a change made since then is one this scope missed, as
  /// its own read would have been. Scopes that compare versions override it.
  func record(_ slot: SourceNode, readAt version: UInt64) { record(slot) }

  /// Records a read unless this scope already recorded `source` (its stamp says so): a
  /// repeated read costs a load and a compare, no call.
  @inlinable @inline(__always)
  final func recordIfNew(_ source: SourceNode) {
    if source.lastReaderStamp.load(ordering: .relaxed) != stamp { record(source) }
  }

  /// Whether this scope's reads become subscriptions (so a derived value it reads must be
  /// linked to its own inputs). False for the computation of an unobserved derived value.
  var subscribesToReads: Bool { true }

  /// A derived value's computation keeps `object` until this thread has released its compute
  /// locks (see ``DerivedNode/hold(_:)``); other scopes hold no lock and ignore it.
  func holdUntilComputationEnds(_ object: AnyObject) {}

  /// The mutating thread itself changed `slot` while this scope was active (e.g. `+= 1`
  /// inside `apply`): a scope must not treat its own write as a change it missed. `version`
  /// is the one that write's last move left the slot at; a later move of it is not this
  /// write's. Called in the order of the thread's moves (a write nested in another's delivery
  /// is noted after it).
  func noteOwnMutation(_ slot: SourceNode, version: UInt64) {}

  /// Makes this scope current (remembering the previous one as `parent`).
  @inline(__always)
  final func begin() {
    let current = rs_current_scope()
    parent = current
    if let current {
      Unmanaged<TrackingScope>.fromOpaque(current)._withUnsafeGuaranteedRef {
        $0.hadNestedScope = true
      }
    }
    rs_set_current_scope(Unmanaged.passUnretained(self).toOpaque())
  }

  /// After ``begin()``: remembers the scope suspended by an enclosing
  /// `withoutObservationTracking` (see ``suspendedScope``). Stored whether or not a scope was
  /// current, with no test: readers take `parent` first, so it only counts when that is nil.
  @inline(__always)
  final func noteSuspendedScope() {
    suspendedScope = rs_current_thread().pointee.untracked_scope
  }

  /// Restores the scope that was current before ``begin()``.
  @inline(__always)
  final func end() {
    rs_set_current_scope(parent)
  }

  /// The innermost active scope on this thread.
  static var current: TrackingScope? {
    rs_current_scope().map { Unmanaged<TrackingScope>.fromOpaque($0).takeUnretainedValue() }
  }

  /// Walks the current thread's scope chain after a write of `slot` on this thread moved its
  /// version to `version` (the write's last move), before the write is delivered: the value
  /// the move returned, not a later load, which another thread's write during the delivery
  /// may have moved on (that one is a change the scopes missed).
  @inline(__always)
  static func noteMutationOnCurrentThread(_ slot: SourceNode, movedTo version: UInt64) {
    let thread = rs_current_thread()
    // Inside `withoutObservationTracking`, the suspended scope still owns the write.
    guard let innermost = thread.pointee.scope ?? thread.pointee.untracked_scope else { return }
    noteMutation(of: slot, movedTo: version, from: innermost)
  }

  /// ``noteMutationOnCurrentThread(_:movedTo:)`` with a scope active or suspended (out of
  /// line: most writes happen outside any).
  @inline(never)
  private static func noteMutation(
    of slot: SourceNode, movedTo version: UInt64, from innermost: UnsafeMutableRawPointer
  ) {
    var pointer = innermost
    while true {
      let scope = Unmanaged<TrackingScope>.fromOpaque(pointer).takeUnretainedValue()
      scope.noteOwnMutation(slot, version: version)
      // A scope begun inside `withoutObservationTracking` leads on to the suspended one.
      guard let next = scope.parent ?? scope.suspendedScope else { return }
      pointer = next
    }
  }

  private static let threadCounter = Atomic<UInt64>(0)

  /// A number no other stamp on any thread equals (the thread's identity, then its serial).
  @inline(__always)
  static func nextStamp() -> UInt64 {
    let thread = rs_current_thread()
    if thread.pointee.serial == 0 { assignThreadIdentity() }
    thread.pointee.serial &+= 1
    return thread.pointee.serial
  }

  @inline(never)
  private static func assignThreadIdentity() {
    // The thread's state is looked up here: a caller that passed its address would compute
    // it on every call, for this once-per-thread path.
    let thread = rs_current_thread()
    let id = threadCounter.wrappingAdd(1, ordering: .relaxed).newValue
    thread.pointee.serial = id << 40
  }

  /// A small unique number for the calling thread (never 0).
  static var currentThreadIdentity: UInt64 {
    let thread = rs_current_thread()
    if thread.pointee.serial == 0 { assignThreadIdentity() }
    return thread.pointee.serial >> 40
  }
}
