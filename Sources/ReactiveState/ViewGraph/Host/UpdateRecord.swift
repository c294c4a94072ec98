/// Why a view's body (or a container's expansion) was evaluated.
public enum UpdateCause: Sendable, Equatable, CustomStringConvertible {
  /// First evaluation of a new identity.
  case mount
  /// A `@State` property it read changed: the owning view's type and the property's name.
  case state(view: String, property: String)
  /// An environment value it read changed: the key (or object) type.
  case environment(key: String)
  /// A property of an observable model it read changed. The one-shot `onChange` of
  /// `withObservationTracking` does not say which object or key path, so neither is named.
  case modelProperty
  /// Its parent re-evaluated and produced a view value not known to be equal to the previous.
  case parentInput

  /// A short phrase, e.g. `state Counter.count`.
  public var description: String {
    switch self {
    case .mount: "mount"
    case .state(let view, let property): "state \(view).\(property)"
    case .environment(let key): "environment \(key)"
    case .modelProperty: "observable model property"
    case .parentInput: "new input from parent"
    }
  }
}

/// One entry of ``ViewHost/updateLog``: a view that was evaluated and why.
public struct UpdateRecord: Sendable, Equatable, CustomStringConvertible {
  /// The view's type name.
  public var view: String
  /// Structural path of the view.
  public var path: String
  /// What invalidated it.
  public var cause: UpdateCause
  /// Index of the pass (counted since the host was created) that evaluated it.
  public var pass: Int

  /// `View ← cause`.
  public var description: String { "\(view) ← \(cause)" }
}
