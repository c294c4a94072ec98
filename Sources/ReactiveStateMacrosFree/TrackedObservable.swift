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
public protocol TrackedObservable: Observable, AnyObject {
  /// The registrar that every ``Tracked`` property of this object reports reads and writes to.
  var observationRegistrar: ObservationRegistrar { get }
}
