import Dispatch

/// Main-actor state shared by all hosts: the node being evaluated and the cause of the write
/// in progress (which `onChange` callbacks cannot otherwise know).
@MainActor
enum ViewGraphRuntime {
  /// The node whose body or expansion is running, if any.
  static var updatingNode: ViewNode?
  /// The cause attached to invalidations fired by the write in progress.
  static var currentCause: UpdateCause?
  /// The removal (``ViewHost/remove(_:)``) whose identities are being torn down now; 0 when
  /// none is. Each removal has its own number.
  private(set) static var removalInProgress = 0
  private static var lastRemoval = 0
  /// The removal whose end-of-life action (an `onDisappear`, an `onDismiss`) is running; 0
  /// when none is. Its writes to state that ended in that same removal are clean-up, dropped
  /// without an issue.
  private(set) static var endOfLifeActionRemoval = 0

  /// Runs `teardown` as a new removal (see ``removalInProgress``).
  static func asRemoval(_ teardown: () -> Void) {
    lastRemoval += 1
    let outer = removalInProgress
    removalInProgress = lastRemoval
    teardown()
    removalInProgress = outer
  }

  /// An effect that runs `action` as clean-up of the removal in progress now.
  static func endOfLifeAction(_ action: @escaping @MainActor () -> Void)
    -> @MainActor () -> Void
  {
    let removal = removalInProgress
    return {
      let outer = endOfLifeActionRemoval
      endOfLifeActionRemoval = removal
      action()
      endOfLifeActionRemoval = outer
    }
  }
  /// Marks the main queue, which runs the main actor's jobs. The main actor is not tied to
  /// one pthread (on Linux, after `dispatchMain()` or under a test runner, its jobs may run
  /// on a worker thread), so "am I on the main actor?" is asked of the queue, not the thread.
  nonisolated private static let mainQueueKey: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
  }()

  /// Whether the caller runs on the main actor (safe to `MainActor.assumeIsolated`).
  nonisolated static var isOnMainActor: Bool {
    DispatchQueue.getSpecific(key: mainQueueKey) == true
  }

  /// Runs `body` as main-actor code without `MainActor.assumeIsolated`'s runtime executor check
  /// (about a thousand instructions per call). The caller must already know that it runs on the
  /// main actor: it checked ``isOnMainActor``, or it is only ever called synchronously from
  /// main-actor code.
  @inline(__always)
  nonisolated static func assumeMainActor<T>(_ body: @MainActor () -> T) -> T {
    // A global actor's isolation is part of the function type only, not of its representation.
    withoutActuallyEscaping(body) { body in unsafeBitCast(body, to: (() -> T).self)() }
  }

  /// ``assumeMainActor(_:)`` for a `body` that receives its input as `argument`: a closure that
  /// captures nothing has no context, so none is allocated per call.
  @inline(__always)
  nonisolated static func assumeMainActor<Argument, T>(
    _ argument: Argument, _ body: @MainActor (Argument) -> T
  ) -> T {
    withoutActuallyEscaping(body) { body in
      unsafeBitCast(body, to: ((Argument) -> T).self)(argument)
    }
  }

  /// Runs `write` with `cause` attached to the invalidations it fires.
  static func withCause(_ cause: UpdateCause, _ write: () -> Void) {
    let outer = currentCause
    currentCause = cause
    write()
    currentCause = outer
  }

  /// Installs the main-queue marker (from the main actor, before any view tracks anything).
  static func recordMainThread() { _ = mainQueueKey }
}
