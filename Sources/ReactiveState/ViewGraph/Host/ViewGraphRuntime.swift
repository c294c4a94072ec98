#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Main-actor state shared by all hosts: the node being evaluated and the cause of the write
/// in progress (which `onChange` callbacks cannot otherwise know).
@MainActor
enum ViewGraphRuntime {
  /// The node whose body or expansion is running, if any.
  static var updatingNode: ViewNode?
  /// The cause attached to invalidations fired by the write in progress.
  static var currentCause: UpdateCause?
  /// The thread the main actor runs on, recorded when the first host is created (before any
  /// view tracking scope exists, so later readers on other threads see it set).
  nonisolated(unsafe) static var mainThread: pthread_t?

  /// Runs `write` with `cause` attached to the invalidations it fires.
  static func withCause(_ cause: UpdateCause, _ write: () -> Void) {
    let outer = currentCause
    currentCause = cause
    write()
    currentCause = outer
  }

  static func recordMainThread() {
    if mainThread == nil { mainThread = pthread_self() }
  }

  /// The `onChange` handler for one tracking scope of `reference`'s node. The event names the
  /// key path that is about to change; a write by a view-graph cell (`@State`, environment)
  /// names itself through ``currentCause`` instead.
  nonisolated static func invalidation(_ reference: WeakNodeReference, generation: UInt64)
    -> @Sendable (ObservationTracking.Event) -> Void
  {
    { event in
      if let main = mainThread, pthread_equal(main, pthread_self()) != 0 {
        MainActor.assumeIsolated {
          invalidate(reference, generation: generation, event: event, cause: currentCause)
        }
      } else {
        Task { @MainActor in
          invalidate(reference, generation: generation, event: event, cause: nil)
        }
      }
    }
  }

  private static func invalidate(
    _ reference: WeakNodeReference, generation: UInt64, event: ObservationTracking.Event,
    cause: UpdateCause?
  ) {
    guard let node = reference.node, node.isLive, node.generation == generation else { return }
    // `Event.keyPath` is internal to the engine; the view graph lives in the same module.
    let resolved =
      cause ?? event.keyPath.map { .modelProperty(ObservedKeyPath($0)) }
      ?? .unknownProperty
    node.host?.invalidate(node, cause: resolved)
  }
}
