/// Runs asynchronous work where only the latest request may commit its result — the race
/// pattern of search fields and reloads — for `@MainActor` models.
///
/// ``run(_:commit:)``:
/// 1. cancels the previous task and bumps ``revision``;
/// 2. starts `operation` in a main-actor `Task`;
/// 3. when it completes, calls `commit` only if its revision is still the latest and it was
///    not cancelled — a stale result (a slow first request finishing after a second one) is
///    dropped, whatever it is;
/// 4. never commits the result of a task that was cancelled (whatever it is), so "cancelled"
///    never shows as "failed". A task that was not cancelled but threw `CancellationError`
///    (its operation awaited work that someone else cancelled) commits it: the request did
///    end, and a model must leave its loading state (``LoadPhase/finish(_:)`` treats it as a
///    cancellation, not a failure).
///
/// Its tasks are not a view's: ``ViewHost/settle()`` and ``ViewHost/runningTaskCount`` see
/// only `.task` modifiers' tasks. A test awaits a run with ``wait()`` (from a `.task`, or
/// directly) before settling.
///
/// Store it in a model as an untracked property (no registrar access), so starting and
/// cancelling tasks invalidates no view. Releasing the runner (its model went with the view
/// identity that owned it) cancels the running task: nothing could commit its result any more.
@MainActor
public final class LatestTask<Value> {
  /// Incremented by every ``run(_:commit:)`` and ``cancel()``; a task commits only while its
  /// own revision is current.
  public private(set) var revision = 0
  private var task: Task<Void, Never>?

  /// Creates an idle runner.
  public init() {}

  // The running task holds the runner weakly: once it is gone, nothing commits the result.
  isolated deinit {
    task?.cancel()
  }

  /// True while the latest task has not finished.
  public var isRunning: Bool { task != nil }

  /// Cancels the previous task and runs `operation`; `commit` receives its result only if it is
  /// still the latest and not cancelled (see the type's contract). Returns the new task.
  @discardableResult
  public func run(
    _ operation: @escaping @MainActor () async throws -> Value,
    commit: @escaping @MainActor (Result<Value, any Error>) -> Void
  ) -> Task<Void, Never> {
    task?.cancel()
    revision += 1
    let mine = revision
    let task = Task { @MainActor [weak self] in
      let result: Result<Value, any Error>
      do {
        result = .success(try await operation())
      } catch {
        result = .failure(error)
      }
      guard let self, self.revision == mine else { return }
      self.task = nil
      if Task.isCancelled { return }
      commit(result)
    }
    self.task = task
    return task
  }

  /// Cancels the running task (its result will not be committed). Calling it again cancels
  /// nothing more, but each call advances ``revision``.
  public func cancel() {
    task?.cancel()
    task = nil
    revision += 1
  }

  /// Waits until the latest task (at the time of the call) has finished and committed.
  public func wait() async {
    await task?.value
  }
}
