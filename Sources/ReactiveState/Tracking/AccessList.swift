import CReactiveState

/// The reads of one `withObservationTracking` `apply`: which slots, at which version.
///
/// Recording a read costs a stamp compare (repeated reads of the same property stop there)
/// and, for a new property, one append to a manually managed buffer. Nothing is linked into
/// the graph until ``OneShotObserver/install(_:onChange:)``; the recorded versions let the
/// install see a mutation that happened in between (the toolchain loses it).
final class AccessList: TrackingScope {
  struct Entry {
    let slot: SourceNode
    var version: UInt64
  }

  @exclusivity(unchecked) private var buffer: UnsafeMutablePointer<Entry>
  @exclusivity(unchecked) private var capacity: Int
  @exclusivity(unchecked) private(set) var count = 0

  private override init() {
    capacity = 4
    buffer = .allocate(capacity: capacity)
    super.init()
  }

  deinit {
    buffer.deinitialize(count: count)
    buffer.deallocate()
  }

  /// The recorded reads, oldest first.
  var entries: UnsafeMutableBufferPointer<Entry> {
    UnsafeMutableBufferPointer(start: buffer, count: count)
  }

  var isEmpty: Bool { count == 0 }

  private func append(_ entry: Entry) {
    if count == capacity {
      let grown = UnsafeMutablePointer<Entry>.allocate(capacity: capacity * 2)
      grown.moveInitialize(from: buffer, count: count)
      buffer.deallocate()
      buffer = grown
      capacity *= 2
    }
    (buffer + count).initialize(to: entry)
    count += 1
  }

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
    list.buffer.deinitialize(count: list.count)
    list.count = 0
    let thread = rs_current_thread()
    if thread.pointee.spare_access_list == nil && list.capacity <= 64 {
      thread.pointee.spare_access_list = Unmanaged.passRetained(list).toOpaque()
    }
  }

  override func record(_ slot: SourceNode) {
    guard slot.isFirstRead(byScope: stamp) else { return }
    append(Entry(slot: slot, version: slot.version.load(ordering: .sequentiallyConsistent)))
  }

  override func noteOwnMutation(_ slot: SourceNode, version: UInt64) {
    for index in 0..<count where buffer[index].slot === slot {
      buffer[index].version = version
    }
  }

  /// Hands this scope's reads to the enclosing scope (nested tracking merges upward, as
  /// Observation does), keeping the versions they were read at.
  func merge(into parent: TrackingScope) {
    guard let parentList = parent as? AccessList else {
      for entry in entries { parent.record(entry.slot) }
      return
    }
    for entry in entries where entry.slot.isFirstRead(byScope: parentList.stamp) {
      parentList.append(entry)
    }
  }
}
