import CReactiveState

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Releases the objects a thread keeps in its thread-local state for reuse (the spare
/// ``AccessList``, pooled ``OneShotObserver``s, observers' tracking scopes, the transaction
/// bookkeeping) when the thread exits, so short-lived threads leak nothing.
enum ThreadCaches {
  /// A pthread key whose destructor runs at the exit of every thread that set a value.
  private static let exitKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key) { _ in ThreadCaches.releaseAll() }
    return key
  }()

  /// Makes sure the calling thread's caches are released when it exits (one load after the
  /// first call on a thread).
  @inline(__always)
  static func registerExitCleanup(_ thread: UnsafeMutablePointer<rs_thread_state>) {
    if thread.pointee.has_exit_cleanup == 0 { register() }
  }

  /// Out of line, and looks the thread's state up itself: a caller that passed its address
  /// would compute it on every call, for this once-per-thread path.
  @inline(never)
  private static func register() {
    rs_current_thread().pointee.has_exit_cleanup = 1
    pthread_setspecific(exitKey, UnsafeRawPointer(bitPattern: 1))
  }

  private static func releaseAll() {
    let thread = rs_current_thread()
    if let spare = thread.pointee.spare_access_list {
      thread.pointee.spare_access_list = nil
      Unmanaged<AccessList>.fromOpaque(spare).release()
    }
    OneShotObserver.drainPool(thread)
    ObserverScopeStack.drain()
    if let transaction = thread.pointee.transaction, thread.pointee.transaction_depth == 0 {
      thread.pointee.transaction = nil
      Unmanaged<ObservationTransaction>.fromOpaque(transaction).release()
    }
    thread.pointee.has_exit_cleanup = 0
  }
}
