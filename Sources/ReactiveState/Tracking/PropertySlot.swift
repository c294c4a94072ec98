import CReactiveState
import Synchronization

/// The dependency source for one observable property: (registrar, key path value).
///
/// Slots are created lazily, on the first tracked read of a property, and live as long as
/// their registrar (plus any in-flight access list that recorded them). A registrar finds a
/// slot by key path through a short immutable list: key-path objects are compared by identity
/// first (a literal at one call site is one cached object) and by `==` only on a miss, after
/// which the other object is remembered as an alias so the next lookup is a pointer compare.
@usableFromInline
final class PropertySlot: SourceNode, @unchecked Sendable {
  /// The key path this slot stands for (as first read).
  let keyPath: AnyKeyPath
  /// A second key-path object known to be `==` to `keyPath` (typically the setter's literal),
  /// stored retained as a raw pointer so lookups can compare identities lock-free.
  private let alias = Atomic<UnsafeMutableRawPointer?>(nil)
  /// Next slot of the same registrar; immutable after publication (owned through `next`,
  /// walked through `nextPointer` without reference counting).
  let next: PropertySlot?
  let nextPointer: UnsafeMutableRawPointer?
  /// Identity of `keyPath`'s object, for lock-free pointer comparison.
  let keyPathPointer: UnsafeMutableRawPointer
  /// Call sites (see ``callSiteIdentity(_:)``) known to name this slot's key path.
  private let site0 = Atomic<UInt>(0)
  private let site1 = Atomic<UInt>(0)
  private let site2 = Atomic<UInt>(0)
  private let site3 = Atomic<UInt>(0)

  /// Set (once, with a full fence) before the first tracking scope that records this slot
  /// reads its version. Until then nobody can hold a version of it, so a `withMutation`
  /// write skips the version protocol and only re-checks this flag after a fence at its end
  /// (see ``RegistrarStorage/didSet(_:announced:)``).
  private let everRead = Atomic<Bool>(false)

  /// A registration that depends on this property and nothing else (a one-shot or a
  /// continuous observer), parked here instead of being linked into the graph (see
  /// `PropertySlot+Parking.swift`).
  let parkedRegistration = Atomic<UInt64>(0)
  /// For a parked continuous observer: the version whose write it waits for, with its word's
  /// tag (see `PropertySlot+ParkedContinuous.swift`).
  let parkedVersion = Atomic<UInt64>(0)

  /// Position in the registrar's list (0 for the first slot created).
  let ordinal: Int
  /// A number no other registrar's slots carry, the same in every slot of one registrar: it
  /// tells a property token filled for this registrar from one filled for an earlier
  /// registrar whose storage had the same address (see ``_ObservedPropertyToken``).
  @usableFromInline let registrarSerial: UInt64
  /// The slots of a registrar with many observed properties; kept by the head slot only
  /// (graph lock).
  @exclusivity(unchecked) var wideIndex: WideSlotIndex?

  init(
    keyPath: AnyKeyPath, next: PropertySlot?, ordinal: Int, registrarSerial: UInt64,
    confinedToMainThread: Bool
  ) {
    self.ordinal = ordinal
    self.registrarSerial = registrarSerial
    self.keyPath = keyPath
    self.next = next
    self.nextPointer = next.map { Unmanaged.passUnretained($0).toOpaque() }
    self.keyPathPointer = Unmanaged.passUnretained(keyPath).toOpaque()
    super.init()
    isConfinedToMainThread = confinedToMainThread
  }

  override var changeKeyPath: AnyKeyPath? { keyPath }

  deinit {
    // A registrar detaches its slots (closing the word) before they can go; this only keeps
    // a slot that somehow never was from leaking its registration.
    discardParkedRegistration()
    if let alias = alias.load(ordering: .acquiring) {
      Unmanaged<AnyKeyPath>.fromOpaque(alias).release()
    }
  }

  /// Whether `candidate` is this slot's key path (by identity, alias, then `==`).
  @inline(__always)
  func matchesIdentity(_ pointer: UnsafeMutableRawPointer) -> Bool {
    keyPathPointer == pointer || alias.load(ordering: .relaxed) == pointer
  }

  /// Whether `site` is a known call site of this slot's key path.
  @inline(__always)
  func isReached(from site: UnsafeRawPointer) -> Bool {
    let bits = UInt(bitPattern: site)
    return site0.load(ordering: .relaxed) == bits || site1.load(ordering: .relaxed) == bits
      || site2.load(ordering: .relaxed) == bits || site3.load(ordering: .relaxed) == bits
  }

