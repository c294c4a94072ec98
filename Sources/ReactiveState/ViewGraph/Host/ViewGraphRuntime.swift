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
}
