import CReactiveState
import Synchronization

/// Walks a source's subscribers when it changes or dies.
///
/// Every walk is iterative and happens under ``GraphLock``; subscribers only flip state and
/// enqueue themselves there. User code (callbacks) runs after the lock is released, in
/// subscription order, so a callback may freely read, mutate or re-arm observation.
enum ChangePropagation {
  /// Tests only, unoptimised builds only (compiled out otherwise): called by a `didSet` walk
  /// before it takes the graph lock, so a test can complete another walk of the source there.
  static let pauseBeforeDidSetWalk = EngineTestHook()

  /// Tells every subscriber of `source` about `event` — walking on through derived values,
  /// each at most once per change, with an explicit stack (no recursion) — then delivers to
  /// those that asked.
  ///
  /// A `didSet` walk is skipped when nothing has consumed a change since this source's last
  /// `didSet` walk (same ``ObservationWave``) and no subscriber was linked since: every
  /// subscriber it reached then is still queued or dirty, so a batch of writes to one source
  /// walks its subscribers once, and the later writes do not even call this (see
  /// ``SourceNode/hasCurrentDidSetWalk``); a write racing with a walk in progress or a new
  /// link checks again here, under the lock. (Not for a source with derived subscribers, see
  /// below.)
  ///
  /// `parked`: a registration a property slot held outside the graph (see
  /// `PropertySlot+Parking.swift`), already taken by the caller. It is older than every graph
  /// listener, so it is called first — but after the walk, so a registration it re-arms (or
  /// a continuous observer's re-run links) is not reached by this change. It is called even
  /// when the walk itself is skipped.
  @inline(never)
  static func notify(
    _ source: SourceNode, _ event: SourceEvent,
    firstCalling parked: UnsafeMutableRawPointer? = nil
  ) {
    notify(source, event, firstCalling: parked, passingOverEnclosingWrite: false)
  }

  /// ``notify(_:_:firstCalling:)`` for the late `willSet` of a write that began before its
  /// object was observed: a subscriber of `property` itself that this thread armed inside the
  /// write passes over it (see ``ReactiveNode/passesOverEnclosingWrite(_:)``).
  @inline(never)
  static func notifyWillSetOfWriteBegunUnobserved(
    _ property: PropertySlot, firstCalling parked: UnsafeMutableRawPointer?
  ) {
    notify(property, .willSet, firstCalling: parked, passingOverEnclosingWrite: true)
  }

  /// The walk, with `passingOverEnclosingWrite` a constant at each call site (the plain walk
  /// asks nothing more of a subscriber).
  @inline(__always)
  private static func notify(
    _ source: SourceNode, _ event: SourceEvent, firstCalling parked: UnsafeMutableRawPointer?,
    passingOverEnclosingWrite: Bool
  ) {
    var queue = DeliveryQueue()
    if BuildConfiguration.isUnoptimised, event == .didSet, let pause = pauseBeforeDidSetWalk.body {
      pause()
    }
    GraphLock.lock()
    if event == .didSet
      && source.didSetWalkWave.load(ordering: .relaxed) == ObservationWave.currentValue
    {
      GraphLock.unlock()
      if let parked { PropertySlot.runParked(parked, at: event) }
      return
    }
    // Taken before the walk: a subscriber that starts a run during it (a synchronous
    // delivery) advances the wave, and the mark stored at the end is then already stale.
    let wave = event == .didSet ? ObservationWave.mark() : 0
    leavesSourceUnmarked = false
    DerivedNode.isInsideWalk = true
    let pass = nextPass()
    walkRoot = .passUnretained(source)
    // Unmanaged references throughout: every node reached is kept alive by its links, which
    // only change under the lock we hold, so the walk needs no reference counting.
    var walking: Unmanaged<SourceNode>? = .passUnretained(source)
    var stack: Unmanaged<DerivedNode>?
    var reachedDerived = false
    while let current = walking {
      var link = current._withUnsafeGuaranteedRef { $0.firstSubscriber }
      while let edge = link {
        // Read the successor first: `receive` may unlink `edge` (a one-shot cancels itself).
        link = edge.pointee.nextSubscriber
        let subscriberNode = edge.pointee.subscriberNode
        GraphLockPins.pin(subscriberNode)
        // Only guaranteed references here, never an owned one: a subscriber whose last owner
        // let go on another thread must not be released — and deinitialised — by this thread
        // while it holds the lock its deinitialiser takes (unoptimised builds: ``GraphLockPins``).
        subscriberNode._withUnsafeGuaranteedRef { subscriber in
          if subscriber.isDerived {
            reachedDerived = true
            Unmanaged<DerivedNode>.fromOpaque(subscriberNode.toOpaque())._withUnsafeGuaranteedRef {
              derived in
              if derived.invalidate(event, pass: pass) {
                derived.nextToWalk = stack
                stack = .passUnretained(derived)
              }
            }
          } else if passingOverEnclosingWrite
            && current.toOpaque() == Unmanaged.passUnretained(source).toOpaque()
            && subscriber.passesOverEnclosingWrite(edge)
          {
            // Armed inside the write, on this thread: not a change to it.
          } else if subscriber.receive(event, from: edge) {
            queue.append(subscriber)
          }
        }
      }
      walking = stack.map { Unmanaged<SourceNode>.fromOpaque($0.toOpaque()) }
      stack = stack?._withUnsafeGuaranteedRef { $0.nextToWalk }
    }
    // A derived value consumes a change without the lock (a refresh clears its stale mark),
    // so nothing tells the wave: a source with derived subscribers is walked on every write.
    // The walk stops at each derived value that is still stale. Otherwise the source is
    // marked now that the walk is complete: a write that sees the mark skips its own walk
    // without the lock, so the mark must not appear before every subscriber was reached.
    if event == .didSet {
      if reachedDerived {
        DerivedNode.endDidSetWalk(pass: pass)
      } else if !leavesSourceUnmarked {
        source.didSetWalkWave.store(wave, ordering: .releasing)
      }
    }
    DerivedNode.endWalk()
    GraphLock.unlock()
    if let parked { PropertySlot.runParked(parked, at: event) }
    if event == .willSet {
      deliveringWillSet { queue.deliverAll(event, from: source) }
    } else {
      queue.deliverAll(event, from: source)
    }
  }

