/// Deallocation passes (``ChangePropagation/detachPass``), oldest first, at most
/// ``capacity`` of them (graph lock): those in which objects a derived value read went away
/// while linked to it, or those an event registration has reported a `.deinit` for.
///
/// Bounded, so a long-lived value whose inputs keep coming and going keeps a few words: past
/// the bound the oldest pass is forgotten, and a registration may then miss, or repeat, the
/// report of an object that went that many deallocations ago.
struct DeallocationPasses {
  /// How many passes are kept.
  static let capacity = 8

  /// The passes, oldest first.
  private(set) var passes: [UInt64] = []

  /// Adds `pass`, forgetting the oldest beyond ``capacity``.
  mutating func insert(_ pass: UInt64) {
    guard !passes.contains(pass) else { return }
    // Passes only grow, so this appends, except when merging another set.
    let index = passes.lastIndex { $0 < pass }.map { $0 + 1 } ?? 0
    passes.insert(pass, at: index)
    if passes.count > Self.capacity { passes.removeFirst(passes.count - Self.capacity) }
  }

  /// Adds every pass of `other`.
  mutating func formUnion(_ other: DeallocationPasses) {
    for pass in other.passes { insert(pass) }
  }

  /// The passes of this set that `other` does not hold.
  func subtracting(_ other: DeallocationPasses) -> [UInt64] {
    passes.filter { !other.passes.contains($0) }
  }
}
