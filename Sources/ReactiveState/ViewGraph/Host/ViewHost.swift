/// Mounts a view tree headlessly and runs SwiftUI's data-flow rules on it.
///
/// Every `body` evaluation is its own tracking scope; a view is re-evaluated only when something
/// it read (a model property, a `@State`, an environment value) changed, or when its parent
/// produced a view value not known to equal the previous one. Invalidations only mark views
/// dirty; ``flush()`` then runs passes in which parents evaluate before children, each view at
/// most once per pass, and removed views never evaluate.
///
/// In ``UpdateMode/automatic`` mode the host flushes at the end of each action (``tap(_:occurrence:)``,
/// ``setText(_:in:occurrence:)``, …, ``perform(_:)``) and schedules a main-actor flush for changes made
/// elsewhere; call ``flush()`` to apply those synchronously. In ``UpdateMode/manual`` mode only
/// ``flush()`` updates.
///
/// ```swift
/// @MainActor @Test func addingABook() throws {
///   let host = ViewHost(ReadingListView())
///   try host.type("Dune", into: "Book title")   // finds the TextField by its title
///   try host.tap("Add")                          // updates run at the end of the action
///   #expect(host.texts.contains("Dune"))
///   #expect(host.bodyCount(BookCount.self) == 2)
///   print(host.render(), host.updateLog, host.issues)
/// }
/// ```
///
/// Choices (SwiftUI leaves them open or traps):
/// - Isolation: the host, `View`, `State`, `Binding`, `Bindable` and `Environment` are
///   `@MainActor`, as SwiftUI's views are; tests using them are `@MainActor`. A model mutated on
///   another thread invalidates through a main-actor hop (its `onChange` cannot run views there).
/// - A `@State` write during `body` is dropped and recorded (SwiftUI's behaviour); an observable
///   model written during `body` cannot be undone, so it is recorded and its readers update in
///   the next pass, bounded by ``maxPassesPerFlush``.
/// - A missing `@Environment(Model.self)` object is recorded (naming the type and
///   `.environment(_:)`); that view's body is not evaluated and it renders as a warning line.
/// - A reused child is re-evaluated only if it is dirty or its new value is not known to be
///   equal (memberwise, closures never equal); built-in containers are always re-expanded,
///   and leaf views (`Text`, `TextField`, `Toggle`) are skipped when their new value is equal.
/// - Tracking: each node owns one continuous observer
///   (``withContinuousObservation(options:scheduler:fileID:line:apply:)``'s engine, `.willSet`
///   and `.didSet` events) whose scheduler parks re-runs: a change marks the node dirty and
///   the host runs the queued run when it evaluates the node in its pass. Dependencies are
///   re-collected with reused edges on every run, so a child re-evaluated by its parent leaves
///   no stale registration behind; the observer is cancelled when the identity ends. A body
///   that writes a property it read is recorded and re-evaluated in the next pass (never
///   re-entered).
/// - ``updateLog`` names what invalidated each evaluation: the `@State` property, the
///   environment key, the model's key path (from the observer's event), or the legacy object
///   whose `objectWillChange` fired.
/// - Post-pass effects run in a fixed order after each pass: every `onDisappear` (children
///   before their parent), every sheet's `onDismiss`, every `onAppear` (parents before their
///   children), `onChange` actions, then task cancellations and starts. Between views of different subtrees they
///   follow the pass's evaluation order (shallower dirty views first), not tree order; SwiftUI
///   documents no order there. Tasks are main-actor `Task`s tracked by the
///   host (``runningTaskCount``, ``settle()``); ``close()`` ends every identity.
/// - Depth: mounting and updating recurse once per level of the tree, so the stack bounds a
///   tree's depth. A recursive view wrapped in `AnyView` (two nodes per level) mounts 500
///   levels deep in a debug build on an 8 MB stack, and overflows it at 600.
@MainActor
public final class ViewHost {
  /// When pending updates are applied.
  public enum UpdateMode: Sendable {
    /// After every host action, and asynchronously on the main actor for other changes.
    case automatic
    /// Only when ``ViewHost/flush()`` is called.
    case manual
  }

