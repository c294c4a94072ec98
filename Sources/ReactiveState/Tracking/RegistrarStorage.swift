import CReactiveState
import Synchronization

/// Per-registrar state: the lazily built list of ``PropertySlot``s.
///
/// Before the first tracked read it is one empty object (one atomic word); a write then
/// costs a load and a branch. Slots are prepended lock-free-readable (an immutable `next`
/// chain published with release ordering) and inserted under ``GraphLock``. Once any
/// property of the object is observed, every property that is read in a scope or written
/// gets a slot, so later lookups by call site are pointer compares.
@usableFromInline
final class RegistrarStorage: @unchecked Sendable {
  /// Head of the slot list (the address of a `PropertySlot` it owns one retain of; each slot
  /// owns the next through `next`), with bit 0 set when the registrar is confined to the main
  /// thread: one word, so a registrar that was never observed stays as small as the object
  /// header plus one word.
  @usableFromInline let head: Atomic<UInt>
  @usableFromInline static let confinedBit: UInt = 1
  /// The last registrar serial handed out (see ``PropertySlot/registrarSerial``); guarded by
  /// ``GraphLock``.
  nonisolated(unsafe) private static var lastSerial: UInt64 = 0

  /// Whether this registrar's properties are confined to the main thread (see
  /// ``MainActorObservationRegistrar``).
  var isConfinedToMainThread: Bool { head.load(ordering: .relaxed) & Self.confinedBit != 0 }

  @usableFromInline init() { head = Atomic(0) }

  /// A registrar whose properties are written, and tracked, on the main thread only. Without
  /// a process-wide barrier on this system it behaves like any other.
  init(confinedToMainThread: Void) {
    head = Atomic(rs_process_barrier_available() != 0 ? Self.confinedBit : 0)
  }

  /// Whether any property of this registrar was ever read inside a tracking scope.
  @inlinable @inline(__always)
  var hasSlots: Bool { head.load(ordering: .relaxed) > 1 }

  /// The first slot's address, if any (an acquiring load: the slot was published with it).
  @inlinable @inline(__always)
  var firstSlotAddress: UnsafeMutableRawPointer? {
    UnsafeMutableRawPointer(bitPattern: head.load(ordering: .acquiring) & ~Self.confinedBit)
  }

  // MARK: - Lookup

  /// Walks the slot list without reference counting, from `start` (the current head when
  /// nil); returns the first slot `match` accepts. Slots live as long as their registrar, so
  /// an unmanaged reference is valid for as long as the caller's access to the observed object.
  @inline(__always)
  private func firstSlot(
    from start: PropertySlot? = nil, where match: (PropertySlot) -> Bool
  ) -> Unmanaged<PropertySlot>? {
    var cursor = start.map { Unmanaged.passUnretained($0).toOpaque() } ?? firstSlotAddress
    while let raw = cursor {
      let slot = Unmanaged<PropertySlot>.fromOpaque(raw)
      if slot._withUnsafeGuaranteedRef(match) { return slot }
      cursor = slot._withUnsafeGuaranteedRef { $0.nextPointer }
    }
    return nil
  }

  /// Objects with more observed properties than this (e.g. one per subscript index) are
  /// looked up through a hash index (``WideSlotIndex``) instead of the list. The index lives
  /// in the current head slot (it moves to each new head under the graph lock), so a
  /// registrar that was never observed stays one atomic word.
  private static let listLimit = 8

  private var headSlot: PropertySlot? {
    firstSlotAddress.map {
      Unmanaged<PropertySlot>.fromOpaque($0).takeUnretainedValue()
    }
  }

  /// The slot for `keyPath`, if one was ever created.
  func existingSlot(for keyPath: AnyKeyPath) -> PropertySlot? {
    var hash: Int?
    return existingSlot(for: keyPath, upTo: headSlot, hash: &hash)
  }

