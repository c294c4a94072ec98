import CReactiveState

/// Strong references a walk under ``GraphLock`` holds on the subscribers it reaches — in
/// unoptimised builds only — released after the lock.
///
/// A walk reaches subscribers through unowned links: one whose last owner lets go on another
/// thread meanwhile stays allocated, because its deinitialiser first waits for the lock the
/// walk holds. Optimised code never retains a subscriber there. Unoptimised code retains and
/// releases `self` around many member accesses, and such a release can be the last one: the
/// subscriber would then be deinitialised on the walking thread, under the lock its
/// deinitialiser takes — a deadlock. A pin keeps every such release from being the last; a
/// subscriber already being deinitialised is not pinned (and transient retains cannot
/// deinitialise it again).
struct WalkPins: ~Copyable {
  private var pinned: [Unmanaged<ReactiveNode>] = []

  /// Pins `node` if this is an unoptimised build and it is not being deinitialised.
  @inline(__always)
  mutating func pin(_ node: Unmanaged<ReactiveNode>) {
    if _isDebugAssertConfiguration() && swift_tryRetain(node.toOpaque()) != nil {
      pinned.append(node)
    }
  }

  /// Releases the pins; call after releasing the lock (a release may deinitialise).
  consuming func release() {
    for node in pinned { node.release() }
  }
}
