import Synchronization

/// The graph side of a memoized derived value (``Computed``): both a source (others read
/// it) and a subscriber (it reads others).
///
/// Push-pull: a change walks down through derived nodes marking them stale (iteratively, in
/// ``ChangePropagation/notify(_:_:)``); nothing is computed then. A read pulls: a stale node
/// first brings its inputs up to date, in the order it read them, and recomputes only if one
/// of their versions moved — so each node recomputes at most once per change, an observer
/// never sees a mix of old and new inputs, and a recomputation that yields an equal value
/// stops there (its version does not move).
///
/// Ownership: a derived node holds its inputs strongly (`inputs`), inputs never hold it
/// (links are unowned). When its last subscriber goes away it drops its upstream links and
/// recomputes on its next read.
@usableFromInline
class DerivedNode: SourceNode, @unchecked Sendable {
  /// Name used in diagnostics.
  @usableFromInline let name: String
  /// Propagation stack link (graph lock).
  @exclusivity(unchecked) final var nextToWalk: Unmanaged<DerivedNode>?
  /// The last propagation pass that reached this node (graph lock).
  @exclusivity(unchecked) final var walkedPass: UInt64 = 0
  /// Orphan worklist link (graph lock).
  @exclusivity(unchecked) unowned(unsafe) final var nextOrphan: DerivedNode?
  /// An input may have changed since the value was computed (or there is no value yet).
  final let isStale = Atomic<Bool>(true)
  /// A computation is in progress: its dependency list belongs to the computing thread
  /// (graph lock).
  @exclusivity(unchecked) final var isComputing = false
  /// Upstream links were dropped (no subscribers left): the next read recomputes. Written
  /// under the graph lock, read by the computing thread.
  final let isUnlinked = Atomic<Bool>(false)
  /// Waiting in the orphan worklist (graph lock).
  @exclusivity(unchecked) final var isQueuedOrphan = false
  /// The thread computing right now (cycle detection), 0 when none.
  final let computingThread = Atomic<UInt64>(0)
  /// Serialises computations and validations of this node.
  final let computeLock = WordLock()
  /// What the last computation read, in order, with the versions it saw (compute lock).
  @exclusivity(unchecked) final var inputs = InputList()
  /// The last link confirmed by the running computation (computing thread).
  @exclusivity(unchecked) private var cursor: LinkPointer?
  private let scope = DerivedScope()

  init(name: String) {
    self.name = name
    super.init(interest: [.willSet, .didSet], isDerived: true)
    scope.node = Unmanaged.passUnretained(self)
  }

  deinit {
    ChangePropagation.detachSubscribers(of: self)
    inputs.removeAll()
  }

  // MARK: - Subclass hooks

  /// Runs the derivation with tracking active and stores its outcome; returns whether the
  /// value differs from the previous one (always true for the first value and for errors).
  func evaluateAndStore() -> Bool { fatalError("abstract") }

  /// Whether a value (or error) is cached.
  var hasValue: Bool { fatalError("abstract") }

  // MARK: - Push (graph lock held)

  /// From propagation: records that an input changes; returns whether to walk on to this
  /// node's subscribers (each node is walked at most once per change).
  final func invalidate(_ event: SourceEvent, pass: UInt64) -> Bool {
    guard walkedPass != pass else { return false }
    walkedPass = pass
    switch event {
    case .willSet:
      return !isStale.load(ordering: .relaxed) && firstSubscriber != nil
    case .didSet:
      if isStale.exchange(true, ordering: .sequentiallyConsistent) { return false }
      return firstSubscriber != nil
    case .deinitialized:
      return false
    }
  }

  override func sourceWillDeinitialize(_ link: LinkPointer) -> Bool {
    if isComputing { ReactiveNode.detachFromSource(link) }
    isStale.store(true, ordering: .sequentiallyConsistent)
    return false
  }

  /// The last subscriber went away: drop upstream links (graph lock).
  final func dropUpstream() {
    guard !isComputing else { return }
    unlinkAllDependencies()
    isUnlinked.store(true, ordering: .sequentiallyConsistent)
    isStale.store(true, ordering: .sequentiallyConsistent)
  }

  // MARK: - Pull

  /// Brings the cached value up to date. Returns false when reading it now would be a cycle
  /// (the diagnostic is reported).
  final func refresh() -> Bool {
    guard refreshKeepingLock() else { return false }
    computeLock.unlock()
    return true
  }

  /// ``refresh()`` that leaves the compute lock held on success (the caller reads the value
  /// and unlocks).
  final func refreshKeepingLock() -> Bool {
    if computingThread.load(ordering: .relaxed) == TrackingScope.currentThreadIdentity {
      ObservationDiagnostics.report(
        "\(name) reads itself (a cycle through derived values); the read fails with "
          + "DerivedValueCycle. To fix: remove the read of \(name) from its own derivation "
          + "(directly or through another derived value)"
      )
      return false
    }
    computeLock.lock()
    guard isStale.load(ordering: .acquiring) else { return true }
    isStale.store(false, ordering: .sequentiallyConsistent)
    // Consuming the change: the next write to an input must walk here again.
    ObservationWave.advanceIfMarked()
    if hasValue && !isUnlinked.load(ordering: .sequentiallyConsistent) && !inputsChanged() {
      return true
    }
    compute()
    return true
  }

  /// Whether any input's version moved since the last computation (refreshing derived
  /// inputs first, in read order, stopping at the first change).
  private func inputsChanged() -> Bool {
    for input in inputs.inputs {
      let moved = input.source._withUnsafeGuaranteedRef { source in
        if source.isDerived { _ = unsafeDowncast(source, to: DerivedNode.self).refresh() }
        return source.version.load(ordering: .sequentiallyConsistent) != input.version
      }
      if moved { return true }
    }
    return false
  }

  private func compute() {
    computingThread.store(TrackingScope.currentThreadIdentity, ordering: .relaxed)
    GraphLock.withLock { isComputing = true }
    if isUnlinked.load(ordering: .relaxed) {
      isUnlinked.store(false, ordering: .sequentiallyConsistent)
    }
    cursor = nil
    inputs.restart()
    scope.reset()
    scope.begin()
    let changed = evaluateAndStore()
    scope.end()
    inputs.trim()
    GraphLock.withLock {
      unlinkDependencies(after: cursor)
      isComputing = false
    }
    computingThread.store(0, ordering: .relaxed)
    // By two: odd versions mean "mutation in flight" to readers of property slots.
    if changed { version.wrappingAdd(2, ordering: .sequentiallyConsistent) }
  }

  /// Records an input read during a computation (computing thread).
  final func track(_ source: SourceNode, stamp: UInt64) {
    guard source.isFirstRead(byScope: stamp) else { return }
    let version = source.version.load(ordering: .sequentiallyConsistent)
    inputs.append(source, version: version)
    cursor = reuseOrLink(source, version: version, after: cursor)
  }
}

/// The tracking scope of a derived value's computation: its reads become the node's inputs
/// and never leak into the scope that read the derived value.
final class DerivedScope: TrackingScope {
  /// Set once, right after the node is initialised; the node owns this scope.
  @exclusivity(unchecked) var node: Unmanaged<DerivedNode>?

  override func record(_ source: SourceNode) {
    node.unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.track(source, stamp: stamp) }
  }
}
