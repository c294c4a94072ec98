/// A view that runs an asynchronous action for as long as its identity lives, as SwiftUI's
/// `task(id:priority:_:)`.
///
/// - Started (a main-actor `Task`) in the task phase after the pass that mounted the identity.
/// - Cancelled in the task phase after the pass that ended the identity (after its disappear).
/// - When `id` changes (compared with `==` at each update), the running task is cancelled and a
///   new one started with the action of the new view value — cancel first, then start.
/// - Cancellation is cooperative: the action sees `Task.isCancelled` / `CancellationError`.
///
/// ``ViewHost/runningTaskCount`` counts the host's unfinished tasks and ``ViewHost/settle()``
/// awaits them, so tests can wait for async work deterministically.
public struct TaskView<Content: View, ID: Equatable>: View, PrimitiveView {
  let content: Content
  let id: ID
  let priority: TaskPriority
  let action: @MainActor () async -> Void

  func makeChildren(_ node: ViewNode) -> [ChildSpec] {
    let lifecycle = node.lifecycle
    let isFirst = !lifecycle.hasAppeared
    let changed = !isFirst && (lifecycle.taskID as? ID) != id
    if isFirst || changed {
      lifecycle.hasAppeared = true
      lifecycle.taskID = id
      let (action, priority) = (action, priority)
      let reference = node.reference
      node.host.enqueueEffect(.task) {
        guard let node = reference.node, node.isLive else { return }
        let host = node.host
        if let running = node.lifecycle.taskSerial { host.cancelTask(running) }
        let owner = node.lifecycle.taskOwner ?? TaskOwner()
        node.lifecycle.taskOwner = owner
        node.lifecycle.taskSerial = host.startTask(priority: priority) {
          await TaskOwner.$current.withValue(owner) { await action() }
        }
      }
    }
    return [ChildSpec(component: .slot(0), view: content)]
  }
}

/// The id of a `.task` without an id: never changes.
public struct TaskOnce: Equatable, Sendable {}

extension View {
  /// Runs `action` while this view's identity lives (see ``TaskView``).
  public func task(
    priority: TaskPriority = .userInitiated, _ action: @escaping @MainActor () async -> Void
  ) -> TaskView<Self, TaskOnce> {
    TaskView(content: self, id: TaskOnce(), priority: priority, action: action)
  }

  /// Runs `action` while this view's identity lives, restarting it whenever `id` changes (see
  /// ``TaskView``).
  public func task<ID: Equatable>(
    id: ID, priority: TaskPriority = .userInitiated,
    _ action: @escaping @MainActor () async -> Void
  ) -> TaskView<Self, ID> {
    TaskView(content: self, id: id, priority: priority, action: action)
  }
}
