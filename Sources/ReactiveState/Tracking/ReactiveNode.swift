import CReactiveState
import Synchronization

/// What happened to a source, as delivered to its subscribers.
@usableFromInline
enum SourceEvent {
  /// A mutation is about to store a new value (the old value is still visible).
  case willSet
  /// A mutation has stored its value.
  case didSet
  /// The source's object is being deallocated; the link is already gone.
  case deinitialized
}

/// A node of the dependency graph that depends on others: an observer, or (through
/// ``SourceNode``) a derived value. Its dependency list holds one link per source it read.
///
/// Threading: the lists and every subclass's state transitions are guarded by
/// ``GraphLock``. Subclasses override the `receive`/`deliver` pair: `receive` runs under the
/// lock and only updates state; `deliver` runs after the lock is released and may call user
/// code.
@usableFromInline
class ReactiveNode: @unchecked Sendable {
  @exclusivity(unchecked) final var firstDependency: LinkPointer?
  @exclusivity(unchecked) final var lastDependency: LinkPointer?
  /// Intrusive delivery queue link (one queue per notification pass; the queue owns a +1).
  @exclusivity(unchecked) final var nextQueued: Unmanaged<ReactiveNode>?
  /// Which mutation edges this subscriber reacts to; a source skips the lock for an edge no
  /// subscriber of it wants. Fixed for observers; a derived value wants `willSet` only while
  /// something downstream does (see ``SourceNode/addListener(_:)``). Every link a subscriber
  /// holds on a source's list counts its current interest there (graph lock).
  @exclusivity(unchecked) final var interest: MutationInterest
  /// Whether this node is a ``DerivedNode`` (propagation walks through it).
  final let isDerived: Bool
  /// Whether the delivery queue neither retains nor releases this node for the delivery
  /// it is queued for: a one-shot observer hands its pending retain over (its
  /// ``deliver(_:from:)`` consumes it); a continuous observer whose run `receive` started is
  /// kept alive by that run (see ``ContinuousObserver``). Set under the graph lock before
  /// `receive` returns true.
  @exclusivity(unchecked) final var handsPendingRetainToQueue: Bool
  /// Whether deliveries to this node may be in flight on several threads at once (an SE-0506
  /// event registration: a `willSet` on the mutating thread, a `.deinit` on the releasing
  /// one). A node sits in one delivery queue at a time (``nextQueued``): such a node is queued
  /// itself when it is in no queue (``isInDeliveryQueue``), and otherwise as a
  /// ``QueuedDelivery`` of its own. Either way the queue retains its entry (another thread may
  /// read ``handsPendingRetainToQueue`` of an entry it holds, so it is never consulted).
  final let mayHaveConcurrentDeliveries: Bool
  /// For a node with ``mayHaveConcurrentDeliveries``: whether it is linked into a delivery
  /// queue as itself. Set under the graph lock when it is appended; cleared without the lock
  /// (releasing) by the thread delivering it, once that thread is done with ``nextQueued``.
  final let isInDeliveryQueue = Atomic<Bool>(false)

  init(
    interest: MutationInterest, isDerived: Bool = false, handsPendingRetainToQueue: Bool = false,
    mayHaveConcurrentDeliveries: Bool = false
  ) {
    self.interest = interest
    self.isDerived = isDerived
    self.handsPendingRetainToQueue = handsPendingRetainToQueue
    self.mayHaveConcurrentDeliveries = mayHaveConcurrentDeliveries
  }

  /// Called under the graph lock when `link.source` changes. Return true to be queued for
  /// ``deliver(_:from:)``, which runs after the lock is released.
  func receive(_ event: SourceEvent, from link: LinkPointer) -> Bool { false }

  /// Under the graph lock, in place of ``receive(_:from:)``, in the late `willSet` walk of a
  /// write that began before its object was observed, for a subscriber of the written
  /// property itself (see `RegistrarStorage.lateMutation(site:keyPath:)`): whether it was
  /// armed inside that write — on this thread, the writing one — and so passes over its
  /// `willSet`, as it would armed inside a write of an observed object (see
  /// `OwnWriteDeferral`). By default false: it receives the `willSet`.
  func passesOverEnclosingWrite(_ link: LinkPointer) -> Bool { false }

