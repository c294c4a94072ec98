/// A derived value of one object's state: the cached backing of that object's computed
/// property, safe to keep inside the object.
///
/// `Computed { [unowned self] in … }` stored in a model makes no cycle, but the model may be
/// released on one thread while another computes the value (an observer that holds the model
/// weakly brings it up to date before it runs): the computation then reads a deinitialising
/// object, or drops the last reference to it under the value's own lock, which the model's
/// deinitialiser waits for. These initialisers close both holes:
///
/// - the value holds `object` weakly, and a computation takes a strong reference first; when
///   `object` is gone it does not run `derive`, and the value's outcome is a
///   ``DerivedObjectReleased`` error (``Computed/get()`` throws it, ``Computed/value`` traps);
/// - the computation gives that reference up only after its thread has released the value's
///   lock, and the locks of the values whose check or computation it is part of, so the last
///   reference to the model is never dropped under a lock its deinitialiser needs.
///
/// The `@Derived` property wrapper of `ReactiveStateMacrosFree` creates one of these on first
/// access, from any thread.
extension Computed {
  /// A derived value of `object`, held weakly, whose recomputations are cut off when
  /// `isEqual(old, new)`. `derive` receives `object`.
  @inlinable
  public convenience init<Object: AnyObject>(
    _ name: String = "Computed", of object: Object, isEqual: @escaping (Value, Value) -> Bool,
    _ derive: @escaping (Object) throws -> Value
  ) {
    self.init(name, isEqual: isEqual, Self.derivation(name, of: object, derive))
  }

  /// A derived value of `object`, held weakly, without equality cut-off. `derive` receives
  /// `object`.
  @inlinable
  public convenience init<Object: AnyObject>(
    _ name: String = "Computed", of object: Object, _ derive: @escaping (Object) throws -> Value
  ) {
    self.init(name, isEqual: { _, _ in false }, Self.derivation(name, of: object, derive))
  }

  /// `derive` applied to `object` through a weak reference (see the extension's notes).
  @inlinable
  static func derivation<Object: AnyObject>(
    _ name: String, of object: Object, _ derive: @escaping (Object) throws -> Value
  ) -> () throws -> Value {
    // A `weak let`, unlike a `[weak object]` capture, is read without an exclusivity check.
    let reference = WeakReference(object: object)
    return {
      guard let object = reference.object else { throw DerivedObjectReleased(name: name) }
      defer { ComputedNode.holdUntilComputationEnds(object) }
      return try derive(object)
    }
  }
}

extension Computed where Value: Equatable {
  /// A derived value of `object`, held weakly, with `==` equality cut-off. `derive` receives
  /// `object`.
  @inlinable
  public convenience init<Object: AnyObject>(
    _ name: String = "Computed", of object: Object, _ derive: @escaping (Object) throws -> Value
  ) {
    self.init(name, Self.derivation(name, of: object, derive))
  }
}

extension ComputedNode {
  /// Called by a computation of an object's derived value: the outermost node its thread
  /// holds locked keeps `object` until that lock is released (see `DerivedNode.hold(_:)`).
  @usableFromInline
  static func holdUntilComputationEnds(_ object: AnyObject) {
    TrackingScope.current?.holdUntilComputationEnds(object)
  }
}

/// A weak reference to an object, immutable.
@usableFromInline
struct WeakReference<Object: AnyObject> {
  @usableFromInline weak let object: Object?

  @usableFromInline init(object: Object) { self.object = object }
}

/// The outcome of a derived value whose object (``Computed/init(_:of:isEqual:_:)``) was
/// released before it could be computed.
public struct DerivedObjectReleased: Error, CustomStringConvertible {
  /// The derived value.
  public let name: String

  @usableFromInline init(name: String) { self.name = name }

  /// Names the derived value and says why it has no value.
  public var description: String {
    "\(name) derives from an object that was released, so it cannot be computed"
  }
}
