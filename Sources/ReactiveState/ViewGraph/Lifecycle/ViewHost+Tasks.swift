extension ViewHost {
  /// Number of tasks started by `.task` modifiers that have not finished (cancelled tasks
  /// count until their action returns).
  public var runningTaskCount: Int { tasks.count }

  /// Applies pending updates, then awaits every running task (and tasks they cause to start),
  /// applying updates after each, until no task is running and nothing is pending.
  ///
  /// Only call it when every running task can finish: a task suspended on a continuation the
  /// test has not resumed keeps `settle()` waiting.
  public func settle() async {
    while true {
      flush()
      guard let (serial, task) = tasks.min(by: { $0.key < $1.key }) else {
        if hasPendingUpdates && !isClosed { continue }
        return
      }
      await task.value
      tasks[serial] = nil
    }
  }

  /// Ends every identity (as closing a window does): the post-pass effects of the removal run
  /// now — `onDisappear` actions, then task cancellations — and the host stops updating.
  /// Effects still pending from an earlier pass (in `.manual` mode, before its `flush()`) run
  /// first, so a view's `onAppear` always precedes its `onDisappear`. Changes not yet
  /// flushed are dropped. Writes through captured bindings are ignored afterwards. The ended
  /// identities' storage is released (a `@StateObject`'s object is freed unless something else
  /// keeps it), though the host itself may still be referenced. Idempotent.
  public func close() {
    guard !isClosed else { return }
    runEffects()
    remove(root)
    runEffects()
    isClosed = true
    // The host keeps its (ended) tree for inspection; the storage the identities owned goes.
    forEachNode(under: root) { $0.slots.removeAll() }
  }

  func startTask(priority: TaskPriority, _ action: @escaping @MainActor () async -> Void) -> Int {
    nextTaskSerial += 1
    let serial = nextTaskSerial
    tasks[serial] = Task(priority: priority) { @MainActor [weak self] in
      await action()
      self?.tasks[serial] = nil
    }
    return serial
  }

  func cancelTask(_ serial: Int) {
    tasks[serial]?.cancel()
  }
}
