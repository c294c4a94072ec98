/// The views waiting to be re-evaluated, popped shallowest first (ties: mount order), so parents
/// evaluate before their children. A binary heap with lazy deletion: entries of nodes that were
/// evaluated or removed meanwhile are skipped when popped. Membership is the node's `isQueued`
/// flag (a node belongs to one host, so to one queue).
///
/// Each heap entry holds one retain of its node, taken when it is pushed and given back when
/// it is popped or cleared: moving entries while sifting and comparing them then costs no
/// reference counting (a quarter of a re-evaluation's retains went there).
@MainActor
struct DirtyQueue: ~Copyable {
  private var heap: [Unmanaged<ViewNode>] = []
  /// Number of queued nodes (flags set).
  private var count = 0

  init() {}

  deinit { for entry in heap { entry.release() } }

  var isEmpty: Bool { count == 0 }
  /// The queued nodes, each once, in no particular order.
  var nodes: [ViewNode] {
    var seen: Set<ObjectIdentifier> = []
    return heap.map { $0.takeUnretainedValue() }.filter {
      $0.isQueued && seen.insert($0.id).inserted
    }
  }

  func contains(_ node: ViewNode) -> Bool { node.isQueued }

  /// Adds `node`; returns false when it was already queued.
  mutating func insert(_ node: ViewNode) -> Bool {
    guard !node.isQueued else { return false }
    node.isQueued = true
    count += 1
    push(node)
    return true
  }

  mutating func remove(_ node: ViewNode) {
    guard node.isQueued else { return }
    node.isQueued = false
    count -= 1
  }

  mutating func removeAll() {
    for entry in heap {
      entry.takeUnretainedValue().isQueued = false
      entry.release()
    }
    count = 0
    heap.removeAll()
  }

  /// Pops the shallowest queued node for which `isEligible` holds. Ineligible queued nodes
  /// (already evaluated this pass) stay queued and are offered again after ``restart()``.
  mutating func popShallowest(skipping deferred: inout [ViewNode], isEligible: (ViewNode) -> Bool)
    -> ViewNode?
  {
    while let node = popHeap() {
      guard node.isQueued else { continue }
      if isEligible(node) { return node }
      deferred.append(node)
    }
    return nil
  }

  /// Re-offers nodes deferred by ``popShallowest(skipping:isEligible:)`` for the next pass.
  mutating func restart(with deferred: [ViewNode]) {
    for node in deferred where node.isQueued { push(node) }
  }

  /// Nonisolated: main-actor closures handed to `_withUnsafeGuaranteedRef` would check their
  /// executor on entry.
  nonisolated private static func precedes(_ a: Unmanaged<ViewNode>, _ b: Unmanaged<ViewNode>)
    -> Bool
  {
    a._withUnsafeGuaranteedRef { a in
      b._withUnsafeGuaranteedRef { b in
        a.depth != b.depth ? a.depth < b.depth : a.serial < b.serial
      }
    }
  }

  private mutating func push(_ node: ViewNode) {
    heap.append(.passRetained(node))
    var child = heap.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard Self.precedes(heap[child], heap[parent]) else { break }
      heap.swapAt(child, parent)
      child = parent
    }
  }

  private mutating func popHeap() -> ViewNode? {
    guard !heap.isEmpty else { return nil }
    heap.swapAt(0, heap.count - 1)
    let top = heap.removeLast().takeRetainedValue()
    var parent = 0
    while true {
      let left = 2 * parent + 1
      let right = left + 1
      var first = parent
      if left < heap.count, Self.precedes(heap[left], heap[first]) { first = left }
      if right < heap.count, Self.precedes(heap[right], heap[first]) { first = right }
      if first == parent { break }
      heap.swapAt(parent, first)
      parent = first
    }
    return top
  }
}
