/// One mounted view identity: the last view value its parent produced, the storage of its
/// dynamic properties, its environment and its children. Lives until its identity ends.
@MainActor
final class ViewNode {
  weak var host: ViewHost?
  weak var parent: ViewNode?
  let component: IdentityComponent
  /// What the host knows about the view's concrete type, which is fixed for the node's life.
  let info: ViewTypeInfo
  var typeID: ObjectIdentifier { info.typeID }
  var typeName: String { info.name }
  var isPrimitive: Bool { info.primitive != nil }
  /// A built-in leaf compared like a user view before re-expanding (see `PrimitiveView`).
  var skipsWhenEqual: Bool { info.skipsWhenEqual }
  let depth: Int
  /// Mount order; breaks ties between nodes of equal depth in the dirty queue.
  let serial: Int
  var view: any View
  var children: [ViewNode] = []
  /// Dynamic-property storage by ordinal (`StateCell`s).
  var slots: [Int: AnyObject] = [:]
  /// What this node's own dynamic properties read.
  var environment: EnvironmentValues
  /// What this node's children inherit (differs from `environment` under `.environment`).
  var childEnvironment: EnvironmentValues
  /// Cells this node provides to its subtree (`.environment` modifiers), by key.
  var ownedEnvironmentCells: [ObjectIdentifier: EnvironmentCell] = [:]
  var isLive = true
  /// The host's pass stamp when this node was last evaluated (see `ViewHost.beginPass()`).
  var passStamp = 0
  /// Whether the node is in its host's dirty queue (see `DirtyQueue`).
  var isQueued = false
  /// Body evaluations of this identity.
  var bodyCount = 0
  /// A control's value as read at its last expansion (what the user would see).
  var controlValue: String?
  /// Why the body could not be evaluated (a missing environment object), if so.
  var failure: String?
  /// Why the node is dirty, recorded by the first invalidation of the current batch.
  var pendingCause: UpdateCause?
  lazy var reference = WeakNodeReference(self)
  /// The node's single continuous observer (see `runTracked`), created at first evaluation.
  var observer: ContinuousObserver?
  /// Keeps ``observer`` alive; cancelled at teardown.
  var observationToken: ObservationToken?
  /// The evaluation the observer's next run performs, and its output.
  var pendingRun: NodeRun?
  var workResult: [ChildSpec]?

  init(
    view: any View, component: IdentityComponent, parent: ViewNode?, host: ViewHost,
    environment: EnvironmentValues, serial: Int
  ) {
    self.view = view
    self.component = component
    self.parent = parent
    self.host = host
    self.environment = environment
    self.childEnvironment = environment
    self.serial = serial
    info = ViewTypeInfo.of(view)
    depth = (parent?.depth ?? -1) + 1
  }

  var id: ObjectIdentifier { ObjectIdentifier(self) }

  /// The view for casts to concrete view types, or nil for an `Optional` wrapper node: Swift's
  /// dynamic casts look through optionals, so `Optional<Text>` would otherwise cast to `Text`
  /// and the same text or control would be found twice.
  var leafView: (any View)? { info.isOptional ? nil : view }

  /// Structural path from the root, e.g. `0:Root/0:VStack<…>/1:Row`. Fixed for the node's
  /// lifetime, so computed once.
  lazy var path: String = {
    let own = "\(component):\(typeName)"
    guard let parent else { return own }
    return parent.path + "/" + own
  }()

  /// Ends the identity: storage stops accepting writes, subscriptions are ignored from now on.
  func teardown() {
    isLive = false
    observationToken?.cancel()
    for slot in slots.values {
      (slot as? any KillableCell)?.kill()
    }
    for child in children { child.teardown() }
    // Post-order: a child's `onDisappear` runs before its ancestors' (appear is pre-order).
    queueEndOfLifeEffects()
  }

  private static var names: [ObjectIdentifier: String] = [:]

  /// The type name without module qualification, generic arguments kept (cached: describing a
  /// generic type costs microseconds).
  static func shortName(of type: Any.Type) -> String {
    let id = ObjectIdentifier(type)
    if let name = names[id] { return name }
    let name = String(describing: type)
    names[id] = name
    return name
  }
}

/// A cell that can be marked dead when its identity ends.
@MainActor
protocol KillableCell: AnyObject {
  func kill()
}

extension StateCell: KillableCell {
  func kill() { isLive = false }
}

/// A sendable weak reference to a node, captured by `onChange` callbacks.
@MainActor
final class WeakNodeReference {
  weak var node: ViewNode?
  init(_ node: ViewNode) { self.node = node }
}