  /// Called under the graph lock when a source is going away; the link is removed right after.
  /// Return true to be queued for delivery of `.deinitialized`.
  func sourceWillDeinitialize(_ link: LinkPointer) -> Bool { false }

  /// Under the graph lock, as an abandoned derived value this node depends on goes away:
  /// whether the node listens to that value's inputs instead — a waiting one-shot
  /// registration, which keeps nothing it observes alive, or another abandoned derived value,
  /// which passes changes on to such registrations. Otherwise it hears of the departure as of
  /// a deinitialised source. True obliges the caller to call ``finishTakingOverInputs()``.
  func takesOverInputsOfDepartingDerivedValue() -> Bool { false }

  /// Ends what ``takesOverInputsOfDepartingDerivedValue()`` began (graph lock).
  func finishTakingOverInputs() {}

  /// Under the graph lock: `link` to an input of a derived value this node read stands in for
  /// its link to that value, which goes away (or went before installation). By default
  /// nothing: an event registration takes a `didSet` through it as it would through the value.
  func linkedInputInPlaceOfDerivedValue(_ link: LinkPointer) {}

  /// Under the graph lock, while taking over the inputs of a derived value that goes away:
  /// the value read one of them while another thread's write of it was in flight, and that
  /// write's `didSet` — which would have reached this node, late, through the value — is
  /// still to come. Return true to end now and be queued for delivery of the change, as at
  /// installation when a read property changed meanwhile; false to take the inputs over (a
  /// derived value passes the `didSet` on from there).
  func missesChangeInFlight() -> Bool { false }

  /// What a subscriber makes of the departure of a derived value it reads.
  enum DerivedValueDeparture {
    /// Nothing to deliver.
    case none
    /// A `.deinitialized` delivery: for objects read through the value that went before it.
    case deallocation
    /// The registration ended: a delivery that drops its retain, with no event.
    case silentEnd
  }

  /// Called under the graph lock when a derived value this node reads goes away; the link is
  /// removed right after. `objectsGone`: the deallocation passes in which objects that the
  /// value read — directly or through other derived values — went away while linked to it
  /// (the latest ``DeallocationPasses/capacity``). By default, as any source's
  /// deinitialisation.
  func derivedValueWillDeinitialize(_ link: LinkPointer, objectsGone: DeallocationPasses)
    -> DerivedValueDeparture
  {
    sourceWillDeinitialize(link) ? .deallocation : .none
  }

  /// Called without the lock, once per queued `receive` that returned true.
  func deliver(_ event: SourceEvent, from source: SourceNode) {}

  // MARK: - Link maintenance (caller holds the graph lock)

  /// Appends a new edge `source → subscriber` at the tail of both lists.
  @discardableResult
  static func link(_ source: SourceNode, to subscriber: ReactiveNode, version: UInt64)
    -> LinkPointer
  {
    link(source, to: subscriber, after: subscriber.lastDependency, version: version)
  }

  /// Inserts a new edge `source → subscriber`: at the tail of the source's subscriber list,
  /// and right after `cursor` in the subscriber's dependency list (at its head when nil).
  static func link(
    _ source: SourceNode, to subscriber: ReactiveNode, after cursor: LinkPointer?, version: UInt64
  ) -> LinkPointer {
    let link = LinkAllocator.make(source: source, subscriber: subscriber, version: version)
    if source.didSetWalkWave.load(ordering: .relaxed) != 0 {
      // Sequentially consistent: a write that then skips its walk must see it, or this
      // linker's version check must see that write (see `SourceNode.hasCurrentDidSetWalk`).
      source.didSetWalkWave.store(0, ordering: .sequentiallyConsistent)
    }
    link.pointee.previousSubscriber = source.lastSubscriber
    if let last = source.lastSubscriber {
      last.pointee.nextSubscriber = link
    } else {
      source.firstSubscriber = link
    }
    source.lastSubscriber = link
    let next = cursor == nil ? subscriber.firstDependency : cursor!.pointee.nextDependency
    link.pointee.previousDependency = cursor
    link.pointee.nextDependency = next
    if let cursor {
      cursor.pointee.nextDependency = link
    } else {
      subscriber.firstDependency = link
    }
    if let next { next.pointee.previousDependency = link } else { subscriber.lastDependency = link }
    source.addListener(subscriber.interest)
    return link
  }