  /// Runs `deliver` — callbacks of a write's `willSet`, before its store — counted in this
  /// thread's `willset_delivery_depth` (a one-shot armed meanwhile notes it, see
  /// `OneShotObserver`).
  @inline(__always)
  static func deliveringWillSet(_ deliver: () -> Void) {
    let thread = rs_current_thread()
    thread.pointee.willset_delivery_depth &+= 1
    deliver()
    thread.pointee.willset_delivery_depth &-= 1
  }

  /// Deallocations: one per detached object, so a subscriber reached through several of its
  /// properties can tell it was already queued for this one (graph lock).
  nonisolated(unsafe) static private(set) var detachPass: UInt64 = 0

  /// Propagation passes, so a derived value reached along several paths is walked once
  /// (graph lock).
  nonisolated(unsafe) private static var walkPass: UInt64 = 0

  /// A new propagation pass (graph lock): also for other walks over derived values that mark
  /// each node they reach once (``DerivedNode/walkedPass``).
  @inline(__always)
  static func nextPass() -> UInt64 {
    walkPass &+= 1
    return walkPass
  }

  /// The latest pass (graph lock). During a walk of ``notify(_:_:firstCalling:)`` it is that
  /// walk's, unique to it: no other pass starts inside it (derived values queue the passes
  /// of their own until it ends, see `DerivedNode.isInsideWalk`).
  @inline(__always)
  static var currentPass: UInt64 { walkPass }

  /// Set by a subscriber the current walk reached that must hear the source's next write even
  /// though it is still waiting (a main-actor observer waiting for its hop, which a change on
  /// the main thread runs at once): the walk then leaves its source unmarked (graph lock).
  nonisolated(unsafe) static var leavesSourceUnmarked = false

  /// The property whose change the current walk announces (graph lock; meaningful only
  /// while a subscriber's `receive` runs): what a subscriber reached through derived values
  /// learns about the mutation itself.
  nonisolated(unsafe) static private(set) var walkRoot: Unmanaged<SourceNode>?

  /// Detaches every slot of a deallocated registrar (the chain starting at `head`) from its
  /// subscribers, then delivers `.deinitialized` to those that asked for it.
  static func detach(_ head: PropertySlot) {
    var queue = DeliveryQueue()
    GraphLock.lock()
    detachPass &+= 1
    var slot: PropertySlot? = head
    while let current = slot {
      detachLinks(of: current) { subscriber, link in
        if subscriber.sourceWillDeinitialize(link) { queue.append(subscriber) }
      }
      current.wideIndex = nil  // the head's index refers to the head itself
      slot = current.next
    }
    GraphLock.unlock()
    // Parked one-shots need no lock; releasing one may run user code (its closure's captures).
    slot = head
    while let current = slot {
      current.discardParkedRegistration()
      slot = current.next
    }
    queue.deliverAll(.deinitialized, from: head)
  }

  /// Detaches a deallocating derived value from its subscribers and its inputs; pending
  /// one-shot registrations over it listen to its inputs from then on.
  static func detachSubscribers(of node: DerivedNode) {
    var missedChanges = DeliveryQueue()
    var deallocations = DeliveryQueue()
    var silentEnds = DeliveryQueue()
    GraphLock.lock()
    detachPass &+= 1
    if node.passesChangesOn.load(ordering: .relaxed) {
      OneShotInstallation.handOverSubscribers(of: node, missed: &missedChanges)
    }
    let objectsGone = node.objectsGone
    detachLinks(of: node) { subscriber, link in
      switch subscriber.derivedValueWillDeinitialize(link, objectsGone: objectsGone) {
      case .none: break
      case .deallocation: deallocations.append(subscriber)
      case .silentEnd: silentEnds.append(subscriber)
      }
    }
    node.unlinkAllDependencies()
    GraphLock.unlock()
    // The node itself is being deinitialised: deliveries name stand-in sources.
    missedChanges.deliverAll(.didSet, from: DependencyLink.departedSource)
    deallocations.deliverAll(.deinitialized, from: DependencyLink.departedSource)
    silentEnds.deliverAll(.deinitialized, from: DependencyLink.silentlyDepartedSource)
  }

  /// Under the graph lock: removes every subscriber link of `source`, after `visit` told
  /// each subscriber (and queued those that want a delivery).
  private static func detachLinks(
    of source: SourceNode, _ visit: (ReactiveNode, LinkPointer) -> Void
  ) {
    source.isDetached = true
    while let link = source.firstSubscriber {
      // A guaranteed reference, as in `notify`: releasing an owned one here could deinitialise
      // a subscriber whose last owner let go on another thread, under the lock its
      // deinitialiser takes.
      GraphLockPins.pin(link.pointee.subscriberNode)
      link.pointee.subscriberNode._withUnsafeGuaranteedRef { visit($0, link) }
      // The subscriber may have removed `link` already (cancelled itself, or detached it
      // from this side because it is running).
      if source.firstSubscriber == link { ReactiveNode.unlink(link) }
    }
  }
}
