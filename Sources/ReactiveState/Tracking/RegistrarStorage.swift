import Synchronization

/// Per-registrar state: the lazily built list of ``PropertySlot``s.
///
/// Before the first tracked read it is one empty object (one atomic word); a write then
/// costs a load and a branch. Slots are prepended lock-free-readable (an immutable `next`
/// chain published with release ordering) and inserted under ``GraphLock``.
@usableFromInline
final class RegistrarStorage: @unchecked Sendable {
  /// Head of the slot list, retained, as a raw pointer so it can live in an atomic.
  @usableFromInline let firstSlot = Atomic<UnsafeMutableRawPointer?>(nil)

  @usableFromInline init() {}

  /// Whether any property of this registrar was ever read inside a tracking scope.
  @inlinable @inline(__always)
  var hasSlots: Bool { firstSlot.load(ordering: .relaxed) != nil }

  private var head: PropertySlot? {
    firstSlot.load(ordering: .acquiring).map {
      Unmanaged<PropertySlot>.fromOpaque($0).takeUnretainedValue()
    }
  }

  /// The slot for `keyPath`, if one was ever created.
  func existingSlot(for keyPath: AnyKeyPath) -> PropertySlot? {
    let first = firstSlot.load(ordering: .acquiring)
    let identity = Unmanaged.passUnretained(keyPath).toOpaque()
    var cursor = first
    while let raw = cursor {
      let slot = Unmanaged<PropertySlot>.fromOpaque(raw)
      let matched = slot._withUnsafeGuaranteedRef { $0.matchesIdentity(identity) }
      if matched { return slot.takeUnretainedValue() }
      cursor = slot._withUnsafeGuaranteedRef { $0.nextPointer }
    }
    cursor = first
    while let raw = cursor {
      let slot = Unmanaged<PropertySlot>.fromOpaque(raw)
      let matched = slot._withUnsafeGuaranteedRef { $0.matchesByValue(keyPath) }
      if matched { return slot.takeUnretainedValue() }
      cursor = slot._withUnsafeGuaranteedRef { $0.nextPointer }
    }
    return nil
  }

  /// The slot for `keyPath`, created if needed.
  func slot(for keyPath: AnyKeyPath) -> PropertySlot {
    if let slot = existingSlot(for: keyPath) { return slot }
    GraphLock.shared.lock()
    defer { GraphLock.shared.unlock() }
    // Another thread may have inserted it meanwhile.
    if let slot = existingSlot(for: keyPath) { return slot }
    let slot = PropertySlot(keyPath: keyPath, next: head)
    firstSlot.store(Unmanaged.passRetained(slot).toOpaque(), ordering: .sequentiallyConsistent)
    return slot
  }

  /// Entry of `willSet`: bumps the slot version and notifies subscribers.
  @usableFromInline
  func willSet(_ keyPath: AnyKeyPath) {
    guard let slot = existingSlot(for: keyPath) else { return }
    if slot.beginMutation() { ChangePropagation.notify(slot, .willSet) }
  }

  /// Entry of `didSet`.
  @usableFromInline
  func didSet(_ keyPath: AnyKeyPath) {
    guard let slot = existingSlot(for: keyPath) else { return }
    if slot.endMutation() { ChangePropagation.notify(slot, .didSet) }
    TrackingScope.noteMutationOnCurrentThread(slot)
  }

  /// Records a read of `keyPath` in the active scope.
  @usableFromInline
  func recordAccess(_ keyPath: AnyKeyPath, in scope: UnsafeMutableRawPointer) {
    Unmanaged<TrackingScope>.fromOpaque(scope)._withUnsafeGuaranteedRef { scope in
      // Repeated reads of the same property (same key-path object) stop here.
      if scope.lastKeyPath === keyPath
        && scope.lastStorage == Unmanaged.passUnretained(self).toOpaque()
      {
        return
      }
      let slot = slot(for: keyPath)
      scope.record(slot)
      scope.lastKeyPath = keyPath
      scope.lastStorage = Unmanaged.passUnretained(self).toOpaque()
    }
  }

  deinit {
    guard let first = firstSlot.load(ordering: .acquiring) else { return }
    let head = Unmanaged<PropertySlot>.fromOpaque(first).takeRetainedValue()
    ChangePropagation.detach(head)
  }
}
