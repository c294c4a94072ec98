/// Why a view's body (or a container's expansion) was evaluated.
public enum UpdateCause: Sendable, Equatable, CustomStringConvertible {
  /// First evaluation of a new identity.
  case mount
  /// A `@State` property it read changed: the owning view's type and the property's name.
  case state(view: String, property: String)
  /// An environment value it read changed: the key (or object) type.
  case environment(key: String)
  /// A property of an observable model it read changed (the key path the tracking event named).
  case modelProperty(ObservedKeyPath)
  /// An observable property changed, but the tracking event did not name it.
  case unknownProperty
  /// Its parent re-evaluated and produced a view value not known to be equal to the previous.
  case parentInput
  /// A legacy `ObservableObject` it subscribes to (`@StateObject`, `@ObservedObject`,
  /// `@EnvironmentObject`) sent `objectWillChange`: the object's type.
  case objectWillChange(type: String)

  /// A short phrase, e.g. `state Counter.count`.
  public var description: String {
    switch self {
    case .mount: "mount"
    case .state(let view, let property): "state \(view).\(property)"
    case .environment(let key): "environment \(key)"
    case .modelProperty(let keyPath): "property \(keyPath)"
    case .unknownProperty: "observable property"
    case .parentInput: "new input from parent"
    case .objectWillChange(let type): "\(type).objectWillChange"
    }
  }
}

extension UpdateCause {
  /// True for changes of observable model properties (not `@State` or environment cells).
  var isModelProperty: Bool {
    switch self {
    case .modelProperty, .unknownProperty: true
    default: false
    }
  }

  /// True for a mount and for new input from the parent, the causes that always evaluate
  /// (matched in place: `==` against a case would copy the payload, a retain).
  var isFromMountOrParent: Bool {
    switch self {
    case .mount, .parentInput: true
    default: false
    }
  }
}

/// One entry of ``ViewHost/updateLog``: a view that was evaluated and why.
public struct UpdateRecord: Sendable, Equatable, CustomStringConvertible {
  /// The view's type name.
  public var view: String
  /// Structural path of the view, e.g. `0:Root/0:VStack<…>/1:Row` (built when read: a record
  /// shares its view's path with the rest of the log).
  public var path: String {
    get { location.text }
    set { location = ViewPath(text: newValue) }
  }
  /// What invalidated it.
  public var cause: UpdateCause
  /// Index of the pass (counted since the host was created) that evaluated it.
  public var pass: Int
  var location: ViewPath

  init(view: String, location: ViewPath, cause: UpdateCause, pass: Int) {
    self.view = view
    self.location = location
    self.cause = cause
    self.pass = pass
  }

  /// `View ← cause`.
  public var description: String { "\(view) ← \(cause)" }

  /// Same view, path, cause and pass.
  public static func == (lhs: UpdateRecord, rhs: UpdateRecord) -> Bool {
    lhs.view == rhs.view && lhs.cause == rhs.cause && lhs.pass == rhs.pass
      && (lhs.location === rhs.location || lhs.path == rhs.path)
  }
}

/// The key path of an observable property that changed, e.g. `\Book.title`.
///
/// Compare it with `==` against a key-path literal. Its description names the model type and,
/// when the runtime can name it, the property; the accessors of hand-written (macro-expansion
/// style) models are computed properties the runtime cannot name, which print as
/// `\Book.<computed String>`.
public struct ObservedKeyPath: @unchecked Sendable, Hashable, CustomStringConvertible {
  // Key paths are immutable once built; AnyKeyPath is just not marked Sendable.
  /// The key path.
  public let keyPath: AnyKeyPath

  /// Wraps `keyPath`.
  public init(_ keyPath: AnyKeyPath) { self.keyPath = keyPath }

  /// `\Root.property`, or `\Root.<computed Value>` when the property has no runtime name.
  public var description: String {
    let text = String(describing: keyPath)
    guard text.contains("<computed") else { return text }
    let type = Swift.type(of: keyPath)
    return "\\\(type.rootType).<computed \(type.valueType)>"
  }
}
