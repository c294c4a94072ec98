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
      host.enqueueEffect(.disappear) {
        ViewGraphRuntime.isRunningEndOfLifeAction = true
        defer { ViewGraphRuntime.isRunningEndOfLifeAction = false }
        disappear()
      }
    }
    if let serial = lifecycle.taskSerial {
      lifecycle.taskSerial = nil
      // Effects live in the host's queue and run from its `runEffects()`, so the host outlives
      // this closure: no weak reference (which would give the host a side table).
      host.enqueueEffect(.task) { [unowned(unsafe) host] in host.cancelTask(serial) }
    }
  }
}
