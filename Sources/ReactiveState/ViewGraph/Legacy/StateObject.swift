/// A view-owned legacy model, as SwiftUI's `@StateObject`: the autoclosure runs once per view
/// identity (its first evaluation; again only for a new identity, e.g. after `.id` changes),
/// and the view is invalidated by every `objectWillChange` of the object (object-level, not
/// per property). Other view values of the same identity evaluate their autoclosure never.
/// The autoclosure runs as part of the view's update: a `@State` it writes (through a binding
/// passed to the object's `init`) is recorded and dropped, as a write from `body` is.
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
  ///
  /// Once the identity ended, the object lives only as long as something else keeps it (a
  /// view value its parent stores does not, as in SwiftUI); a read after it was released
  /// creates a throwaway object the same way and reports that it was read after its end.
  public var wrappedValue: ObjectType {
    if let object = handle.object { return object }
    ObservationDiagnostics.report(
      handle.wasLinked ? Self.readAfterEndMessage : Self.readBeforeMountingMessage)
    return thunk()
  }

  /// What a read after the identity ended and its object was released reports.
  static var readAfterEndMessage: String {
    "StateObject<\(ObjectType.self)> was read after its view's identity ended and its object "
      + "was released: a new \(ObjectType.self) was created for that read and discarded. To "
      + "fix: end the work holding the view in onDisappear, or use .task, which is cancelled "
      + "with the view"
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
        object: thunk(), node: node,
        subscription: LegacySubscription(node: node, typeName: "\(ObjectType.self)"))
      node.slots[slot] = holder
    }
    holder.subscription.subscribe(to: holder.object)
    handle.link(holder.object)
    // A view value installed before this one (one the parent stores, say) holds the object
    // weakly from now on: the identity keeps it while it lives, so only the latest handle
    // must keep it past the identity's end (and is released then, see `kill()`).
    if let previous = holder.latestHandle, previous !== handle { previous.release() }
    holder.latestHandle = handle
    return nil
  }
}

/// Links a ``StateObject`` view value to its identity's object: strongly while it is the view
/// value the identity installed last and the identity lives, weakly once another replaced it
/// or the identity ended (see ``StateObjectHolder/kill()``).
@MainActor
final class StateObjectHandle<ObjectType: AnyObject>: PropertyLink {
  private var strongObject: ObjectType?
  private weak var weakObject: ObjectType?
  /// Whether an identity ever linked this handle.
  private(set) var wasLinked = false

  /// The identity's object, while it is alive.
  var object: ObjectType? { strongObject ?? weakObject }

  /// Links the handle to `object`, keeping it alive.
  func link(_ object: ObjectType) {
    strongObject = object
    weakObject = object
    wasLinked = true
  }

  /// The identity ended: the handle no longer keeps the object alive.
  func release() { strongObject = nil }
}

/// The identity's object and its subscription.
@MainActor
final class StateObjectHolder<ObjectType: ObservableObject>: KillableCell {
  let object: ObjectType
  let subscription: LegacySubscription
  /// The handle of the view value installed last: the one the node and its parent hold
  /// (a view value the parent stores is installed with every evaluation). The only one that
  /// keeps the object alive: an earlier one is released when another replaces it.
  var latestHandle: StateObjectHandle<ObjectType>?
  /// The identity's node, to release the object after its end-of-life effects.
  private let reference: WeakNodeReference

  init(object: ObjectType, node: ViewNode, subscription: LegacySubscription) {
    self.object = object
    reference = node.reference
    self.subscription = subscription
  }

  /// Ends the subscription and stops the last view value from keeping the object alive (a
  /// parent that stores the view value must not keep an ended identity's object, as in
  /// SwiftUI), after the end-of-life actions of this removal (`onDisappear`, `onDismiss`)
  /// ran. The identity's `.task`s still running keep the object until they finish, as the
  /// view value they captured does in SwiftUI.
  func kill() {
    subscription.kill()
    guard let handle = latestHandle, let node = reference.node else { return }
    latestHandle = nil
    let object = object
    node.host.enqueueEffect(.task) {
      node.host.forEachNode(under: node) { descendant in
        (descendant.slots[-2] as? NodeLifecycle)?.taskOwner?.keptAlive.append(object)
      }
      handle.release()
    }
  }
}