  /// The slot for `keyPath` among those published up to `head` (or later ones). In a wide
  /// registrar, fills `hash` with the key path's hash value first.
  ///
  /// Key paths are hashed and compared outside the graph lock: for subscript key paths, that
  /// calls the arguments' `hash(into:)` and `==`, user code that may itself read tracked
  /// properties (whose first tracked read takes the lock).
  private func existingSlot(for keyPath: AnyKeyPath, upTo head: PropertySlot?, hash: inout Int?)
    -> PropertySlot?
  {
    guard let head else { return nil }
    guard head.ordinal >= Self.listLimit else {
      let identity = Unmanaged.passUnretained(keyPath).toOpaque()
      let found =
        firstSlot(from: head) { $0.matchesIdentity(identity) }
        ?? firstSlot(from: head) { $0.matchesByValue(keyPath) }
      return found?.takeUnretainedValue()
    }
    let keyPathHash = hash ?? keyPath.hashValue
    hash = keyPathHash
    // The latest head keeps the index (`head`'s own may have moved on).
    let (first, others) = GraphLock.withLock {
      headSlot?.wideIndex?.candidates(hash: keyPathHash) ?? (nil, [])
    }
    let identity = Unmanaged.passUnretained(keyPath).toOpaque()
    let matches = { (slot: PropertySlot) in
      slot.matchesIdentity(identity) || slot.matchesByValue(keyPath)
    }
    if let first, matches(first) { return first }
    return others.first(where: matches)
  }

  /// The slot for `keyPath`, created if needed.
  func slot(for keyPath: AnyKeyPath) -> PropertySlot {
    var hash: Int?
    while true {
      let head = headSlot
      if let slot = existingSlot(for: keyPath, upTo: head, hash: &hash) { return slot }
      let ordinal = head.map { $0.ordinal + 1 } ?? 0
      // What a wide registrar's index needs is hashed here, before the lock (see
      // ``WideSlotIndex``): the new key path, and at the switch to the index the list's.
      var listHashes: [Int] = []
      if ordinal >= Self.listLimit {
        if hash == nil { hash = keyPath.hashValue }
        if ordinal == Self.listLimit {
          var cursor = head
          while let current = cursor {
            listHashes.append(current.keyPath.hashValue)
            cursor = current.next
          }
        }
      }
      GraphLock.lock()
      // Another thread inserted a slot meanwhile (maybe this one): look again.
      guard headSlot === head else {
        GraphLock.unlock()
        continue
      }
      let serial = head?.registrarSerial ?? Self.nextSerial()
      let slot = PropertySlot(
        keyPath: keyPath, next: head, ordinal: ordinal, registrarSerial: serial,
        confinedToMainThread: isConfinedToMainThread)
      if ordinal >= Self.listLimit, let hash {
        var index = head?.wideIndex ?? WideSlotIndex()
        head?.wideIndex = nil
        var cursor = head
        for listHash in listHashes {
          index.insert(cursor.unsafelyUnwrapped, hash: listHash)
          cursor = cursor.unsafelyUnwrapped.next
        }
        index.insert(slot, hash: hash)
        slot.wideIndex = index
      }
      let address = UInt(bitPattern: Unmanaged.passRetained(slot).toOpaque())
      self.head.store(
        address | (isConfinedToMainThread ? Self.confinedBit : 0),
        ordering: .sequentiallyConsistent)
      // The head word owned the old head; the new head's `next` owns it now.
      if let head { Unmanaged.passUnretained(head).release() }
      GraphLock.unlock()
      return slot
    }
  }

  /// A registrar serial no slot carries yet (call under ``GraphLock``).
  private static func nextSerial() -> UInt64 {
    lastSerial += 1
    return lastSerial
  }

  /// The serial of this registrar's slots, or nil before its first slot.
  @inlinable @inline(__always)
  var serial: UInt64? {
    firstSlotAddress.map {
      Unmanaged<PropertySlot>.fromOpaque($0)._withUnsafeGuaranteedRef { $0.registrarSerial }
    }
  }