  /// Removes an edge from its source's subscriber list only, and marks it detached; the
  /// subscriber removes it from its dependency list later (used while it is running).
  static func detachFromSource(_ link: LinkPointer) {
    GraphLockPins.pin(link.pointee.sourceNode)
    GraphLockPins.pin(link.pointee.subscriberNode)
    let interest = link.pointee.subscriberNode._withUnsafeGuaranteedRef { $0.interest }
    let previousSubscriber = link.pointee.previousSubscriber
    let nextSubscriber = link.pointee.nextSubscriber
    // A self-pointer marks "source side gone" (only read under the lock, never by the
    // subscriber's lock-free run).
    link.pointee.previousSubscriber = link
    link.pointee.nextSubscriber = nil
    let source = link.pointee.sourceNode
    // The subscriber's run may be matching reads against this link without the lock.
    link.noteSourceDeparted()
    source._withUnsafeGuaranteedRef { source in
      if let previousSubscriber {
        previousSubscriber.pointee.nextSubscriber = nextSubscriber
      } else {
        source.firstSubscriber = nextSubscriber
      }
      if let nextSubscriber {
        nextSubscriber.pointee.previousSubscriber = previousSubscriber
      } else {
        source.lastSubscriber = previousSubscriber
      }
      source.removeListener(interest)
      if source.isDerived && source.firstSubscriber == nil {
        unsafeDowncast(source, to: DerivedNode.self).noteOrphaned()
      }
    }
  }

  /// Removes an edge from both lists (only the dependency list if already detached) and
  /// recycles it.
  static func unlink(_ link: LinkPointer) {
    if link.pointee.previousSubscriber != link { detachFromSource(link) }
    let previousDependency = link.pointee.previousDependency
    let nextDependency = link.pointee.nextDependency
    GraphLockPins.pin(link.pointee.subscriberNode)
    link.pointee.subscriberNode._withUnsafeGuaranteedRef { subscriber in
      if let previousDependency {
        previousDependency.pointee.nextDependency = nextDependency
      } else {
        subscriber.firstDependency = nextDependency
      }
      if let nextDependency {
        nextDependency.pointee.previousDependency = previousDependency
      } else {
        subscriber.lastDependency = previousDependency
      }
    }
    LinkAllocator.recycle(link)
  }

  /// A running subscriber's read of `source`: when the link after `cursor` already points at
  /// it (the previous run read the same thing in the same order) only its version is updated
  /// — no lock, no allocation; otherwise a new link is spliced in after `cursor` under the
  /// graph lock. Returns the new cursor. Called only by the subscriber's running thread.
  ///
  /// The match compares addresses: a link whose source was deallocated during the run (it is
  /// detached, not yet removed) refers to no live source any more, so a new source allocated
  /// at the same address gets a link of its own.
  @inline(__always)
  final func reuseOrLink(_ source: SourceNode, version: UInt64, after cursor: LinkPointer?)
    -> LinkPointer
  {
    reuseNextLink(source, version: version, after: cursor)
      ?? link(source, version: version, after: cursor)
  }

  /// The steady-state half of ``reuseOrLink(_:version:after:)``: the link after `cursor` when
  /// it is `source`'s (its version updated), else nil (the caller links).
  @inline(__always)
  final func reuseNextLink(_ source: SourceNode, version: UInt64, after cursor: LinkPointer?)
    -> LinkPointer?
  {
    let candidate =
      cursor == nil ? firstDependency : cursor.unsafelyUnwrapped.pointee.nextDependency
    guard let candidate, candidate.refers(to: source) else { return nil }
    candidate.pointee.version = version
    return candidate
  }

  /// ``reuseOrLink(_:version:after:)`` when the next old link is not `source`'s: splices a new
  /// link in after `cursor` (out of line, so the matching read stays small enough to inline
  /// into the scopes' `record`).
  @inline(never)
  private final func link(_ source: SourceNode, version: UInt64, after cursor: LinkPointer?)
    -> LinkPointer
  {
    GraphLock.lock()
    defer { GraphLock.unlock() }
    let link = ReactiveNode.link(source, to: self, after: cursor, version: version)
    // A write that landed between the read and this link saw no listener: catch it here
    // (the link is published first, so either the writer or this check sees the other).
    ReactiveNode.fenceAfterLinking(to: source)
    if source.changedSince(version) { missedChange(at: link) }
    return link
  }

