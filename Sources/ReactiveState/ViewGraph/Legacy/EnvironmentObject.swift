/// A legacy model read from the environment, as SwiftUI's `@EnvironmentObject`: provided by an
/// ancestor's ``View/environmentObject(_:)``, observed object-level. When no ancestor provides
/// one, the host records ``RuntimeIssue/Kind/missingEnvironmentObject`` naming the type and
/// `.environmentObject(_:)` and does not evaluate the view (SwiftUI traps); an object an
/// earlier evaluation found is then no longer observed.
@MainActor
@propertyWrapper
public struct EnvironmentObject<ObjectType: ObservableObject>: DynamicProperty {
  let handle = EnvironmentHandle()

  /// Reads the nearest ancestor's object of this type.
  public init() {}

  /// The provided object; reading it makes the view depend on which object is provided.
  public var wrappedValue: ObjectType {
    let values = handle.values ?? EnvironmentValues()
    guard let object = values.cells[Self.key]?.value as? ObjectType else {
      fatalError(Self.missingMessage)
    }
    return object
  }

  /// Bindings to the object's properties (`$settings.name`).
  public var projectedValue: ObservedObject<ObjectType>.Wrapper {
    ObservedObject<ObjectType>.Wrapper(object: wrappedValue)
  }

  static var key: ObjectIdentifier { ObjectIdentifier(EnvironmentObjectKey<ObjectType>.self) }

  static var missingMessage: String {
    "No ObservableObject of type \(ObjectType.self) found. A View.environmentObject(_:) for "
      + "\(ObjectType.self) may be missing as an ancestor of this view."
  }
}

extension EnvironmentObject: InstallableProperty, NodeOwnedProperty {
  var link: PropertyLink? { handle }

  func withNewLink() -> EnvironmentObject { EnvironmentObject() }

  func install(in node: ViewNode, slot: Int, label: String) -> String? {
    handle.values = node.environment
    guard let cell = node.environment.cells[Self.key],
      let object = withoutObservationTracking({ cell.value }) as? ObjectType
    else {
      // The object an earlier evaluation found is no longer provided: its changes must not
      // re-evaluate the view (each would only record the missing object again).
      (node.slots[slot] as? LegacySubscription)?.unsubscribe()
      return Self.missingMessage
    }
    // The body run reads the cell (tracked), so another instance re-subscribes the view.
    node.environmentObjectCells.append(cell)
    node.legacySubscription(slot: slot, typeName: "\(ObjectType.self)").subscribe(to: object)
    return nil
  }
}

/// The environment key under which ``View/environmentObject(_:)`` stores an object.
enum EnvironmentObjectKey<ObjectType> {}

extension View {
  /// Provides `object` to ``EnvironmentObject`` properties of this view's subtree.
  public func environmentObject<Object: ObservableObject>(_ object: Object)
    -> EnvironmentWriterView<Self>
  {
    EnvironmentWriterView(content: self) {
      $0.writes[ObjectIdentifier(EnvironmentObjectKey<Object>.self)] = (
        "\(Object.self)", object
      )
    }
  }
}