  /// The slot for a key-path argument: by call site when it has one, else by key path.
  @usableFromInline @inline(__always)
  func slot(site: UnsafeRawPointer?, keyPath: () -> AnyKeyPath) -> Unmanaged<PropertySlot> {
    if let site, let slot = firstSlot(where: { $0.isReached(from: site) }) { return slot }
    return slotByKeyPath(site: site, keyPath: keyPath)
  }

  /// The slow half of ``slot(site:keyPath:)``: materialises the key path.
  @inline(never)
  private func slotByKeyPath(site: UnsafeRawPointer?, keyPath: () -> AnyKeyPath)
    -> Unmanaged<PropertySlot>
  {
    let slot = slot(for: keyPath())
    if let site { slot.remember(site: site) }
    return Unmanaged.passUnretained(slot)
  }

  // MARK: - Entry points used by the inlinable registrar

  /// Records a read in the active scope (the inlined accessor has already ruled out a
  /// repeat of the scope's last read). The accessor passes the scope as a guaranteed
  /// reference, so this is the body itself: no closure, no thunk reordering arguments.
  @usableFromInline
  func recordAccess(site: UnsafeRawPointer?, keyPath: () -> AnyKeyPath, in scope: TrackingScope) {
    if let site {
      slot(site: site, keyPath: keyPath)._withUnsafeGuaranteedRef {
        record($0, in: scope, lastReadKey: site)
      }
    } else {
      record(slot(for: keyPath()), in: scope, lastReadKey: nil)
    }
  }

  /// Records a read of a known slot in the active scope (and remembers it as the scope's
  /// last read, keyed by the slot's address).
  @usableFromInline
  func recordAccess(_ slot: Unmanaged<PropertySlot>, in scope: UnsafeMutableRawPointer) {
    Unmanaged<TrackingScope>.fromOpaque(scope)._withUnsafeGuaranteedRef { scope in
      slot._withUnsafeGuaranteedRef {
        record($0, in: scope, lastReadKey: UnsafeRawPointer(slot.toOpaque()))
      }
    }
  }

  /// Marks `slot` read (before its version is read) and records it in `scope`; with a key
  /// (a call site or the slot's address), remembers it as the scope's last read.
  @inline(__always)
  private func record(
    _ slot: PropertySlot, in scope: TrackingScope, lastReadKey key: UnsafeRawPointer?
  ) {
    slot.markRead()
    scope.recordIfNew(slot)
    guard let key else { return }
    scope.lastSite = UInt(bitPattern: key)
    scope.lastStorage = UInt(bitPattern: Unmanaged.passUnretained(self).toOpaque())
    scope.lastStorageEpoch = rs_storage_epoch_load()
  }

  /// `willSet` of a property of an object that has slots.
  @usableFromInline
  func willSet(site: UnsafeRawPointer?, keyPath: () -> AnyKeyPath) -> Unmanaged<PropertySlot> {
    let slot = slot(site: site, keyPath: keyPath)
    willSet(slot)
    return slot
  }

  /// The start of a `withMutation` write of a property of an object that has slots: the
  /// full `willSet` when someone listens to `willSet` of the property (returns true), else
  /// nothing — the write is announced at its end. Finish with ``didSet(_:announced:)``.
  @usableFromInline
  func beginWrite(site: UnsafeRawPointer?, keyPath: () -> AnyKeyPath)
    -> (slot: Unmanaged<PropertySlot>, announced: Bool)
  {
    SlotWrites.begin(slot(site: site, keyPath: keyPath))
  }

  /// ``beginWrite(site:keyPath:)`` for a known slot.
  @usableFromInline
  func beginWrite(_ slot: Unmanaged<PropertySlot>) -> Bool {
    SlotWrites.begin(slot).announced
  }