  /// When pending updates are applied.
  public let mode: UpdateMode
  /// Upper bound on passes per ``flush()``; exceeding it records ``RuntimeIssue/Kind/updateLoop``.
  public var maxPassesPerFlush = 16
  /// Runtime issues recorded so far, oldest first.
  public private(set) var issues: [RuntimeIssue] = []
  // The bookkeeping written on every evaluation is `@exclusivity(unchecked)`, as the hot fields
  // of `ViewNode` are: each access is instantaneous or spans only host code that does not touch
  // the same field (a `DirtyQueue` call calls back only to read pass stamps).
  /// Every body evaluation so far with its cause, oldest first ("why did this update"), plus
  /// re-expansions of built-in views (controls, `ForEach`) invalidated by their own reads.
  /// Kept until ``resetCounts()``, as ``bodyLog`` is: a host driven through a long soak test
  /// grows by an entry per evaluation unless the test resets it between phases.
  @exclusivity(unchecked) public private(set) var updateLog: [UpdateRecord] = []
  /// Type names of evaluated bodies, in evaluation order.
  @exclusivity(unchecked) public private(set) var bodyLog: [String] = []
  /// Total number of body evaluations so far: user views' bodies only (the re-expansions of
  /// built-in views, a `TextField` re-reading its binding, appear in ``updateLog`` alone).
  @exclusivity(unchecked) public private(set) var totalBodyEvaluations = 0
  /// Number of update passes run so far (mounting counts as one).
  @exclusivity(unchecked) public private(set) var passCount = 0

  /// The mounted tree; nil once ``close()`` released it.
  var root: ViewNode!
  /// What the tree showed when ``close()`` released it; set once, by ``close()``.
  var endedTree: EndedTreeSnapshot?
  /// Set as ``close()`` starts: a `close()` from an effect it runs (an `onDisappear`) returns.
  var isClosing = false
  @exclusivity(unchecked) private(set) var dirty = DirtyQueue()
  /// Nodes evaluated since the last ``beginPass()`` carry this stamp.
  @exclusivity(unchecked) private var passStamp = 1
  private var isFlushing = false
  private var actionDepth = 0
  private var flushScheduled = false
  /// Body evaluations by view type, indexed by ``ViewTypeInfo/ordinal`` (``bodyCount(_:)`` adds
  /// up types of the same name).
  @exclusivity(unchecked) private var bodyCountsByType: [Int] = []
  /// Actions to run after the current pass (lifecycle, `onChange`, tasks), by phase.
  private var pendingEffects = EffectQueue()
  /// Tasks started by `.task` modifiers that have not finished, by serial.
  var tasks: [Int: Task<Void, Never>] = [:]
  var nextTaskSerial = 0
  /// True once ``close()`` ended every identity; the host no longer updates.
  public var isClosed: Bool { endedTree != nil }

  /// Mounts `root` and evaluates the whole tree once.
  public init<Root: View>(_ root: Root, mode: UpdateMode = .automatic) {
    self.mode = mode
    ViewGraphRuntime.recordMainThread()
    passCount = 1
    self.root = makeNode(root, component: .slot(0), parent: nil, environment: EnvironmentValues())
    evaluate(self.root, cause: .mount)
    beginPass()
    if mode == .automatic { flush() }
  }

  // A host dropped without `close()` cancels the tasks it started (they hold it weakly).
  isolated deinit {
    for task in tasks.values { task.cancel() }
  }

  /// True when some view is waiting to be re-evaluated, or effects of the last pass
  /// (`onAppear`, `onChange`, tasks to start) are queued.
  public var hasPendingUpdates: Bool { !dirty.isEmpty || !pendingEffects.isEmpty }

  /// Body evaluations of every view of type `type`, including identities that have ended.
  /// Types are told apart by identity, not by name: `Header.Title` and `Footer.Title` are
  /// counted apart.
  public func bodyCount<V: View>(_ type: V.Type) -> Int {
    let id = ObjectIdentifier(type)
    var total = 0
    for (ordinal, count) in bodyCountsByType.enumerated()
    where count > 0 && ViewTypeInfo.known(ordinal: ordinal).typeID == id {
      total += count
    }
    return total
  }

