/// A class whose ``Tracked`` properties report to the registrar it exposes.
///
/// Adopt it on a class and store one registrar:
/// ```swift
/// final class Person: TrackedObservable, @unchecked Sendable {
///   let observationRegistrar = ObservationRegistrar()
///   @Tracked var name = ""
/// }
/// ```
///
/// Contract:
/// - Classes only (`AnyObject`): ``Tracked`` reaches the object through the enclosing-instance
///   subscript, which the compiler provides for class properties only.
/// - ``observationRegistrar`` must return the same registrar for the object's whole life (a
///   `let`); a subclass inherits it, so one object has one registrar and base-class key paths
///   (`\Base.name`) work through subclass instances.
/// - Declare it as a `let` of the `Sendable` registrar so a `@MainActor` or actor-isolated host
///   can satisfy the requirement without isolation.
public protocol TrackedObservable: _TrackedHost {
  /// The registrar that every ``Tracked`` property of this object reports reads and writes to.
  var observationRegistrar: ObservationRegistrar { get }
}

extension TrackedObservable {
  /// ``observationRegistrar``.
  @inlinable public var _trackedRegistrar: ObservationRegistrar { observationRegistrar }
}

/// A main-actor class whose ``Tracked`` properties report to a `MainActorObservationRegistrar`,
/// the registrar that writes versions with plain stores on the main thread:
/// ```swift
/// @MainActor final class Counter: MainActorTrackedObservable {
///   let observationRegistrar = MainActorObservationRegistrar()
///   @Tracked var count = 0
/// }
/// ```
///
/// Contract: that of ``TrackedObservable``, for a class isolated to the main actor (adopting
/// the protocol isolates it): only main-actor code writes its properties, which is what lets
/// the registrar skip atomic read-modify-writes on the main thread.
@MainActor
public protocol MainActorTrackedObservable: _TrackedHost {
  /// The registrar that every ``Tracked`` property of this object reports reads and writes to
  /// (a `let`, for the object's whole life).
  nonisolated var observationRegistrar: MainActorObservationRegistrar { get }
}

extension MainActorTrackedObservable {
  /// The registrar behind ``observationRegistrar``.
  @inlinable public nonisolated var _trackedRegistrar: ObservationRegistrar {
    observationRegistrar.confinedRegistrar
  }
}

/// What ``Tracked`` needs of the class it is declared in: the registrar its properties report
/// to. Adopt ``TrackedObservable`` or ``MainActorTrackedObservable``, which provide it, not
/// this protocol.
public protocol _TrackedHost: Observable, AnyObject {
  /// The registrar the class's ``Tracked`` properties use (with nonisolated accessors).
  nonisolated var _trackedRegistrar: ObservationRegistrar { get }
}