  /// The end of a write begun with ``beginWrite(site:keyPath:)``. An unannounced write moves
  /// the version once, after its store, with a full barrier, then looks at the listener
  /// counts: a subscriber linked before that sees it is notified now (a `willSet` listener
  /// late, after the store — it may have read the old value); one linked after it checks the
  /// version it read and sees the change. One atomic increment instead of two, and no
  /// `willSet` walk when nobody listens to `willSet`.
  ///
  /// A property no tracking scope ever read skips even that: nobody can hold a version of
  /// it. A first reader marks the slot (fenced) before it reads the version, so after one
  /// full fence either the write sees the mark (and ends as above) or the reader sees the
  /// new value.
  @usableFromInline
  func didSet(_ slot: Unmanaged<PropertySlot>, announced: Bool) {
    // Either end is reached with a jump: this entry keeps no frame.
    if announced {
      slot._withUnsafeGuaranteedRef { SlotWrites.endAnnounced($0) }
    } else {
      SlotWrites.endUnannounced(slot)
    }
  }

  /// `willSet` of a property whose slot is known.
  @usableFromInline
  func willSet(_ slot: Unmanaged<PropertySlot>) {
    _ = slot._withUnsafeGuaranteedRef { SlotWrites.beginAnnounced($0) }
  }

  /// `didSet` of a property (its slot from ``willSet(site:keyPath:)`` or a lookup).
  @usableFromInline
  func didSet(_ slot: Unmanaged<PropertySlot>) {
    slot._withUnsafeGuaranteedRef { SlotWrites.endAnnounced($0) }
  }

  /// An explicit `didSet`. Its `willSet` went through the slot, which then names a mutating
  /// thread — unless it found the object without slots and did nothing, and slots appeared
  /// meanwhile (a first tracked read on another thread, of any property: this lookup makes the
  /// slot if need be). That write ends as an unannounced one (``didSet(_:announced:)``): a
  /// `didSet` alone would move the version once and leave it odd at rest, a write in flight
  /// forever. (A write of the same property by another thread that begins in between names
  /// its own thread; that double race is not told apart. Nor is a `didSet` with no `willSet`
  /// at all, which the API does not allow: see the README.)
  @usableFromInline
  func didSetOfPair(_ slot: Unmanaged<PropertySlot>) {
    if slot._withUnsafeGuaranteedRef({ $0.mutatingThread.load(ordering: .relaxed) }) == 0 {
      didSet(slot, announced: false)
    } else {
      didSet(slot)
    }
  }

  /// A write that skipped `willSet` because the object had no slots, but has some now: a
  /// first tracked read started meanwhile, on another thread or inside the mutation on this
  /// one. It ends like any unannounced write (``didSet(_:announced:)``), since a reader on
  /// another thread may have seen the old value — except for what this thread armed inside it
  /// that reads the property (one-shots and event registrations): as inside a write of an
  /// observed object (see `OwnWriteDeferral`), the write came before them, so it is not a
  /// change to them. This path alone tells them apart, by the thread that armed them (every
  /// registration on a slot of this object was armed during the write, the slots being
  /// younger), so that the write of a never-observed object stays a load and a branch.
  ///
  /// No fence between the caller's store and its second look at `hasSlots`: the storage's
  /// own synchronization (see the Concurrency and threading article) orders a first reader's
  /// read of the value with this store, and the reader publishes the slot before that read.
  /// If the read comes after the store, it sees the new value; if before, the writer's look
  /// at the slots comes after the publication, and sees it.
  @usableFromInline
  func lateMutation(site: UnsafeRawPointer?, keyPath: () -> AnyKeyPath) {
    SlotWrites.endWriteBegunUnobserved(slot(site: site, keyPath: keyPath))
  }

  deinit {
    guard let first = firstSlotAddress else { return }
    // A scope may remember this storage's address as its last read's (only one with slots).
    rs_storage_epoch_advance()
    let head = Unmanaged<PropertySlot>.fromOpaque(first).takeRetainedValue()
    ChangePropagation.detach(head)
  }
}