  /// Body evaluations of each live view of type `type`, in tree order.
  public func bodyCounts<V: View>(of type: V.Type) -> [Int] {
    let id = ObjectIdentifier(type)
    return allNodes().filter { $0.typeID == id }.map(\.bodyCount)
  }

  /// Number of live nodes (every view value in the tree, built-in ones included).
  public var nodeCount: Int {
    var count = 0
    if let root { forEachNode(under: root) { _ in count += 1 } }
    return count
  }

  /// Number of live views of type `type`.
  public func count<V: View>(of type: V.Type) -> Int { bodyCounts(of: type).count }

  /// Clears ``bodyLog``, ``updateLog``, per-type counts and ``totalBodyEvaluations``.
  public func resetCounts() {
    bodyLog = []
    updateLog = []
    bodyCountsByType = []
    totalBodyEvaluations = 0
    for node in allNodes() { node.bodyCount = 0 }
  }

  /// Runs `action` as a user action, then flushes in automatic mode (actions nest: the
  /// outermost one flushes). Call it outside tracking scopes, as an event handler would run.
  public func perform(_ action: () throws -> Void) rethrows {
    actionDepth += 1
    defer {
      actionDepth -= 1
      if actionDepth == 0, mode == .automatic { flush() }
    }
    try action()
  }

  /// Applies all pending updates: passes of dirty views, shallowest first, each followed by the
  /// `onChange` actions it triggered, until nothing is dirty or ``maxPassesPerFlush`` passes
  /// ran (then ``RuntimeIssue/Kind/updateLoop`` is recorded and the rest is dropped).
  public func flush() {
    guard !isFlushing, !isClosed else { return }
    isFlushing = true
    defer { isFlushing = false }
    var passes = 0
    runEffects()
    while !dirty.isEmpty {
      passes += 1
      if passes > maxPassesPerFlush {
        let names = dirty.nodes.map(\.typeName).sorted().joined(separator: ", ")
        record(
          .updateLoop,
          "Updates did not settle after \(maxPassesPerFlush) passes; still dirty: \(names). "
            + "To fix: stop writing, from a body or an onChange/onAppear action, state those "
            + "views read (write only when the value differs, or from a user action)",
          node: dirty.nodes.first!)
        // The dropped nodes' observers must hear the next change (a queued one ignores it).
        for node in dirty.nodes { node.observer?.dropQueuedRun() }
        dirty.removeAll()
        break
      }
      passCount += 1
      beginPass()
      var deferred: [ViewNode] = []
      while let node = dirty.popShallowest(
        skipping: &deferred, isEligible: { !wasEvaluatedThisPass($0) })
      {
        evaluate(node, cause: node.pendingCause.take() ?? .unknownProperty)
      }
      dirty.restart(with: deferred)
      beginPass()
      runEffects()
    }
    beginPass()
    pendingEffects.removeAll()
  }

  /// Schedules `effect` to run after the current pass, outside any tracking scope, in `phase`
  /// order (see ``EffectQueue``).
  func enqueueEffect(
    _ phase: EffectPhase = .change, _ effect: @escaping @MainActor () -> Void
  ) {
    pendingEffects.append(phase, effect)
    scheduleFlushIfNeeded()
  }

  /// Runs the effects queued by the last pass; their writes dirty views for the next pass. A
  /// call from inside an effect continues the batch being run (see ``EffectQueue``).
  func runEffects() {
    while let effect = pendingEffects.next() { effect() }
  }

  /// Forgets which nodes were evaluated: none counts as evaluated in this pass any more.
  private func beginPass() { passStamp += 1 }

  func wasEvaluatedThisPass(_ node: ViewNode) -> Bool { node.passStamp == passStamp }

  // MARK: - Invalidation

  /// Marks `node` dirty because something it read changed. Never evaluates here: observers fire
  /// at `willSet`, before the new value is stored. `duringUpdate`: false for a change made on
  /// another thread (not a write of the update running here).
  func invalidate(_ node: ViewNode, cause: consuming UpdateCause, duringUpdate: Bool = true) {
    guard node.isLive else { return }
    if duringUpdate, let updating = ViewGraphRuntime.updatingNode, cause.isModelProperty {
      record(
        .modelWriteDuringUpdate,
        "An observable property read by \(node.typeName) changed while \(updating.typeName) "
          + "was being evaluated; \(node.typeName) will update in a later pass. To fix: move "
          + "the write out of body (into an action, onAppear, onChange or task)",
        node: updating)
    }
    markDirty(node, cause: consume cause)
  }