  /// Remembers `site` in a free call-site word.
  func remember(site: UnsafeRawPointer) {
    let bits = UInt(bitPattern: site)
    if site0.compareExchange(expected: 0, desired: bits, ordering: .relaxed).exchanged { return }
    if site1.compareExchange(expected: 0, desired: bits, ordering: .relaxed).exchanged { return }
    if site2.compareExchange(expected: 0, desired: bits, ordering: .relaxed).exchanged { return }
    if site3.compareExchange(expected: 0, desired: bits, ordering: .relaxed).exchanged { return }
    // All taken (an accessor inlined at many call sites): evict one, chosen by the site's
    // bits, so the sites in use right now stay cached. Every word only ever holds a site
    // known to name this slot, so eviction cannot mislead a lookup.
    switch (bits >> 4) & 3 {
    case 0: site0.store(bits, ordering: .relaxed)
    case 1: site1.store(bits, ordering: .relaxed)
    case 2: site2.store(bits, ordering: .relaxed)
    default: site3.store(bits, ordering: .relaxed)
    }
  }

  /// Slow comparison; on success remembers `candidate` as an alias when none is set yet.
  func matchesByValue(_ candidate: AnyKeyPath) -> Bool {
    guard keyPath == candidate else { return false }
    let retained = Unmanaged.passRetained(candidate).toOpaque()
    let (exchanged, _) = alias.compareExchange(
      expected: nil, desired: retained, ordering: .acquiringAndReleasing)
    if !exchanged { Unmanaged<AnyKeyPath>.fromOpaque(retained).release() }
    return true
  }

  /// Called before a scope records this slot (and reads its version).
  @inline(__always)
  func markRead() {
    if !everRead.load(ordering: .relaxed) {
      everRead.store(true, ordering: .sequentiallyConsistent)
    }
  }

  /// Whether a tracking scope ever recorded this slot.
  @inline(__always)
  var wasEverRead: Bool { everRead.load(ordering: .relaxed) }

  /// Whether a subscriber reacts to `willSet` of this property (a hint: a write that sees
  /// none announces itself at its end, see ``endUnannouncedMutation()``).
  @inline(__always)
  var hasWillSetListeners: Bool {
    willSetListeners.load(ordering: .relaxed) != 0 || hasParkedOneShot
  }

  /// The end of a write that skipped `willSet`: moves the version by two (it stays even),
  /// then returns whether anyone listens to `willSet` / to `didSet`. The increment is a full
  /// barrier: a subscriber linked before it is counted here, one linked after it sees the
  /// new version when it checks the one it read.
  @inline(__always)
  func endUnannouncedMutation(owned: Bool) -> (willSet: Bool, didSet: Bool, from: UInt64) {
    let from = moveVersion(by: 2, owned: owned)
    return (
      willSetListeners.load(ordering: .sequentiallyConsistent) != 0,
      didSetListeners.load(ordering: .sequentiallyConsistent) != 0, from
    )
  }

  /// Moves the version: an atomic increment (a full barrier), or — a main-thread-confined
  /// property written on the main thread, its only writer — a plain store; other threads that
  /// link to such a property pay for the barrier instead (see ``isConfinedToMainThread``).
  /// Returns the version the move started from. `owned` is ``isOwnedByCurrentThread``, which
  /// a write asks once for all its accesses to the slot.
  @inline(__always)
  private func moveVersion(by step: UInt64, owned: Bool) -> UInt64 {
    rs_note_version_move()
    if owned {
      if !hadPlainWrite.load(ordering: .relaxed) {
        // Once: a linker that then sees the flag unset is seen by every later plain move.
        hadPlainWrite.store(true, ordering: .relaxed)
        rs_full_fence()
      }
      let from = version.load(ordering: .relaxed)
      version.store(from &+ step, ordering: .releasing)
      return from
    }
    return version.wrappingAdd(step, ordering: .sequentiallyConsistent).oldValue
  }

  /// Whether this property is confined to the main thread and this is it: its version and
  /// parking word are then this thread's alone to write.
  @inline(__always)
  var isOwnedByCurrentThread: Bool { isConfinedToMainThread && rs_is_main_thread() != 0 }

  /// `willSet`: makes the version odd and returns whether anyone listens to `willSet` (and
  /// the version the move started from).
  @inline(__always)
  func beginMutation(owned: Bool) -> (willSet: Bool, from: UInt64) {
    mutatingThread.store(TrackingScope.currentThreadIdentity, ordering: .relaxed)
    let from = moveVersion(by: 1, owned: owned)
    return (willSetListeners.load(ordering: .sequentiallyConsistent) != 0, from)
  }

  /// `didSet`: makes the version even again and returns the version the move started from.
  /// Two threads' writes of the property that overlap leave it odd until the second ends: a
  /// write is still in flight. Whether anyone listens to `didSet` is read after it
  /// (``hasDidSetListeners``), once the writer has noted its move.
  @inline(__always)
  func endMutation(owned: Bool) -> UInt64 {
    moveVersion(by: 1, owned: owned)
  }

  /// Whether a subscriber reacts to `didSet` of this property. Read after a version move (a
  /// full barrier): a subscriber linked before the move is counted, one linked after it sees
  /// the new version when it checks the one it read.
  @inline(__always)
  var hasDidSetListeners: Bool { didSetListeners.load(ordering: .sequentiallyConsistent) != 0 }
}
