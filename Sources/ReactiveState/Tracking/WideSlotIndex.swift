/// The slots of a registrar with many observed properties (e.g. one per subscript index), by
/// the `hashValue` of their key paths. Kept by the registrar's head slot, under the graph lock.
///
/// Keyed by an `Int` the caller computes before it takes the lock, and answering with
/// candidates the caller compares after releasing it: a key path's `hash(into:)` and `==` call
/// those of its subscript arguments — user code, which must not run under the graph lock (it
/// may read a tracked property, whose first tracked read takes the lock).
struct WideSlotIndex {
  /// The first slot indexed under each hash.
  private var firstSlots: [Int: PropertySlot] = [:]
  /// Further slots whose key paths share a hash with another's (rare).
  private var collisions: [Int: [PropertySlot]] = [:]

  /// The slots whose key paths hash to `hash`: the first one, then any others.
  func candidates(hash: Int) -> (first: PropertySlot?, others: [PropertySlot]) {
    guard let first = firstSlots[hash] else { return (nil, []) }
    return (first, collisions.isEmpty ? [] : collisions[hash] ?? [])
  }

  /// Indexes `slot`, whose key path hashes to `hash`.
  mutating func insert(_ slot: PropertySlot, hash: Int) {
    if firstSlots[hash] == nil {
      firstSlots[hash] = slot
    } else {
      collisions[hash, default: []].append(slot)
    }
  }
}