/// The halves of a write of a property that has a slot, out of line and free of the storage
/// (nothing of it is needed): the registrar's entry points reach each with a jump.
private enum SlotWrites {
  /// Either start of a write (inlined into the entry points, which then jump to a half that
  /// returns their result).
  @inline(__always)
  static func begin(_ slot: Unmanaged<PropertySlot>)
    -> (slot: Unmanaged<PropertySlot>, announced: Bool)
  {
    if slot._withUnsafeGuaranteedRef({ $0.hasWillSetListeners }) {
      return slot._withUnsafeGuaranteedRef { beginAnnounced($0) }
    }
    return beginUnannounced(slot)
  }

  /// A write that someone listens to the `willSet` of: moves the version to odd and calls
  /// them now. Whether the slot is this thread's alone (a main-actor property on the main
  /// thread) is asked once.
  @inline(never)
  static func beginAnnounced(_ slot: PropertySlot)
    -> (slot: Unmanaged<PropertySlot>, announced: Bool)
  {
    let owned = slot.isOwnedByCurrentThread
    let (toGraph, from) = slot.beginMutation(owned: owned)
    slot.reserveParkedContinuousObserver(from: from)
    announce(.willSet, of: slot, toGraph: toGraph, parked: slot.takeParkedOneShot(owned: owned))
    return (Unmanaged.passUnretained(slot), true)
  }

  /// A write that nobody listens to the `willSet` of: announced at its end.
  @inline(never)
  static func beginUnannounced(_ slot: Unmanaged<PropertySlot>)
    -> (slot: Unmanaged<PropertySlot>, announced: Bool)
  {
    // Noted for a one-shot armed inside the mutation (see `OwnWriteDeferral`).
    OwnWriteDeferral.writeBegins(slot)
    return (slot, false)
  }

  /// The end of an announced write: moves the version to even and calls what listens to its
  /// `didSet`.
  @inline(never)
  static func endAnnounced(_ slot: PropertySlot) {
    let from = slot.endMutation(owned: slot.isOwnedByCurrentThread)
    // Noted at the version this move made, before the delivery (see `noteOwnMutation`).
    TrackingScope.noteMutationOnCurrentThread(slot, movedTo: from &+ 1)
    let continuous = slot.claimParkedContinuousObserver(from: from)
    announce(.didSet, of: slot, toGraph: slot.hasDidSetListeners, parked: continuous)
  }

  /// The end of an unannounced write (see ``RegistrarStorage/didSet(_:announced:)``).
  @inline(never)
  static func endUnannounced(_ slot: Unmanaged<PropertySlot>) {
    // No longer noted while it announces itself: what its listeners arm reads after the
    // version move. What waited for it is installed once it has (see `OwnWriteDeferral`).
    let ended = OwnWriteDeferral.writeEnds(slot)
    defer { if let ended { OwnWriteDeferral.installDeferred(waitingFor: ended) } }
    guard wasEverRead(slot) else { return }
    slot._withUnsafeGuaranteedRef { announceUnannounced($0) }
  }

  /// The end of a write that began before its object was observed (see
  /// ``RegistrarStorage/lateMutation(site:keyPath:)``): ``endUnannounced(_:)``, except that
  /// this thread's registrations armed inside the write pass over it. (No deferral began
  /// for it: nothing was armed when it started.)
  @inline(never)
  static func endWriteBegunUnobserved(_ slot: Unmanaged<PropertySlot>) {
    guard wasEverRead(slot) else { return }
    slot._withUnsafeGuaranteedRef { announceWriteBegunUnobserved($0) }
  }