  /// Queues `node` for the next pass. `forcesRun`: the invalidation did not come through the
  /// node's observer (an `objectWillChange`, a reshaped environment, new input from the
  /// parent), so its next evaluation runs the body even when the change its observer queued
  /// meanwhile is cut off (derived values that recomputed to equal ones).
  func markDirty(_ node: ViewNode, cause: consuming UpdateCause, forcesRun: Bool = false) {
    if forcesRun { node.forcesRun = true }
    guard dirty.insert(node) else { return }
    node.pendingCause = consume cause
    scheduleFlushIfNeeded()
  }

  private func scheduleFlushIfNeeded() {
    guard mode == .automatic, actionDepth == 0, !isFlushing, !flushScheduled else { return }
    flushScheduled = true
    Task { @MainActor [weak self] in
      guard let self else { return }
      self.flushScheduled = false
      self.flush()
    }
  }

  func record(_ kind: RuntimeIssue.Kind, _ message: String, node: ViewNode) {
    recordIssue(kind, message, viewPath: node.path)
  }

  func recordIssue(_ kind: RuntimeIssue.Kind, _ message: String, viewPath: String) {
    issues.append(RuntimeIssue(kind: kind, message: message, viewPath: viewPath))
  }

  // MARK: - Evaluation

  func makeNode(
    _ view: any View, component: IdentityComponent, parent: ViewNode?,
    environment: EnvironmentValues
  ) -> ViewNode {
    return ViewNode(
      view: view, component: component, parent: parent, host: self, environment: environment,
      serial: ViewNode.takeSerial())
  }

  /// Evaluates `node`'s body (or expansion) in its own tracking scope, then reconciles its
  /// children outside that scope so their reads stay theirs.
  func evaluate(_ node: ViewNode, cause: consuming UpdateCause, newInput: Bool = false) {
    dirty.remove(node)
    node.pendingCause = nil
    node.passStamp = passStamp
    let specs: [ChildSpec]?
    // A mount or new input from the parent always evaluates; a change parked by the node's
    // observer may be skipped by the equality cut-off of derived values it read.
    let force = newInput || cause.isFromMountOrParent || node.forcesRun
    node.forcesRun = false
    if let primitiveType = node.info.primitive {
      if !cause.isFromMountOrParent {
        // A built-in view's own reads invalidated it (a control's binding, a ForEach row
        // closure): log it, though it has no body to count.
        updateLog.append(
          UpdateRecord(view: node.typeName, location: node.location, cause: cause, pass: passCount))
      }
      if node.info.expandsWithoutReads {
        specs = expand(primitiveType.unbox(node.view), of: node)
      } else {
        specs = tracked(node, force: force, .expansion)
      }
    } else {
      node.childEnvironment = node.environment
      if !node.environmentObjectCells.isEmpty { node.environmentObjectCells.removeAll() }
      let failures = DynamicPropertyInstaller.install(in: node)
      if failures.isEmpty {
        node.failure = nil
        specs = tracked(node, force: force, .body(cause: consume cause))
      } else {
        node.failure = failures.joined(separator: "; ")
        // The body does not run: the view depends on nothing it read before (a withdrawn
        // model's changes must not evaluate it again, each recording the issue anew).
        node.stopObserving()
        for failure in failures { record(.missingEnvironmentObject, failure, node: node) }
        specs = []
      }
    }
    // Re-expanded by its own reads only, a modifier's children already hold its content.
    guard let specs, force || node.info.primitive?.childrenDependOnlyOnValue != true else { return }
    reconcile(node, with: specs)
  }

  private func noteBodyEvaluation(_ node: ViewNode, cause: consuming UpdateCause) {
    node.bodyCount += 1
    totalBodyEvaluations += 1
    let ordinal = node.info.ordinal
    if ordinal >= bodyCountsByType.count {
      bodyCountsByType += repeatElement(0, count: ordinal + 1 - bodyCountsByType.count)
    }
    bodyCountsByType[ordinal] += 1
    bodyLog.append(node.typeName)
    updateLog.append(
      UpdateRecord(view: node.typeName, location: node.location, cause: cause, pass: passCount))
  }

