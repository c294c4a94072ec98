import CReactiveState

/// The reads of one `withObservationTracking` `apply`: which slots, at which version.
///
/// Recording a read costs a stamp compare (repeated reads of the same property stop there)
/// and, for a new property, one append to an ``InputList``. Nothing is linked into
/// the graph until ``OneShotObserver/install(_:onChange:)``; the recorded versions let the
/// install see a mutation that happened in between (the toolchain loses it).
final class AccessList: TrackingScope {
  /// The reads. Between uses the thread's spare list keeps its property slots retained, so
  /// re-tracking the same properties (re-arming in `onChange`) swaps no reference counts; a
  /// slot kept this way outlives its registrar until the thread's next use of the list,
  /// which releases every entry it does not reuse (a detached slot is a few words, and is
  /// never linked).
  @exclusivity(unchecked) private var reads = InputList()

  private override init() { super.init() }

  deinit { reads.removeAll() }

  /// Ends a use: entries are forgotten, but property slots stay retained for the next use
  /// (up to the first derived value, which must not be kept alive).
  @inline(__always)
  private func finishUse() {
    // Entries an earlier, longer use left behind go now (nothing to do for a same-sized one).
    reads.trim()
    reads.restart()
    // Only a derived value needs releasing (the common list of property slots is kept as is).
    guard readDerivedValue else { return }
    readDerivedValue = false
    reads.trim(keeping: { !$0.isDerived })
  }

  /// Whether a derived value was recorded since the last ``finishUse()``.
  @exclusivity(unchecked) private var readDerivedValue = false

  /// The recorded reads, oldest first.
  var entries: UnsafeMutableBufferPointer<InputList.Input> { reads.inputs }

  var isEmpty: Bool { reads.count == 0 }

  /// Runs `body` with an empty list: this thread's spare one when it is free (no reference
  /// counting: the thread-local slot owns it), a new one when it is in use by an enclosing
  /// `withObservationTracking`. The list is emptied afterwards and kept as the spare.
  @inline(__always)
  static func withEmptyList<T>(_ body: (AccessList) -> T) -> T {
    let thread = rs_current_thread()
    let list: Unmanaged<AccessList>
    if let spare = thread.pointee.spare_access_list {
      thread.pointee.spare_access_list = nil
      list = .fromOpaque(spare)
    } else {
      list = .passRetained(AccessList())
    }
    let result = list._withUnsafeGuaranteedRef { list in
      list.reset()
      return body(list)
    }
    let keep = list._withUnsafeGuaranteedRef { list in
      list.finishUse()
      return list.reads.capacity <= 64
    }
    if keep && thread.pointee.spare_access_list == nil {
      ThreadCaches.registerExitCleanup(thread)
      thread.pointee.spare_access_list = list.toOpaque()
    } else {
      list.release()
    }
    return result
  }

  override func record(_ slot: SourceNode) {
    // Reached through `recordIfNew`, which found `slot` not read by this scope yet.
    slot.markFirstRead(byScope: stamp)
    if slot.isDerived { readDerivedValue = true }
    reads.append(slot, version: slot.version.load(ordering: .sequentiallyConsistent))
  }

  /// The read of `slot` now stands at `version`, the one this thread's write moved it to: the
  /// install sees a later move (another thread's, during this write's delivery) as a change.
  override func noteOwnMutation(_ slot: SourceNode, version: UInt64) {
    let source = Unmanaged.passUnretained(slot).toOpaque()
    let entries = reads.inputs
    for index in entries.indices where entries[index].source.toOpaque() == source {
      entries[index].version = version
    }
  }

  /// A new list holding this one's reads, with the versions they were read at (for a
  /// registration installed later, see ``OwnWriteDeferral``).
  func copy() -> AccessList {
    let copy = AccessList()
    for entry in entries {
      entry.source._withUnsafeGuaranteedRef { copy.reads.append($0, version: entry.version) }
    }
    return copy
  }

  /// A new list holding one read, of `source` at `version` (for a registration armed again,
  /// see ``OneShotObserver/armAgain(_:reading:afterWriteFrom:)``).
  static func reading(_ source: SourceNode, at version: UInt64) -> AccessList {
    let list = AccessList()
    list.reads.append(source, version: version)
    return list
  }

  /// Hands this scope's reads to the enclosing scope (nested tracking merges upward, as
  /// Observation does), keeping the versions they were read at.
  func merge(into parent: TrackingScope) {
    guard let parentList = parent as? AccessList else {
      for entry in entries {
        parent.record(entry.source.takeUnretainedValue(), readAt: entry.version)
      }
      return
    }
    for entry in entries
    where entry.source._withUnsafeGuaranteedRef({ $0.isFirstRead(byScope: parentList.stamp) }) {
      entry.source._withUnsafeGuaranteedRef { source in
        if source.isDerived { parentList.readDerivedValue = true }
        parentList.reads.append(source, version: entry.version)
      }
    }
  }
}
