/// The views waiting to be re-evaluated, popped shallowest first (ties: mount order), so parents
/// evaluate before their children. A binary heap with lazy deletion: entries of nodes that were
/// evaluated or removed meanwhile are skipped when popped.
@MainActor
struct DirtyQueue {
  private var members: [ObjectIdentifier: ViewNode] = [:]
  private var heap: [ViewNode] = []

  var isEmpty: Bool { members.isEmpty }
  var nodes: Dictionary<ObjectIdentifier, ViewNode>.Values { members.values }

  func contains(_ node: ViewNode) -> Bool { members[node.id] != nil }

  /// Adds `node`; returns false when it was already queued.
  mutating func insert(_ node: ViewNode) -> Bool {
    guard members.updateValue(node, forKey: node.id) == nil else { return false }
    push(node)
    return true
  }

  mutating func remove(_ node: ViewNode) { members[node.id] = nil }

  mutating func removeAll() {
    members.removeAll()
    heap.removeAll()
  }

  /// Pops the shallowest queued node for which `isEligible` holds. Ineligible queued nodes
  /// (already evaluated this pass) stay queued and are offered again after ``restart()``.
  mutating func popShallowest(skipping deferred: inout [ViewNode], isEligible: (ViewNode) -> Bool)
    -> ViewNode?
  {
    while let node = popHeap() {
      guard members[node.id] === node else { continue }
      if isEligible(node) { return node }
      deferred.append(node)
    }
    return nil
  }

  /// Re-offers nodes deferred by ``popShallowest(skipping:isEligible:)`` for the next pass.
  mutating func restart(with deferred: [ViewNode]) {
    for node in deferred where members[node.id] === node { push(node) }
  }

  private static func precedes(_ a: ViewNode, _ b: ViewNode) -> Bool {
    a.depth != b.depth ? a.depth < b.depth : a.serial < b.serial
  }

  private mutating func push(_ node: ViewNode) {
    heap.append(node)
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
    let top = heap.removeLast()
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
