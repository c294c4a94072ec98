import CReactiveState

/// The reads of one `withObservationTracking` `apply`: which slots, at which version.
///
/// Recording a read costs a stamp compare (repeated reads of the same property stop there)
/// and, for a new property, one append to a manually managed buffer. Nothing is linked into
/// the graph until ``OneShotObserver/install(_:onChange:)``; the recorded versions let the
/// install see a mutation that happened in between (the toolchain loses it).
final class AccessList: TrackingScope {
  struct Entry {
    /// Retained by the list (see `retained`): manual counting keeps copies of
    /// entries free of reference counting.
    let source: Unmanaged<SourceNode>
    var version: UInt64
  }

  @exclusivity(unchecked) private var buffer: UnsafeMutablePointer<Entry>
  @exclusivity(unchecked) private var capacity: Int
  @exclusivity(unchecked) private(set) var count = 0
  /// Entries holding a retained source (≥ `count`). Between uses the thread's spare list keeps
  /// its property slots retained, so re-tracking the same properties (re-arming in
  /// `onChange`) swaps no reference counts; a slot kept this way outlives its registrar by
  /// at most one later use of the list (a detached slot is a few words, and is never linked).
  @exclusivity(unchecked) private var retained = 0

  private override init() {
    capacity = 4
    buffer = .allocate(capacity: capacity)
    super.init()
  }

  deinit {
    release(from: 0)
    buffer.deallocate()
  }

  /// Releases the retained entries from `index` on.
  private func release(from index: Int) {
    while retained > index {
      retained -= 1
      buffer[retained].source.release()
    }
    count = min(count, index)
  }

  /// Ends a use: entries are forgotten, but property slots stay retained for the next use
  /// (up to the first derived value, which must not be kept alive).
  private func finishUse() {
    var kept = 0
    while kept < retained
      && !buffer[kept].source._withUnsafeGuaranteedRef({ $0.isDerived })
    {
      kept += 1
    }
    release(from: kept)
    count = 0
  }

  /// The recorded reads, oldest first.
  var entries: UnsafeMutableBufferPointer<Entry> {
    UnsafeMutableBufferPointer(start: buffer, count: count)
  }

  var isEmpty: Bool { count == 0 }

  /// Records `source` read at `version` as the next entry: a retained entry already holding
  /// it is reused as is.
  private func append(_ source: SourceNode, version: UInt64) {
    let identity = Unmanaged.passUnretained(source)
    if count < retained {
      let old = buffer[count].source
      if old.toOpaque() != identity.toOpaque() {
        buffer[count] = Entry(source: identity.retain(), version: version)
        old.release()
      } else {
        buffer[count].version = version
      }
    } else {
      if count == capacity {
        let grown = UnsafeMutablePointer<Entry>.allocate(capacity: capacity * 2)
        grown.moveInitialize(from: buffer, count: retained)
        buffer.deallocate()
        buffer = grown
        capacity *= 2
      }
      (buffer + count).initialize(to: Entry(source: identity.retain(), version: version))
      retained += 1
    }
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
      list.finishUse()
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
    append(slot, version: slot.version.load(ordering: .sequentiallyConsistent))
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
      parentList.append(entry.source.takeUnretainedValue(), version: entry.version)
    }
  }
}
