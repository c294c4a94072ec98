/// A value read from the view's environment, as SwiftUI's `@Environment`.
///
/// `@Environment(\.key)` reads an ``EnvironmentValues`` key; `@Environment(Model.self)` reads
/// the object injected by an ancestor's `.environment(model)`. The read happens in `body`, so the
/// view depends on that key (or on that object's properties it reads) and nothing else.
///
/// A missing non-optional object is a runtime issue, not a crash: the host records
/// ``RuntimeIssue/Kind/missingEnvironmentObject`` naming the type and `.environment(_:)`, does
/// not evaluate the view's body, and renders the view as a warning line. Reading such a property
/// outside a body (where no recovery is possible) is a fatal error with the same message.
@MainActor
@propertyWrapper
public struct Environment<Value>: DynamicProperty {
  enum Source {
    case key(KeyPath<EnvironmentValues, Value>)
    case object(type: Any.Type, isOptional: Bool, cast: @MainActor (AnyObject?) -> Value?)
  }
  let source: Source
  var handle = EnvironmentHandle()

  /// Reads the key at `keyPath`.
  public init(_ keyPath: KeyPath<EnvironmentValues, Value>) { source = .key(keyPath) }

  /// Reads the object of type `type` injected with `.environment(_:)`.
  public init(_ type: Value.Type) where Value: AnyObject & Observable {
    source = .object(type: type, isOptional: false, cast: { $0 as? Value })
  }

  /// Reads the object of type `type`, or nil when no ancestor injected one.
  public init<Object: AnyObject & Observable>(_ type: Object.Type) where Value == Object? {
    source = .object(type: type, isOptional: true, cast: { .some($0 as? Object) })
  }

  /// The nearest ancestor's value (or the key's default). Outside a view installed in a host
  /// the read is reported as an ``ObservationDiagnostic``: a key reads its default and an
  /// optional object `nil`, while a non-optional object is a fatal error naming its type (in
  /// a host, a missing object is recorded as a ``RuntimeIssue`` instead).
  public var wrappedValue: Value {
    let values: EnvironmentValues
    if let installed = handle.values {
      values = installed
    } else {
      ObservationDiagnostics.report(
        "Environment<\(Value.self)> read outside a view installed in a host: it reads the "
          + "default and never updates. To fix: read it in body or in an action")
      values = EnvironmentValues()
    }
    switch source {
    case .key(let keyPath):
      return values[keyPath: keyPath]
    case .object(let type, _, let cast):
      if let value = cast(values.object(type)) { return value }
      fatalError(Self.missingMessage(type))
    }
  }

  static func missingMessage(_ type: Any.Type) -> String {
    "No Observable object of type \(type) found. A View.environment(_:) for \(type) may be "
      + "missing as an ancestor of this view."
  }
}

extension Environment: InstallableProperty {
  var link: PropertyLink? { handle }

  func withNewLink() -> Environment {
    var copy = self
    copy.handle = EnvironmentHandle()
    return copy
  }

  func install(in node: ViewNode, slot: Int, label: String) -> String? {
    handle.values = node.environment
    if case .object(let type, let isOptional, _) = source, !isOptional,
      !node.environment.hasObject(type)
    {
      return Self.missingMessage(type)
    }
    return nil
  }
}

/// The environment a mounted `Environment` property reads from.
@MainActor
final class EnvironmentHandle: PropertyLink {
  var values: EnvironmentValues?
}

// Not a `NodeOwnedProperty`: the value lives in the node, but which key (or object type) is
// read is the view value's own input. A parent that passes another key path must re-evaluate
// the child, which would otherwise keep showing the value of the old key.
extension Environment: BindingComparable {
  var sourceIdentity: Source { source }

  /// Both read the same key path, or the same object type (optionally or not).
  static func isSameSource(_ lhs: Source, _ rhs: Source) -> Bool {
    switch (lhs, rhs) {
    case (.key(let left), .key(let right)):
      return left == right
    case (.object(let left, let leftOptional, _), .object(let right, let rightOptional, _)):
      return ObjectIdentifier(left) == ObjectIdentifier(right) && leftOptional == rightOptional
    default:
      return false
    }
  }
}
