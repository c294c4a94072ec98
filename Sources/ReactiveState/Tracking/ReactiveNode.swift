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

/// A node of the dependency graph. Sources (``PropertySlot``s) use the subscriber list;
/// subscribers (observers) use the dependency list; derived values use both.
///
/// Threading: the lists and every subclass's state transitions are guarded by
/// ``GraphLock``. `subscriberCount` is atomic so a writer can skip the lock when nobody
/// listens. Subclasses override the `receive`/`deliver` pair: `receive` runs under the lock
/// and only updates state; `deliver` runs after the lock is released and may call user code.
@usableFromInline
class ReactiveNode: @unchecked Sendable {
  final var firstSubscriber: LinkPointer?
  final var lastSubscriber: LinkPointer?
  final var firstDependency: LinkPointer?
  final var lastDependency: LinkPointer?
  /// Intrusive delivery queue (one per notification pass); the queue holds a +1 retain.
  final var nextQueued: ReactiveNode?
  /// Number of links in the subscriber list, readable without the lock.
  @usableFromInline final let subscriberCount = Atomic<Int>(0)

  init() {}

  /// Called under the graph lock when `link.source` changes. Return true to be queued for
  /// ``deliver(_:from:)``, which runs after the lock is released.
  func receive(_ event: SourceEvent, from link: LinkPointer) -> Bool { false }

  /// Called under the graph lock when a source is going away; the link is removed right after.
  /// Return true to be queued for delivery of `.deinitialized`.
  func sourceWillDeinitialize(_ link: LinkPointer) -> Bool { false }

  /// Called without the lock, once per queued `receive` that returned true.
  func deliver(_ event: SourceEvent, from source: ReactiveNode) {}

  // MARK: - Link maintenance (caller holds the graph lock)

  /// Appends a new edge `source → subscriber` to the tail of both lists.
  @discardableResult
  static func link(_ source: ReactiveNode, to subscriber: ReactiveNode, version: UInt64)
    -> LinkPointer
  {
    let link = LinkAllocator.make(source: source, subscriber: subscriber, version: version)
    link.pointee.previousSubscriber = source.lastSubscriber
    if let last = source.lastSubscriber {
      last.pointee.nextSubscriber = link
    } else {
      source.firstSubscriber = link
    }
    source.lastSubscriber = link
    link.pointee.previousDependency = subscriber.lastDependency
    if let last = subscriber.lastDependency {
      last.pointee.nextDependency = link
    } else {
      subscriber.firstDependency = link
    }
    subscriber.lastDependency = link
    source.subscriberCount.add(1, ordering: .sequentiallyConsistent)
    return link
  }

  /// Removes an edge from both lists and recycles it.
  static func unlink(_ link: LinkPointer) {
    let source = link.pointee.source
    let subscriber = link.pointee.subscriber
    let previousSubscriber = link.pointee.previousSubscriber
    let nextSubscriber = link.pointee.nextSubscriber
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
    let previousDependency = link.pointee.previousDependency
    let nextDependency = link.pointee.nextDependency
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
    source.subscriberCount.subtract(1, ordering: .sequentiallyConsistent)
    LinkAllocator.recycle(link)
  }

  /// Removes every dependency edge of this subscriber.
  final func unlinkAllDependencies() {
    while let link = firstDependency { ReactiveNode.unlink(link) }
  }
}

/// A FIFO of nodes to deliver once the graph lock is released. Each queued node is retained
/// (retaining never runs user code, so it is safe under the lock) and released after delivery.
struct DeliveryQueue {
  private var head: ReactiveNode?
  private var tail: ReactiveNode?

  var isEmpty: Bool { head == nil }

  /// Enqueues `node` (caller holds the graph lock).
  mutating func append(_ node: ReactiveNode) {
    node.nextQueued = nil
    if let tail { tail.nextQueued = node } else { head = node }
    tail = node
  }

  /// Delivers `event` to every queued node in order, then empties the queue (no lock held).
  mutating func deliverAll(_ event: SourceEvent, from source: ReactiveNode) {
    var node = head
    head = nil
    tail = nil
    while let current = node {
      node = current.nextQueued
      current.nextQueued = nil
      current.deliver(event, from: source)
    }
  }
}