  /// Runs `run` as `node`'s tracked evaluation (its continuous observer's run).
  private func tracked(_ node: ViewNode, force: Bool, _ run: consuming NodeRun) -> [ChildSpec]? {
    let outer = ViewGraphRuntime.updatingNode
    ViewGraphRuntime.updatingNode = node
    defer { ViewGraphRuntime.updatingNode = outer }
    return node.runTracked(force: force, consume run)
  }

  /// The work of one tracked run of `node` (called by its observer, inside the tracking scope):
  /// evaluates its body or expands it, and returns its children.
  func perform(_ run: consuming NodeRun, of node: ViewNode, event: ObservationTracking.Event)
    -> [ChildSpec]
  {
    switch consume run {
    case .expansion:
      guard let primitive = node.info.primitive?.unbox(node.view) else { return [] }
      return expand(primitive, of: node)
    case .body(let cause):
      // A change made off the main actor arrives without a cause; the event names it.
      if case .unknownProperty = cause, let keyPath = event.keyPath {
        noteBodyEvaluation(node, cause: .modelProperty(ObservedKeyPath(keyPath)))
      } else {
        noteBodyEvaluation(node, cause: consume cause)
      }
      for cell in node.environmentObjectCells { _ = cell.value }
      return [ChildSpec(component: .slot(0), view: evaluateBody(node.view))]
    }
  }

  /// Expands the built-in view `primitive` of `node`: its children's environment, then its
  /// children. Inside the node's tracking scope when it has one: a modifier that writes into
  /// an inherited value (`\.theme.size`) reads it, and must update its own value when the
  /// inherited one changes.
  private func expand(_ primitive: any PrimitiveView, of node: ViewNode) -> [ChildSpec] {
    node.childEnvironment = primitive.childEnvironment(node, inherited: node.environment)
    return primitive.makeChildren(node)
  }

  /// Gives `writer`'s descendants the environment `childEnvironment` derives (their parents'
  /// child environments, rebuilt top-down) and re-evaluates their bodies: the keys `writer`
  /// sets changed, which no cell change can tell a reader (see `EnvironmentWriterView`).
  func reshapeEnvironment(
    under writer: ViewNode, to childEnvironment: EnvironmentValues, cause: UpdateCause
  ) {
    for child in writer.children {
      reshapeEnvironment(of: child, inheriting: childEnvironment, cause: cause)
    }
  }

  private func reshapeEnvironment(
    of node: ViewNode, inheriting environment: EnvironmentValues, cause: UpdateCause
  ) {
    node.environment = environment
    if let primitiveType = node.info.primitive {
      // Untracked: this runs inside the tracking scope of the writer that reshaped, which
      // must not depend on what its descendants read.
      node.childEnvironment = withoutObservationTracking {
        primitiveType.unbox(node.view).childEnvironment(node, inherited: environment)
      }
    } else {
      node.childEnvironment = environment
      markDirty(node, cause: cause, forcesRun: true)
    }
    for child in node.children {
      reshapeEnvironment(of: child, inheriting: node.childEnvironment, cause: cause)
    }
  }

  func remove(_ node: ViewNode) {
    ViewGraphRuntime.asRemoval { node.teardown() }
    forEachNode(under: node) { dirty.remove($0) }
  }

  /// Lets go of the tree ``close()`` ended, and of the dirty queue's entries, which would keep
  /// removed nodes (the queue deletes lazily, at the next pass, and a closed host has none).
  func releaseTree() {
    dirty.removeAll()
    root = nil
  }

  // MARK: - Traversal

  func allNodes() -> [ViewNode] {
    var nodes: [ViewNode] = []
    if let root { forEachNode(under: root) { nodes.append($0) } }
    return nodes
  }

  func forEachNode(under node: ViewNode, _ body: (ViewNode) -> Void) {
    body(node)
    for child in node.children { forEachNode(under: child, body) }
  }
}
