/// Walks a source's subscribers when it changes or dies.
///
/// Every walk is iterative and happens under ``GraphLock``; subscribers only flip state and
/// enqueue themselves there. User code (callbacks) runs after the lock is released, in
/// subscription order, so a callback may freely read, mutate or re-arm observation.
enum ChangePropagation {
  /// Tells every subscriber of `source` about `event`, then delivers to those that asked.
  static func notify(_ source: SourceNode, _ event: SourceEvent) {
    var queue = DeliveryQueue()
    GraphLock.shared.lock()
    var link = source.firstSubscriber
    while let current = link {
      // Read the successor first: `receive` may unlink `current` (a one-shot cancels itself).
      link = current.pointee.nextSubscriber
      let subscriber = current.pointee.subscriber
      if subscriber.receive(event, from: current) { queue.append(subscriber) }
    }
    GraphLock.shared.unlock()
    queue.deliverAll(event, from: source)
  }

  /// Detaches every slot of a deallocated registrar (the chain starting at `head`) from its
  /// subscribers, then delivers `.deinitialized` to those that asked for it.
  static func detach(_ head: PropertySlot) {
    var queue = DeliveryQueue()
    GraphLock.shared.lock()
    var slot: PropertySlot? = head
    while let current = slot {
      current.isDetached = true
      while let link = current.firstSubscriber {
        let subscriber = link.pointee.subscriber
        if subscriber.sourceWillDeinitialize(link) { queue.append(subscriber) }
        // The subscriber may have cancelled itself (and so removed `link`) already.
        if current.firstSubscriber == link { ReactiveNode.unlink(link) }
      }
      slot = current.next
    }
    GraphLock.shared.unlock()
    queue.deliverAll(.deinitialized, from: head)
  }
}
