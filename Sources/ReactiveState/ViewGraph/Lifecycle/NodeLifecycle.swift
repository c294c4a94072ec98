/// Lifecycle bookkeeping of one modifier node (`onAppear`, `onDisappear`, `task`): whether it
/// appeared, what to do when its identity ends, and the task it runs.
@MainActor
final class NodeLifecycle {
  /// True once the appear effect was queued (once per identity).
  var hasAppeared = false
  /// The latest `onDisappear` action the modifier carried.
  var disappear: (@MainActor () -> Void)?
  /// The `.task` modifier's current id (type-erased `Equatable` comparison).
  var taskID: Any?
  /// Serial of the running task in ``ViewHost/tasks``.
  var taskSerial: Int?
  /// The owner of the tasks this identity started (one for all, restarts included), told
  /// when the identity ends.
  var taskOwner: TaskOwner?
}

/// What a `.task` knows of the identity that started it: its writes to state that ended in
/// the same removal are clean-up, dropped without an issue (see `StateCell.set`).
@MainActor
final class TaskOwner {
  /// The removal that ended the identity; 0 while it lives.
  var endedInRemoval = 0
  /// Objects of ended identities its tasks may still read (a `@StateObject`'s), kept alive by
  /// the running tasks, which hold their owner, until they finish.
  var keptAlive: [AnyObject] = []

  /// The owner of the running task, if a `.task` started it (inherited by tasks it creates).
  @TaskLocal static var current: TaskOwner?
}

extension ViewNode {
  /// The node's ``NodeLifecycle`` (created on first use; lives as long as the identity).
  var lifecycle: NodeLifecycle {
    if let existing = slots[-2] as? NodeLifecycle { return existing }
    let created = NodeLifecycle()
    slots[-2] = created
    return created
  }

  /// Queues the post-pass effects of this identity ending: its `onDisappear`, then (in the
  /// task phase) the cancellation of its task.
  func queueEndOfLifeEffects() {
    guard let lifecycle = slots[-2] as? NodeLifecycle else { return }
    if lifecycle.hasAppeared, let disappear = lifecycle.disappear {
      host.enqueueEffect(.disappear, ViewGraphRuntime.endOfLifeAction(disappear))
    }
    lifecycle.taskOwner?.endedInRemoval = ViewGraphRuntime.removalInProgress
    if let serial = lifecycle.taskSerial {
      lifecycle.taskSerial = nil
      // Effects live in the host's queue and run from its `runEffects()`, so the host outlives
      // this closure: no weak reference (which would give the host a side table).
      host.enqueueEffect(.task) { [unowned(unsafe) host] in host.cancelTask(serial) }
    }
  }
}
