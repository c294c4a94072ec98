import CReactiveState

/// The reads of one `withObservationTracking` `apply`: which slots, at which version.
///
/// Recording a read costs a stamp compare (repeated reads of the same property stop there)
/// and, for a new property, one append to a manually managed buffer. Nothing is linked into
/// the graph until ``OneShotObserver/install(_:onChange:)``; the recorded versions let the
/// install see a mutation that happened in between (the toolchain loses it).
final class AccessList: TrackingScope {
  struct Entry {
    /// Retained by the list (released when it is emptied): manual counting keeps copies of
    /// entries free of reference counting.
    let source: Unmanaged<SourceNode>
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
    removeAll()
    buffer.deallocate()
  }

  /// Releases every entry.
  private func removeAll() {
    for index in 0..<count { buffer[index].source.release() }
    count = 0
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
      list.removeAll()
      return list.capacity <= 64
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
    guard slot.isFirstRead(byScope: stamp) else { return }
    append(
      Entry(
        source: .passRetained(slot), version: slot.version.load(ordering: .sequentiallyConsistent)))
  }

  override func noteOwnMutation(_ slot: SourceNode, version: UInt64) {
    let source = Unmanaged.passUnretained(slot).toOpaque()
    for index in 0..<count where buffer[index].source.toOpaque() == source {
      buffer[index].version = version
    }
  }

  /// Hands this scope's reads to the enclosing scope (nested tracking merges upward, as
  /// Observation does), keeping the versions they were read at.
  func merge(into parent: TrackingScope) {
    guard let parentList = parent as? AccessList else {
      for entry in entries { parent.record(entry.source.takeUnretainedValue()) }
      return
    }
    for entry in entries
    where entry.source._withUnsafeGuaranteedRef({ $0.isFirstRead(byScope: parentList.stamp) }) {
      parentList.append(Entry(source: entry.source.retain(), version: entry.version))
    }
  }
}
