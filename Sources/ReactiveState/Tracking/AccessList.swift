import CReactiveState

/// The reads of one `withObservationTracking` `apply`: which slots, at which version.
///
/// Recording a read costs a stamp compare (repeated reads of the same property stop there)
/// and, for a new property, an array append. Nothing is linked into the graph until
/// ``OneShotObserver/install(_:onChange:)``; the recorded versions let the install see a
/// mutation that happened in between (the toolchain loses it).
final class AccessList: TrackingScope {
  struct Entry {
    let slot: PropertySlot
    var version: UInt64
  }

  private(set) var entries: [Entry] = []

  /// A fresh list for one `apply`, reusing this thread's spare list when there is one.
  static func make() -> AccessList {
    let thread = rs_current_thread()
    let list: AccessList
    if let spare = thread.pointee.spare_access_list {
      thread.pointee.spare_access_list = nil
      list = Unmanaged<AccessList>.fromOpaque(spare).takeRetainedValue()
    } else {
      list = AccessList()
    }
    list.reset()
    return list
  }

  /// Empties a finished list and keeps it as this thread's spare (one per thread, small).
  static func recycle(_ list: AccessList) {
    list.entries.removeAll(keepingCapacity: true)
    list.lastKeyPath = nil
    let thread = rs_current_thread()
    if thread.pointee.spare_access_list == nil && list.entries.capacity <= 64 {
      thread.pointee.spare_access_list = Unmanaged.passRetained(list).toOpaque()
    }
  }

  var isEmpty: Bool { entries.isEmpty }

  override func record(_ slot: PropertySlot) {
    if slot.lastReaderStamp.load(ordering: .relaxed) == stamp { return }
    slot.lastReaderStamp.store(stamp, ordering: .relaxed)
    entries.append(Entry(slot: slot, version: slot.version.load(ordering: .sequentiallyConsistent)))
  }

  override func noteOwnMutation(_ slot: PropertySlot, version: UInt64) {
    for index in entries.indices where entries[index].slot === slot {
      entries[index].version = version
    }
  }

  /// Hands this scope's reads to the enclosing scope (nested tracking merges upward, as
  /// Observation does).
  func merge(into parent: TrackingScope) {
    guard let parentList = parent as? AccessList else {
      for entry in entries { parent.record(entry.slot) }
      return
    }
    for entry in entries
    where entry.slot.lastReaderStamp.load(ordering: .relaxed) != parentList.stamp {
      entry.slot.lastReaderStamp.store(parentList.stamp, ordering: .relaxed)
      parentList.entries.append(entry)
    }
  }
}
