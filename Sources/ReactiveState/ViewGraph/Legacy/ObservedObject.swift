/// A legacy model owned elsewhere, as SwiftUI's `@ObservedObject`: the view subscribes to the
/// instance it was given (object-level: any `objectWillChange` invalidates it) and
/// re-subscribes when a new view value carries another instance.
///
/// `@ObservedObject var model = Model()` creates a new object with every view value, so each
/// parent re-evaluation replaces it (the article's bug); use ``StateObject`` to own one.
@MainActor
@propertyWrapper
public struct ObservedObject<ObjectType: ObservableObject>: DynamicProperty {
  /// Property bindings of an observed object (`$model.name`).
  @MainActor
  @dynamicMemberLookup
  public struct Wrapper {
    let object: ObjectType

    /// A binding reading and writing `object[keyPath: keyPath]`.
    public subscript<Value>(dynamicMember keyPath: ReferenceWritableKeyPath<ObjectType, Value>)
      -> Binding<Value>
    {
      let object = object
      return Binding(
        get: { object[keyPath: keyPath] }, set: { object[keyPath: keyPath] = $0 })
    }
  }

  /// The observed object (the only stored field: view values compare by its identity).
  public let wrappedValue: ObjectType

  /// Observes `wrappedValue`, which someone else owns: the view subscribes to its
  /// `objectWillChange` while mounted, and re-subscribes when a new view value carries
  /// another instance.
  public init(wrappedValue: ObjectType) { self.wrappedValue = wrappedValue }

  /// Observes `object` (the same as ``init(wrappedValue:)``).
  public init(_ object: ObjectType) { wrappedValue = object }

  /// Bindings to the object's properties.
  public var projectedValue: Wrapper { Wrapper(object: wrappedValue) }
}

extension ObservedObject: InstallableProperty {
  /// None: the object is the view value's own, the same at every identity.
  var link: PropertyLink? { nil }

  func withNewLink() -> ObservedObject { self }

  func install(in node: ViewNode, slot: Int, label: String) -> String? {
    node.legacySubscription(slot: slot, typeName: "\(ObjectType.self)").subscribe(to: wrappedValue)
    return nil
  }
}

extension ObservedObject: BindingComparable {
  /// The observed object: view values compare by its identity, not by its `==`.
  var sourceIdentity: ObjectIdentifier { ObjectIdentifier(wrappedValue) }

  static func isSameSource(_ lhs: ObjectIdentifier, _ rhs: ObjectIdentifier) -> Bool {
    lhs == rhs
  }
}
