/// One mounted view identity: the last view value its parent produced, the storage of its
/// dynamic properties, its environment and its children. Lives until its identity ends.
///
/// The fields read or written on every evaluation are `@exclusivity(unchecked)`: only the host
/// accesses them, on the main actor, and no access to one of them can overlap another access
/// to the same field (a body or an expansion cannot re-enter the host's update of its node:
/// `flush()` is not re-entrant and a host is unreachable during its `init`). The run-time
/// exclusivity check they skip cost about a tenth of a re-evaluation.
@MainActor
final class ViewNode {
  /// The host that mounted the node.
  ///
  /// Not `weak`: a weak reference gives the host a side table, and every strong retain or
  /// release of an object with one takes the runtime's slow path. A node never outlives its
  /// host: only the host's tree (`root`, `children`), its dirty queue and the runtime's
  /// current node (set during the host's own evaluation) hold nodes strongly; callbacks that
  /// may outlive a node capture its ``reference`` instead. So the host is alive whenever a node
  /// is reachable, and the reference needs no retain.
  unowned(unsafe) let host: ViewHost
  /// The parent node: nil for the root, and cleared by ``teardown()``.
  ///
  /// Not `weak` (see ``host``): a parent holds its children in ``children`` until it removes
  /// them, and removal tears them down, which clears this reference. A node that is not torn
  /// down is in its parent's `children`, or its host is being deallocated without `close()`
  /// (its nodes are freed top-down, and nothing reads `parent` while they are).
  unowned(unsafe) private(set) var parent: ViewNode?
  let component: IdentityComponent
  /// What the host knows about the view's concrete type, which is fixed for the node's life.
  let info: ViewTypeInfo
  var typeID: ObjectIdentifier { info.typeID }
  var typeName: String { info.name }
  var isPrimitive: Bool { info.primitive != nil }
  /// A built-in leaf compared like a user view before re-expanding (see `PrimitiveView`).
  var skipsWhenEqual: Bool { info.skipsWhenEqual }
  let depth: Int
  /// Mount order, unique among all nodes of all hosts: breaks ties between nodes of equal
  /// depth in the dirty queue, and names the node that owns a ``PropertyLink``.
  let serial: Int
  private static var lastSerial = 0

  /// A serial no node had.
  static func takeSerial() -> Int {
    lastSerial += 1
    return lastSerial
  }
  @exclusivity(unchecked) var view: any View
  @exclusivity(unchecked) var children: [ViewNode] = []
  /// Dynamic-property storage by ordinal (`StateCell`s, …; see ``NodeSlots``).
  @exclusivity(unchecked) var slots = NodeSlots()
  /// What this node's own dynamic properties read.
  @exclusivity(unchecked) var environment: EnvironmentValues
  /// What this node's children inherit (differs from `environment` under `.environment`).
  @exclusivity(unchecked) var childEnvironment: EnvironmentValues
  /// Cells this node provides to its subtree (`.environment` modifiers), by key.
  var ownedEnvironmentCells: [ObjectIdentifier: EnvironmentCell] = [:]
  /// The cells its `@EnvironmentObject` properties found at their last installation: the body
  /// run reads them, so providing another instance re-evaluates the view (and re-subscribes
  /// it) even when its body never reads the object.
  @exclusivity(unchecked) var environmentObjectCells: [EnvironmentCell] = []
  @exclusivity(unchecked) var isLive = true
  /// The host's pass stamp when this node was last evaluated (see `ViewHost.beginPass()`).
  @exclusivity(unchecked) var passStamp = 0
  /// Whether the node is in its host's dirty queue (see `DirtyQueue`).
  @exclusivity(unchecked) var isQueued = false
  /// Body evaluations of this identity.
  @exclusivity(unchecked) var bodyCount = 0
  /// A control's value as read at its last expansion (what the user would see).
  @exclusivity(unchecked) var controlValue: String?
  /// Why the body could not be evaluated (a missing environment object), if so.
  @exclusivity(unchecked) var failure: String?
  /// Why the node is dirty, recorded by the first invalidation of the current batch.
  @exclusivity(unchecked) var pendingCause: UpdateCause?
  /// Set when an invalidation of the current batch did not come through the node's observer
  /// (see `ViewHost.markDirty(_:cause:forcesRun:)`): the next evaluation runs the body.
  @exclusivity(unchecked) var forcesRun = false
  /// A zeroing reference to this node for callbacks that may outlive it (see
  /// ``WeakNodeReference``), created at first use.
  var reference: WeakNodeReference {
    if let referenceIfCreated { return referenceIfCreated }
    let created = WeakNodeReference(self)
    referenceIfCreated = created
    return created
  }
  private var referenceIfCreated: WeakNodeReference?
  /// The node's single continuous observer (see `runTracked`), created at first evaluation.
  @exclusivity(unchecked) var observer: ContinuousObserver?
  /// Keeps ``observer`` alive; cancelled at teardown.
  var observationToken: ObservationToken?
  /// The evaluation the observer's next run performs, and its output.
  @exclusivity(unchecked) var pendingRun: NodeRun?
  @exclusivity(unchecked) var workResult: [ChildSpec]?

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

  // Nodes are released on the main actor (by their host, its queue or a parent, all main-actor
  // state), where every read of a `WeakNodeReference` happens, so clearing it here races with
  // no read.
  deinit {
    referenceIfCreated?.node = nil
  }

  var id: ObjectIdentifier { ObjectIdentifier(self) }

  /// The view for casts to concrete view types, or nil for an `Optional` wrapper node: Swift's
  /// dynamic casts look through optionals, so `Optional<Text>` would otherwise cast to `Text`
  /// and the same text or control would be found twice.
  var leafView: (any View)? { info.isOptional ? nil : view }

  /// Structural path from the root (see ``ViewPath``). Fixed for the node's lifetime, so made
  /// once, on first use.
  lazy var location: ViewPath = ViewPath(
    parent: parent?.location, component: component, typeName: typeName)

  /// The path's text, e.g. `0:Root/0:VStack<…>/1:Row`.
  var path: String { location.text }

  /// Cancels the node's observer and forgets it: the node depends on nothing until its next
  /// tracked evaluation, which creates a new one.
  func stopObserving() {
    observationToken?.cancel()
    observationToken = nil
    observer = nil
  }

  /// Ends the identity: storage stops accepting writes, subscriptions are ignored from now on.
  func teardown() {
    isLive = false
    parent = nil
    observationToken?.cancel()
    for slot in slots.values {
      (slot as? any KillableCell)?.kill()
    }
    for child in children { child.teardown() }
    // Post-order: a child's `onDisappear` runs before its ancestors' (appear is pre-order).
    queueEndOfLifeEffects()
  }
}

/// A cell that can be marked dead when its identity ends.
@MainActor
protocol KillableCell: AnyObject {
  func kill()
}

extension StateCell: KillableCell {
  func kill() {
    isLive = false
    endedInRemoval = ViewGraphRuntime.removalInProgress
  }
}

/// A reference to a node that reads nil once the node is deallocated, captured by callbacks
/// that may outlive the node (its observer and scheduler, `.task` starts, legacy
/// subscriptions).
///
/// It zeroes by hand instead of being `weak`: `ViewNode.deinit` clears it. A Swift weak
/// reference would give every observed node a side table, which slows every strong retain and
/// release of the node. Read it on the main actor only (nodes are released there).
@MainActor
final class WeakNodeReference {
  /// The node while it is allocated, then nil.
  nonisolated(unsafe) unowned(unsafe) var node: ViewNode?
  init(_ node: ViewNode) { self.node = node }
}
