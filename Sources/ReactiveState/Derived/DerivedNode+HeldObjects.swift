/// Objects a computation must not release while its thread holds compute locks.
///
/// A ``Computed/init(_:of:isEqual:_:)`` value holds its object weakly and takes a strong
/// reference for each computation. If that were the last reference (another thread dropped
/// the object meanwhile), releasing it would free the object, and with it its derived values,
/// whose deinitialisers take their compute locks — including locks this thread holds: the
/// computing value's own, the values whose check is bringing it up to date, and those whose
/// derivations read it. So the reference is handed to the outermost of those nodes and
/// released when that node's lock is, after every lock nested in it.
extension DerivedNode {
  /// The outermost node this thread holds locked, from the computation of `scope`'s node:
  /// up each node's check stack (``stackParent``), and out through the derived computations
  /// that enclose it (their scopes, the current scope's ancestors — past a
  /// `withoutObservationTracking` too, through the scope it suspended).
  static func outermostLocked(from scope: DerivedScope) -> DerivedNode {
    var outermost = scope.node.unsafelyUnwrapped.takeUnretainedValue()
    var current: TrackingScope? = scope
    while let candidate = current {
      if let derived = candidate as? DerivedScope {
        var node = derived.node.unsafelyUnwrapped
        while let parent = node._withUnsafeGuaranteedRef({ $0.stackParent }) { node = parent }
        outermost = node.takeUnretainedValue()
      }
      current = (candidate.parent ?? candidate.suspendedScope).map {
        Unmanaged<TrackingScope>.fromOpaque($0).takeUnretainedValue()
      }
    }
    return outermost
  }

  /// Keeps `object` until this node's compute lock (held by this thread) is released.
  func hold(_ object: AnyObject) {
    switch heldUntilUnlocked {
    case nil:
      heldUntilUnlocked = object
    case let held? where held === object:
      return
    case let list as HeldObjects:
      if !list.objects.contains(where: { $0 === object }) { list.objects.append(object) }
    case let held?:
      heldUntilUnlocked = HeldObjects(objects: [held, object])
    }
  }

  /// ``releaseComputeLock()`` when objects are held: they are released after the lock.
  @inline(never)
  final func releaseComputeLockThenHeldObject() {
    let held = heldUntilUnlocked.take()
    releaseComputeLock()  // nothing held now: the plain release
    _ = consume held
  }
}

/// More than one object held by a node (see ``DerivedNode/hold(_:)``).
final class HeldObjects {
  var objects: [AnyObject]
  init(objects: [AnyObject]) { self.objects = objects }
}
