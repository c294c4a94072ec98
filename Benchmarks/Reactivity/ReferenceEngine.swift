/// The test oracle's signals engine: a small, deliberately plain push-pull implementation of
/// the three-colour algorithm (Clean / Check / Dirty, after milomg/reactively).
///
/// - A write marks direct observers Dirty and everything further downstream Check, queueing
///   effects that were Clean.
/// - A read of a Check node first brings its sources up to date, in read order, and stops at
///   the first source whose value changed (which turns the node Dirty); a Dirty node recomputes.
///   A recompute that yields an equal value leaves observers alone (equality cut-off).
/// - Dependencies are re-collected on every run; a run that reads the same sources in the same
///   order reuses the array, and a per-run epoch drops repeated reads of one source.
/// - Effects are queued during marking and run when the outermost batch ends.
///
/// It is the oracle for the scenarios' expected values, not the product: it uses arrays and
/// recursion. The runtime owns every node until `disposeAll`, so edges are unowned references
/// (no reference counting while propagating).
final class ReferenceRuntime {
  /// Node being (re)computed; reads register themselves with it.
  var currentObserver: Unmanaged<ReferenceNode>?
  /// Epoch of the current run, used to skip repeated reads of one source.
  var currentEpoch: UInt64 = 0
  private var nextEpoch: UInt64 = 0
  /// Number of leading sources of `currentObserver` read again in the same order.
  var reusedSources = 0
  /// Sources read in the current run beyond the reused prefix.
  var newSources: [NodeRef]?
  private var batchDepth = 0
  private var flushing = false
  private var pendingEffects: [ReferenceNode] = []
  /// Every node created since the last `disposeAll`.
  private var nodes: [ReferenceNode] = []

  func register(_ node: ReferenceNode) { nodes.append(node) }

  /// Records a read of `source` by the running computation, if any.
  @inline(__always) func track(_ source: ReferenceNode) {
    guard let observer = currentObserver, source.readEpoch != currentEpoch else { return }
    source.readEpoch = currentEpoch
    if newSources == nil,
      observer._withUnsafeGuaranteedRef({ reusesSource(source, of: $0) })
    {
      reusedSources += 1
    } else if newSources == nil {
      newSources = [NodeRef(source)]
    } else {
      newSources!.append(NodeRef(source))
    }
  }

  @inline(__always) private func reusesSource(
    _ source: ReferenceNode, of observer: ReferenceNode
  ) -> Bool {
    reusedSources < observer.sources.count && observer.sources[reusedSources].node === source
  }

  /// Brings `node` up to date (recomputing it if a source changed) and marks it clean.
  func updateIfNecessary(_ node: ReferenceNode) {
    if node.state == .check {
      let sources = node.sources  // one retain for the loop, not one per access
      for source in sources {
        updateIfNecessary(source.node)
        if node.state == .dirty { break }
      }
    }
    if node.state == .dirty { update(node) }
    node.state = .clean
  }

  /// Recomputes `node`, re-collecting its sources; marks observers Dirty if the value changed.
  private func update(_ node: ReferenceNode) {
    let savedObserver = currentObserver
    let savedReused = reusedSources
    let savedNew = newSources
    let savedEpoch = currentEpoch
    nextEpoch &+= 1
    currentEpoch = nextEpoch
    currentObserver = Unmanaged.passUnretained(node)
    reusedSources = 0
    newSources = nil

    let changed = node.recompute()

    if let added = newSources {
      unlinkSources(of: node, from: reusedSources)
      node.sources.append(contentsOf: added)
      for source in added { source.node.observers.append(NodeRef(node)) }
    } else if reusedSources < node.sources.count {
      unlinkSources(of: node, from: reusedSources)
    }

    currentObserver = savedObserver
    reusedSources = savedReused
    newSources = savedNew
    currentEpoch = savedEpoch

    if changed {
      let observers = node.observers
      for observer in observers { observer.node.state = .dirty }
    }
  }

  private func unlinkSources(of node: ReferenceNode, from start: Int) {
    for source in node.sources[start...] { source.node.removeObserver(node) }
    node.sources.removeSubrange(start...)
  }