  /// Whether `slot` was ever read: an unread one is looked at again after a full fence, which
  /// orders that look after this write's store.
  @inline(__always)
  private static func wasEverRead(_ slot: Unmanaged<PropertySlot>) -> Bool {
    if slot._withUnsafeGuaranteedRef({ $0.wasEverRead }) { return true }
    rs_full_fence()
    return slot._withUnsafeGuaranteedRef { $0.wasEverRead }
  }

  /// The versioned end of an unannounced write (see ``RegistrarStorage/didSet(_:announced:)``).
  @inline(never)
  static func announceUnannounced(_ slot: PropertySlot) {
    announceUnannounced(slot, begunUnobserved: false)
  }

  /// ``announceUnannounced(_:)`` for a write that began before its object was observed (see
  /// ``endWriteBegunUnobserved(_:)``).
  @inline(never)
  private static func announceWriteBegunUnobserved(_ slot: PropertySlot) {
    announceUnannounced(slot, begunUnobserved: true)
  }

  /// The end of an unannounced write, `begunUnobserved` a constant at each call site. When
  /// the write began before its object was observed, a one-shot this thread parked inside it
  /// is set aside and armed again once the write is over, as a deferred one-shot is installed
  /// (see `OwnWriteDeferral`), and the `willSet` walk passes over the registrations this
  /// thread armed there; another thread's, which may have read the old value, hear the write.
  @inline(__always)
  private static func announceUnannounced(_ slot: PropertySlot, begunUnobserved: Bool) {
    let owned = slot.isOwnedByCurrentThread
    let (willSetListened, didSetListened, from) = slot.endUnannouncedMutation(owned: owned)
    TrackingScope.noteMutationOnCurrentThread(slot, movedTo: from &+ 2)
    // A one-shot parked while the write was in flight (it may have read the old value) is
    // fired late, as its willSet; a continuous observer runs with the didSet.
    let continuous = slot.claimParkedContinuousObserver(from: from)
    var parked = slot.takeParkedOneShot(owned: owned)
    var setAside: UnsafeMutableRawPointer?
    if begunUnobserved, let taken = parked, OneShotObserver.wasArmedHere(taken) {
      (parked, setAside) = (nil, taken)
    }
    announce(
      .willSet, of: slot, toGraph: willSetListened, parked: parked,
      passingOverEnclosingWrite: begunUnobserved)
    // A subscriber that linked after the counts were read, before that walk took the graph
    // lock, heard the `willSet` and must hear the `didSet`: its count, stale above, is
    // visible now that the walk took the lock.
    let didSetToGraph =
      didSetListened || (willSetListened && slot.didSetListeners.load(ordering: .relaxed) != 0)
    announce(.didSet, of: slot, toGraph: didSetToGraph, parked: continuous)
    if let setAside { OneShotObserver.armAgain(setAside, reading: slot, afterWriteFrom: from) }
  }

  /// Delivers `event` of `slot` (its version already moved) to the registration taken from
  /// its parking word, if any (a one-shot at `willSet`, a continuous observer at `didSet`),
  /// and, when `toGraph`, to its graph listeners — passing over the registrations this thread
  /// armed inside the write when `passingOverEnclosingWrite` (the `willSet` of a write begun
  /// before its object was observed, see `ChangePropagation.notifyWillSetOfWriteBegunUnobserved`).
  @inline(__always)
  private static func announce(
    _ event: SourceEvent, of slot: PropertySlot, toGraph: Bool, parked: UnsafeMutableRawPointer?,
    passingOverEnclosingWrite: Bool = false
  ) {
    // The repeated writes of a batch find the last walk current: no lock, no call.
    if toGraph && !(event == .didSet && slot.hasCurrentDidSetWalk) {
      if passingOverEnclosingWrite {
        ChangePropagation.notifyWillSetOfWriteBegunUnobserved(slot, firstCalling: parked)
      } else {
        ChangePropagation.notify(slot, event, firstCalling: parked)
      }
    } else if let parked {
      PropertySlot.runParked(parked, at: event)
    }
  }
}
