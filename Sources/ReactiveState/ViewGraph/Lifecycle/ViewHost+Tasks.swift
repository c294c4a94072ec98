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
  /// flushed are dropped. Writes through captured bindings are ignored afterwards (and
  /// recorded in ``issues``). Idempotent, also from an effect the closing runs: a `close()`
  /// made by an `onDisappear` (or a sheet's `onDismiss`) while the host closes returns at once.
  ///
  /// The tree is released, though the host itself may still be referenced: every view value,
  /// the storage its identities owned, and what their closures captured (a `@State` model, a
  /// `@StateObject`'s object) are freed unless something else keeps them. The host keeps
  /// what the tree last showed: ``texts`` and ``render()`` return it; there are no live
  /// views any more, so ``nodeCount`` is 0 and no control is found.
  public func close() {
    guard !isClosing else { return }
    isClosing = true
    runEffects()
    remove(root)
    runEffects()
    endedTree = EndedTreeSnapshot(texts: texts, rendering: render())
    releaseTree()
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