  /// Marks `node` at least `state`, and its downstream at least Check; queues effects.
  func markStale(_ node: ReferenceNode, _ state: ReferenceNode.State) {
    guard node.state < state else { return }
    if node.state == .clean, node.isEffect { pendingEffects.append(node) }
    node.state = state
    let observers = node.observers
    for observer in observers { markStale(observer.node, .check) }
  }

  /// Runs `body` as one batch; queued effects run after the outermost batch.
  func batch(_ body: () -> Void) {
    batchDepth += 1
    body()
    batchDepth -= 1
    if batchDepth == 0 { flushEffects() }
  }

  /// Runs queued effects unless a batch is open (or a flush is already running).
  func flushEffects() {
    guard batchDepth == 0, !flushing else { return }
    flushing = true
    var index = 0
    while index < pendingEffects.count {
      let effect = pendingEffects[index]
      index += 1
      if !effect.isDisposed { updateIfNecessary(effect) }
    }
    pendingEffects.removeAll(keepingCapacity: true)
    flushing = false
  }

  /// Disposes every node created so far, breaking all reference cycles.
  func disposeAll() {
    for node in nodes {
      node.isDisposed = true
      node.sources = []
      node.observers = []
    }
    nodes = []
    pendingEffects = []
  }
}

/// A graph edge end: a node reference that does not count (the runtime owns all nodes).
struct NodeRef {
  unowned(unsafe) let node: ReferenceNode
  init(_ node: ReferenceNode) { self.node = node }
}

/// A node of the reference graph: a signal, a computed, or an effect.
class ReferenceNode {
  /// The three colours of the algorithm.
  enum State: Int, Comparable {
    case clean, check, dirty
    static func < (lhs: State, rhs: State) -> Bool { lhs.rawValue < rhs.rawValue }
  }

  private let runtimeReference: Unmanaged<ReferenceRuntime>
  var state: State
  let isEffect: Bool
  var isDisposed = false
  var readEpoch: UInt64 = 0
  /// Nodes this one read in its last run, in read order.
  var sources: [NodeRef] = []
  /// Nodes that read this one in their last run.
  var observers: [NodeRef] = []

  init(runtime: ReferenceRuntime, state: State, isEffect: Bool = false) {
    runtimeReference = Unmanaged.passUnretained(runtime)
    self.state = state
    self.isEffect = isEffect
    runtime.register(self)
  }

  /// The owning runtime, borrowed without reference counting (it outlives its nodes' use).
  @inline(__always) func withRuntime<R>(_ body: (ReferenceRuntime) -> R) -> R {
    runtimeReference._withUnsafeGuaranteedRef(body)
  }

  /// Runs the node's body; returns whether its value changed.
  func recompute() -> Bool { false }

  func removeObserver(_ node: ReferenceNode) {
    if let index = observers.lastIndex(where: { $0.node === node }) {
      observers.swapAt(index, observers.count - 1)
      observers.removeLast()
    }
  }
}

/// A writable source value.
final class ReferenceSignal<Value: Equatable>: ReferenceNode {
  private var value: Value

  init(runtime: ReferenceRuntime, value: Value) {
    self.value = value
    super.init(runtime: runtime, state: .clean)
  }

  func read() -> Value {
    withRuntime { $0.track(self) }
    return value
  }

  func write(_ newValue: Value) {
    guard newValue != value else { return }
    value = newValue
    withRuntime { runtime in
      for observer in observers { runtime.markStale(observer.node, .dirty) }
      runtime.flushEffects()
    }
  }
}

/// A lazy, cached derived value.
final class ReferenceComputed<Value: Equatable>: ReferenceNode {
  private var value: Value?
  private let body: () -> Value

  init(runtime: ReferenceRuntime, body: @escaping () -> Value) {
    self.body = body
    super.init(runtime: runtime, state: .dirty)
  }

  func read() -> Value {
    withRuntime { runtime in
      runtime.track(self)
      runtime.updateIfNecessary(self)
    }
    return value!
  }

  override func recompute() -> Bool {
    let newValue = body()
    defer { value = newValue }
    return value != newValue
  }
}

/// A side effect that re-runs after a batch that changed something it read.
final class ReferenceEffect: ReferenceNode {
  private let body: () -> Void

  init(runtime: ReferenceRuntime, body: @escaping () -> Void) {
    self.body = body
    super.init(runtime: runtime, state: .dirty, isEffect: true)
  }

  override func recompute() -> Bool {
    body()
    return false
  }
}