  /// The barrier between publishing new links to `sources` and comparing their versions: one
  /// of the two sides of the handshake with writers sees the other. A full fence pairs with a
  /// writer's atomic version increment; a link from another thread to a property that the
  /// main thread writes with plain stores needs a barrier on the main thread too (see
  /// ``SourceNode/needsProcessBarrierAfterLinking``, checked after the fence).
  @inline(__always)
  static func fenceAfterLinking(to sources: UnsafeMutableBufferPointer<InputList.Input>) {
    rs_full_fence()
    let needsProcessBarrier = sources.contains {
      $0.source._withUnsafeGuaranteedRef { $0.needsProcessBarrierAfterLinking }
    }
    if needsProcessBarrier { rs_process_barrier() }
  }

  /// ``fenceAfterLinking(to:)`` for one source.
  @inline(__always)
  static func fenceAfterLinking(to source: SourceNode) {
    rs_full_fence()
    if source.needsProcessBarrierAfterLinking { rs_process_barrier() }
  }

  /// Under the graph lock: a source this running node just linked changed after it was
  /// read, before the link existed (no notification reached this node).
  func missedChange(at link: LinkPointer) {}

  /// Removes every dependency edge of this subscriber.
  final func unlinkAllDependencies() {
    while let link = firstDependency { ReactiveNode.unlink(link) }
  }

  /// Removes every dependency edge after `cursor` (all of them when nil): the sources a run
  /// did not read again.
  final func unlinkDependencies(after cursor: LinkPointer?) {
    while let link = cursor == nil ? firstDependency : cursor!.pointee.nextDependency {
      ReactiveNode.unlink(link)
    }
  }
}

/// A FIFO of nodes to deliver once the graph lock is released. Each queued node is retained
/// (retaining never runs user code, so it is safe under the lock; a one-shot observer hands
/// over its own pending retain instead) and released after delivery.
struct DeliveryQueue {
  private var head: Unmanaged<ReactiveNode>?
  private var tail: Unmanaged<ReactiveNode>?

  /// Enqueues `node` (caller holds the graph lock).
  mutating func append(_ node: ReactiveNode) {
    guard node.mayHaveConcurrentDeliveries else {
      appendEntry(
        node.handsPendingRetainToQueue
          ? Unmanaged.passUnretained(node) : Unmanaged.passRetained(node))
      return
    }
    // Acquiring: the thread that last delivered it is done with its `nextQueued`.
    if node.isInDeliveryQueue.load(ordering: .acquiring) {
      appendEntry(Unmanaged.passRetained(QueuedDelivery(node)))
    } else {
      node.isInDeliveryQueue.store(true, ordering: .relaxed)
      appendEntry(Unmanaged.passRetained(node))
    }
  }

  private mutating func appendEntry(_ entry: Unmanaged<ReactiveNode>) {
    entry._withUnsafeGuaranteedRef { $0.nextQueued = nil }
    if let tail { tail._withUnsafeGuaranteedRef { $0.nextQueued = entry } } else { head = entry }
    tail = entry
  }

  /// Delivers `event` to every queued node in order, then empties the queue (no lock held).
  mutating func deliverAll(_ event: SourceEvent, from source: SourceNode) {
    var cursor = head
    head = nil
    tail = nil
    while let entry = cursor {
      let deliverConsumesRetain = entry._withUnsafeGuaranteedRef { node in
        cursor = node.nextQueued
        node.nextQueued = nil
        guard node.mayHaveConcurrentDeliveries else { return node.handsPendingRetainToQueue }
        node.isInDeliveryQueue.store(false, ordering: .releasing)
        return false
      }
      // Nothing touches a consuming node after `deliver`: it may be gone or reused by then.
      entry._withUnsafeGuaranteedRef { $0.deliver(event, from: source) }
      if !deliverConsumesRetain { entry.release() }
    }
  }
}

/// One delivery to a node whose deliveries may be in flight on several threads at once (see
/// ``ReactiveNode/mayHaveConcurrentDeliveries``): a queue entry of its own, which keeps the
/// node alive until it is delivered.
final class QueuedDelivery: ReactiveNode, @unchecked Sendable {
  private let target: ReactiveNode

  init(_ target: ReactiveNode) {
    self.target = target
    super.init(interest: [])
  }

  override func deliver(_ event: SourceEvent, from source: SourceNode) {
    target.deliver(event, from: source)
  }
}
