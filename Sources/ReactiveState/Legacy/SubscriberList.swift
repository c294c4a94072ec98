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
    @usableFromInline let isActive = ActiveFlag()

    @usableFromInline
    init(id: UInt64, receive: @escaping (Input) -> Void) {
      self.id = id
      self.receive = receive
    }
  }

  @usableFromInline let lock = WordLock()
  @usableFromInline var entries: [Entry] = []
  @usableFromInline var nextID: UInt64 = 0

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

  private func remove(_ id: UInt64) {
    // The removed closure is released after the lock is dropped (its deinit may run user code).
    let removed = lock.withLock { () -> ((Input) -> Void)? in
      guard let index = entries.firstIndex(where: { $0.id == id }) else { return nil }
      let entry = entries.remove(at: index)
      entry.isActive.isSet.store(false, ordering: .releasing)
      return entry.receive
    }
    _ = removed
  }

  /// The number of live subscribers.
  var count: Int { lock.withLock { entries.count } }

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
