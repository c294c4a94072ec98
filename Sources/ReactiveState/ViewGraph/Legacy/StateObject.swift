/// A view-owned legacy model, as SwiftUI's `@StateObject`: the autoclosure runs once per view
/// identity (its first evaluation; again only for a new identity, e.g. after `.id` changes),
/// and the view is invalidated by every `objectWillChange` of the object (object-level, not
/// per property). Other view values of the same identity evaluate their autoclosure never.
@MainActor
@propertyWrapper
public struct StateObject<ObjectType: ObservableObject>: DynamicProperty {
  let thunk: () -> ObjectType
  var handle = StateObjectHandle<ObjectType>()

  /// Wraps the object to create (lazily, once per identity).
  public init(wrappedValue thunk: @autoclosure @escaping () -> ObjectType) {
    self.thunk = thunk
  }

  /// The identity's object.
  ///
  /// Read before its view is mounted (in the view's `init`, say) there is no identity to own
  /// it yet: as in SwiftUI, each such read creates a new object that nobody keeps — the
  /// identity creates its own when the view is mounted — and the read is reported as an
  /// ``ObservationDiagnostic`` naming the type.
  public var wrappedValue: ObjectType {
    if let object = handle.object { return object }
    ObservationDiagnostics.report(Self.readBeforeMountingMessage)
    return thunk()
  }

  /// What a read before mounting reports.
  static var readBeforeMountingMessage: String {
    "StateObject<\(ObjectType.self)> was read before its view was mounted (for example in the "
      + "view's init): a new \(ObjectType.self) was created for that read and discarded; the "
      + "view's identity creates its own when it is mounted. To fix: read it in body or in an "
      + "action, or create the object outside and pass it in with @ObservedObject"
  }

  /// Bindings to the object's properties (`$model.name`).
  public var projectedValue: ObservedObject<ObjectType>.Wrapper {
    ObservedObject<ObjectType>.Wrapper(object: wrappedValue)
  }
}

extension StateObject: InstallableProperty, NodeOwnedProperty {
  var link: PropertyLink? { handle }

  func withNewLink() -> StateObject {
    var copy = self
    copy.handle = StateObjectHandle()
    return copy
  }

  func install(in node: ViewNode, slot: Int, label: String) -> String? {
    let holder: StateObjectHolder<ObjectType>
    if let existing = node.slots[slot] as? StateObjectHolder<ObjectType> {
      holder = existing
    } else {
      holder = StateObjectHolder(
        object: thunk(),
        subscription: LegacySubscription(node: node, typeName: "\(ObjectType.self)"))
      node.slots[slot] = holder
    }
    holder.subscription.subscribe(to: holder.object)
    handle.object = holder.object
    return nil
  }
}

/// Links a ``StateObject`` view value to its identity's object.
@MainActor
final class StateObjectHandle<ObjectType>: PropertyLink {
  var object: ObjectType?
}

/// The identity's object and its subscription.
@MainActor
final class StateObjectHolder<ObjectType: ObservableObject>: KillableCell {
  let object: ObjectType
  let subscription: LegacySubscription

  init(object: ObjectType, subscription: LegacySubscription) {
    self.object = object
    self.subscription = subscription
  }

  func kill() { subscription.kill() }
}
