import CReactiveState

/// The calling thread's tracking scopes for continuous observers' runs, by nesting depth.
///
/// A scope is state of one run, installed and removed on one thread before the run returns.
/// So instead of each observer owning a scope object for its whole life, a run checks out its
/// thread's scope for its nesting depth and hands it back at its end: setting up an observer
/// (a view mounting, an `observe` call) allocates one object fewer, for about 17 instructions
/// per run. Derived values keep their own scope: they are recomputed far more often than
/// created. Each depth's scope is created on first use and kept until the thread exits (see
/// ``ThreadCaches``); runs nested deeper than `RS_OBSERVER_SCOPE_LIMIT` use one of their own.
enum ObserverScopeStack {
  /// The scope for a run of `observer`, pointed at it.
  @inline(__always)
  static func checkOut(for observer: ContinuousObserver) -> Unmanaged<ObserverScope> {
    let thread = rs_current_thread()
    // Wrapping arithmetic: a depth is a small count that check-ins balance (no trap checks).
    let level = Int(truncatingIfNeeded: thread.pointee.observer_scope_depth)
    thread.pointee.observer_scope_depth &+= 1
    let scope =
      level < RS_OBSERVER_SCOPE_LIMIT
      ? rs_observer_scopes()[level].map { Unmanaged<ObserverScope>.fromOpaque($0) } : nil
    let checkedOut = scope ?? allocate(at: level, thread)
    checkedOut._withUnsafeGuaranteedRef { $0.observer = .passUnretained(observer) }
    return checkedOut
  }

  @inline(never)
  private static func allocate(at level: Int, _ thread: UnsafeMutablePointer<rs_thread_state>)
    -> Unmanaged<ObserverScope>
  {
    let scope = Unmanaged.passRetained(ObserverScope())
    if level < RS_OBSERVER_SCOPE_LIMIT {
      ThreadCaches.registerExitCleanup(thread)
      rs_observer_scopes()[level] = scope.toOpaque()
    }
    return scope
  }

  /// Hands back the scope of the run that ends (ended, no longer current).
  @inline(__always)
  static func checkIn(_ scope: Unmanaged<ObserverScope>) {
    let thread = rs_current_thread()
    thread.pointee.observer_scope_depth &-= 1
    if thread.pointee.observer_scope_depth >= RS_OBSERVER_SCOPE_LIMIT { scope.release() }
  }

  /// Releases the calling thread's scopes (it is exiting; none is checked out).
  static func drain() {
    let scopes = rs_observer_scopes()
    for level in 0..<Int(RS_OBSERVER_SCOPE_LIMIT) {
      if let kept = scopes[level] { Unmanaged<ObserverScope>.fromOpaque(kept).release() }
      scopes[level] = nil
    }
  }
}
