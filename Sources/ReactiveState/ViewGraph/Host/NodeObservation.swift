#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The scheduler of one node's continuous observer: it never runs the re-evaluation itself but
/// parks it by marking the node dirty, so the host evaluates it during its next update pass
/// (parents first, each node at most once per pass). The evaluation consumes the queued run
/// (`ContinuousObserver.runNow()`), so the parked work is dropped. As the observer's
/// ``ObserverParking``, it is handed the observer rather than a closure (nothing to allocate).
final class NodeScheduler: ObserverParking, ObservationScheduler, @unchecked Sendable {
  private let reference: WeakNodeReference

  init(_ reference: WeakNodeReference) { self.reference = reference }

  /// The end of the node's own run, which a change of something it read marked dirty: a
  /// write made by the body's thread, or one another thread made (or ended: its `didSet`)
  /// while the body ran. Only the former is a write during the update.
  func schedule(_ work: @escaping @Sendable () -> Void) {
    markNodeDirty(endOfOwnRun: true)
  }

  override func park(_ observer: ContinuousObserver) { markNodeDirty(endOfOwnRun: false) }

  private func markNodeDirty(endOfOwnRun: Bool) {
    let reference = reference
    if ViewGraphRuntime.isOnMainActor {
      ViewGraphRuntime.assumeMainActor(reference) { reference in
        guard let node = reference.node else { return }
        // The run's thread is this one (no other thread writes the flag while it ends).
        let otherThread = endOfOwnRun && node.observer?.dirtiedByOwnThread == false
        NodeScheduler.invalidate(
          node, cause: ViewGraphRuntime.currentCause, changedElsewhere: otherThread)
      }
    } else {
      // A model mutated on another thread: hop to the main actor (no `@State` cause there).
      Task { @MainActor in
        guard let node = reference.node else { return }
        NodeScheduler.invalidate(node, cause: nil, changedElsewhere: true)
      }
    }
  }

  /// Invalidates `node` (``ViewHost/invalidate(_:cause:duringUpdate:)`` ignores a node that
  /// is no longer live).
  @MainActor
  private static func invalidate(
    _ node: ViewNode, cause: UpdateCause?, changedElsewhere: Bool
  ) {
    // The key path is known now (the observer queued it); view-graph cells name themselves.
    var resolved = cause ?? .unknownProperty
    // `if let`, not `Optional.map`: a closure here would check its main-actor isolation.
    if cause == nil, let keyPath = node.observer?.queuedKeyPath {
      resolved = .modelProperty(ObservedKeyPath(keyPath))
    }
    node.host.invalidate(node, cause: consume resolved, duringUpdate: !changedElsewhere)
  }
}

/// What one tracked run of a node does (see ``ViewNode/runTracked(force:_:)``). The node holds
/// it for its observer's run, so an evaluation allocates no closure.
enum NodeRun {
  /// Evaluate the view's `body`; `cause` is what invalidated it.
  case body(cause: UpdateCause)
  /// Expand the built-in view (its `makeChildren`).
  case expansion
}

extension ViewNode {
  /// Performs `run` (through ``ViewHost/perform(_:of:event:)``) as this node's tracked
  /// evaluation: the first call creates the node's single continuous observer (edges are reused
  /// across runs, cancelled at teardown); later calls re-run it. Returns the children the run
  /// produced, or nil when the run was skipped (unless `force`: only derived values it read
  /// were invalidated and they recomputed to equal values).
  func runTracked(force: Bool, _ run: consuming NodeRun) -> [ChildSpec]? {
    pendingRun = consume run
    defer {
      pendingRun = nil
    }
    if let observer {
      observer.runNow(force: force)
    } else {
      let reference = reference
      let scheduler = NodeScheduler(reference)
      let observer = ContinuousObserver(
        triggers: [.willSet, .didSet], scheduler: scheduler, label: "\(typeName).body",
        parking: scheduler,
        parksRuns: true,
        body: .events { event in
          // The body only runs inside `runNow`/`start` below, called on the main actor: with
          // `parksRuns`, the engine hands every other run to the scheduler, which only parks it.
          ViewGraphRuntime.assumeMainActor {
            guard let node = reference.node, let run = node.pendingRun else { return }
            node.workResult = node.host.perform(run, of: node, event: event)
          }
        })
      self.observer = observer
      observationToken = ObservationToken(observer)
      observer.start()
    }
    let result = workResult
    workResult = nil
    return result
  }
}
