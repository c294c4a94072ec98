import Synchronization

/// A thread-safe, ordered list of subscriber closures shared by the legacy publishers.
///
/// Subscribers are called in subscription order, outside the lock, on the thread that sends. A
/// subscriber cancelled concurrently with a `send` may still receive that one value (the list is
/// snapshotted before delivery); one cancelled on the sending thread (by an earlier subscriber)
/// receives nothing more, as in Combine. Subscribers added during a `send` first receive the
/// next one.
@usableFromInline
final class SubscriberList<Input>: @unchecked Sendable {
  @usableFromInline
  struct Entry {
    @usableFromInline let id: UInt64
    @usableFromInline let receive: (Input) -> Void
    /// Cleared when the subscription is removed.
    @usableFromInline let isActive: ActiveFlag

    @usableFromInline
    init(id: UInt64, receive: @escaping (Input) -> Void) {
      self.id = id
      self.receive = receive
      isActive = ActiveFlag()
    }

    /// What stays in the list of a removed entry until compaction: its id and cleared flag,
    /// without its closure.
    init(removed entry: Entry) {
      id = entry.id
      receive = { _ in }
      isActive = entry.isActive
    }
  }

  @usableFromInline let lock = WordLock()
  /// The subscriptions in subscription order (so sorted by `id`), including removed ones not
  /// yet compacted away: their flag is cleared and their closure already released.
  @usableFromInline var entries: [Entry] = []
  @usableFromInline var nextID: UInt64 = 0
  /// How many of `entries` are removed ones.
  private var removedCount = 0
  /// Entries examined or moved by removals so far (tests check removal's cost with it).
  private(set) var removalSteps = 0

  @usableFromInline
  init() {}

  /// Adds `receive` and returns a token that removes it.
  func subscribe(_ receive: @escaping (Input) -> Void) -> AnyCancellable {
    let id = lock.withLock { () -> UInt64 in
      nextID &+= 1
      entries.append(Entry(id: nextID, receive: receive))
      return nextID
    }
    return AnyCancellable { [weak self] in self?.remove(id) }
  }

  /// Removes the subscription `id` in amortized O(log n): a binary search (ids ascend) finds
  /// its entry, which stays in place with its closure released; once removed entries make up
  /// half of the list they are compacted away in one pass. A `send` on a snapshot skips them.
  private func remove(_ id: UInt64) {
    // The removed closure is released after the lock is dropped (its deinit may run user code).
    let removed = lock.withLock { () -> ((Input) -> Void)? in
      guard let index = index(of: id) else { return nil }
      let entry = entries[index]
      guard entry.isActive.isSet.load(ordering: .relaxed) else { return nil }
      entry.isActive.isSet.store(false, ordering: .releasing)
      entries[index] = Entry(removed: entry)
      removedCount += 1
      if removedCount * 2 >= entries.count {
        removalSteps += entries.count
        entries.removeAll { !$0.isActive.isSet.load(ordering: .relaxed) }
        removedCount = 0
      }
      return entry.receive
    }
    _ = removed
  }

  /// The index of the entry of subscription `id` (called with the lock held).
  private func index(of id: UInt64) -> Int? {
    var low = 0
    var high = entries.count
    while low < high {
      removalSteps += 1
      let middle = low + (high - low) / 2
      if entries[middle].id < id { low = middle + 1 } else { high = middle }
    }
    return low < entries.count && entries[low].id == id ? low : nil
  }

  /// The number of live subscribers.
  var count: Int { lock.withLock { entries.count - removedCount } }

  /// Delivers `value` to a snapshot of the subscribers, outside the lock.
  @inlinable
  func send(_ value: Input) {
    let snapshot = lock.withLock { entries }
    for entry in snapshot where entry.isActive.isSet.load(ordering: .acquiring) {
      entry.receive(value)
    }
  }
}

/// Whether a subscription is still in its list: a `send` already under way skips one removed
/// meanwhile.
@usableFromInline
final class ActiveFlag: Sendable {
  @usableFromInline let isSet = Atomic<Bool>(true)
  @usableFromInline init() {}
}
