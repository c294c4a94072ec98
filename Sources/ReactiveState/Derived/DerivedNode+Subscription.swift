/// Subscribing an unlinked derived value to its inputs, when a subscribing reader (an
/// observer, or a linked derived value) starts to depend on it.
extension DerivedNode {
  /// A subscribing reader is about to depend on this unlinked node (compute lock held, so
  /// `inputs` is stable): subscribes its unlinked derived inputs first (each under its own
  /// compute lock, in the order refreshes take them, and so on upstream), then links every
  /// input of the last computation, and marks the node stale when one changed after it was
  /// read (the reader then sees a change at once).
  ///
  /// Depth-first over the intrusive stack (``stackParent``, ``stackIndex``), not by
  /// recursion, so a long unobserved chain is subscribed in constant stack space. This node's
  /// own stack fields are left alone: a recomputation during a check of its inputs may call
  /// this while the check has it on its stack.
  final func subscribeUpstream() {
    let root = Unmanaged.passUnretained(self)
    var node = root
    var rootIndex = 0
    while true {
      let isRoot = node.toOpaque() == root.toOpaque()
      let start = isRoot ? rootIndex : node._withUnsafeGuaranteedRef { $0.stackIndex }
      let found = node._withUnsafeGuaranteedRef { $0.nextUnlinkedDerivedInput(from: start) }
      if let (input, index) = found {
        if isRoot {
          rootIndex = index + 1
        } else {
          node._withUnsafeGuaranteedRef { $0.stackIndex = index + 1 }
        }
        input._withUnsafeGuaranteedRef {
          $0.stackParent = node
          $0.stackIndex = 0
        }
        node = input
        continue
      }
      node._withUnsafeGuaranteedRef { $0.linkInputsIfUnlinked() }
      if isRoot { return }
      node = node._withUnsafeGuaranteedRef { done in
        let parent = done.stackParent.unsafelyUnwrapped
        done.stackParent = nil
        // The parent, locked by this thread, holds this input: it stays alive.
        done.releaseComputeLock()
        return parent
      }
    }
  }

  /// The first derived input at `start` or later that is unlinked, returned locked with its
  /// position; derived inputs passed over are locked and unlocked in turn (compute lock held).
  private func nextUnlinkedDerivedInput(from start: Int) -> (Unmanaged<DerivedNode>, Int)? {
    let entries = inputs.inputs
    var index = start
    while index < entries.count {
      let source = entries[index].source
      let isUnlinkedInput = source._withUnsafeGuaranteedRef { source -> Bool in
        guard source.isDerived else { return false }
        let derived = unsafeDowncast(source, to: DerivedNode.self)
        guard lockInputUnlessHeldHere(derived) else { return false }
        if derived.isUnlinked.load(ordering: .relaxed) { return true }
        derived.releaseComputeLock()
        return false
      }
      if isUnlinkedInput { return (Unmanaged.fromOpaque(source.toOpaque()), index) }
      index += 1
    }
    return nil
  }

  /// Takes `input`'s compute lock (this node's, on the subscription stack, held); false, with
  /// nothing taken, when this thread holds it already: the inputs form a cycle (each value read
  /// the other at some time, the read that closed it reported) and `input` is further up this
  /// thread's stack — subscribed there, or being refreshed. Waiting would never end.
  @inline(__always)
  private func lockInputUnlessHeldHere(_ input: DerivedNode) -> Bool {
    if input.computeLock.tryLock() { return true }
    return lockContendedInputUnlessCycle(input)
  }

  /// The contended half of ``lockInputUnlessHeldHere(_:)``: false when this thread holds
  /// `input`; otherwise waits for it, and gives it up (false) only when the wait is part of
  /// a cycle of subscriptions.
  ///
  /// A subscription cannot fail, so its wait is registered even when it closes a cycle of
  /// threads, with the locks this thread holds on its stacks (settled nodes no longer name
  /// their holder): a thread of that cycle waiting for one of them to read it sees the cycle
  /// and fails its read instead (see `lockUnlessCycleAcrossThreads`). A cycle of
  /// subscriptions alone has no such thread (two derived values that read each other,
  /// subscribed on two threads, each holding one and waiting for the other): seen on three
  /// 10 ms slices in a row, it is ended here, as a cycle on this thread is, by passing over
  /// `input`, reported. This node is still linked to it; its holder subscribes it.
  ///
  /// Passed over only when that is sure: `input` is not being refreshed (no thread is named
  /// by `refreshingThread`), so its holder, which is waiting in a subscription, holds it on
  /// that subscription's stack (a refresh releases each node it settles, and the root of a
  /// settled read is kept only to be read or subscribed), and links it before releasing it.
  /// An input being refreshed by its holder may end its refresh unlinked: a check that
  /// settles it leaves it unlinked (it had no subscriber then), and a computation that ends
  /// before this node is linked to it (its holder passed over a value too) drops its links.
  /// Such an input is waited for while another wait of the cycle can be ended that way; in a
  /// cycle where none can, it is passed over all the same (a hang would be worse) and the
  /// report says that its changes may not reach this node until it is subscribed again.
  @inline(never)
  private func lockContendedInputUnlessCycle(_ input: DerivedNode) -> Bool {
    let thread = Self.currentThread
    if input.refreshingThread.load(ordering: .relaxed) == thread { return false }
    var held: [WaitTarget] = []
    var onStack: Unmanaged<DerivedNode>? = .passUnretained(self)
    while let node = onStack {
      if node.toOpaque() == Unmanaged.passUnretained(input).toOpaque() { return false }
      held.append(.derivedValue(node))
      onStack = node._withUnsafeGuaranteedRef { $0.stackParent }
    }
    let graph = WaitForGraph.shared
    graph.beginWaitUnconditionally(
      thread, for: .derivedValue(.passUnretained(input)), holding: held)
    var sightings = 0
    while !input.computeLock.acquireOrWait(milliseconds: 10) {
      // Unnamed: held and not refreshed (see above). The cycle is seen the same way by every
      // thread in it, so one whose input is unnamed, if any, ends it.
      guard let cycle = graph.unconditionalCycle(through: thread),
        cycle.ownTargetIsUnnamed || !cycle.someTargetIsUnnamed
      else {
        sightings = 0
        continue
      }
      sightings += 1
      if sightings == 3 {
        graph.endWaits(of: [thread])
        reportSubscriptionCycle(passingOver: input, mayMissChanges: !cycle.ownTargetIsUnnamed)
        return false
      }
    }
    graph.endWaits(of: [thread])
    return true
  }

  /// Out of line, so building the message costs the subscription nothing.
  @inline(never)
  private func reportSubscriptionCycle(passingOver input: DerivedNode, mayMissChanges: Bool) {
    let consequence =
      mayMissChanges
      ? "; it is being refreshed there and may stay unsubscribed, so changes of its inputs may "
        + "not reach \(name) until it is read again"
      : ", which that thread subscribes"
    ObservationDiagnostics.report(
      "A cycle through derived values was subscribed on several threads at once: \(name) "
        + "reads \(input.name), held by another thread that waits for a value this thread "
        + "holds. \(name) is subscribed without waiting for \(input.name)\(consequence). To fix: "
        + "remove the read of \(name) from the derivation of \(input.name) (directly or "
        + "through other derived values)"
    )
  }

  /// Under the graph lock, for an abandoned node: whether an input it is linked to changed
  /// since it was read. Without upstream links nothing could tell it of a change: true, so
  /// a dependent is not left waiting for nothing — unless its last computation read no
  /// input at all (a constant), which can never change: as a computed property that reads
  /// nothing observable, it leaves nothing to wait for.
  final func linkedInputChanged() -> Bool {
    guard var link = firstDependency else {
      return !abandonedReadingNothing.load(ordering: .acquiring)
    }
    while true {
      if link.pointee.sourceNode._withUnsafeGuaranteedRef({
        $0.changedSince(link.pointee.version)
      }) {
        return true
      }
      guard let next = link.pointee.nextDependency else { return false }
      link = next
    }
  }

  /// Under the graph lock, for an abandoned node: whether it read an input while another
  /// thread's write of it was in flight, that write's `didSet` walk not having come yet. The
  /// input's version is still the odd one read, or one more (stored, the walk about to take
  /// the lock): a later write, or that walk, would have passed through this node to its
  /// subscribers. (A write on this thread: the value is released from inside it, where the
  /// toolchain counts a read as one made before the write.)
  final func readInputDuringAWriteInFlight() -> Bool {
    var link = firstDependency
    while let edge = link {
      link = edge.pointee.nextDependency
      guard edge.pointee.previousSubscriber != edge else { continue }
      let read = edge.pointee.version
      guard read & 1 == 1 else { continue }
      let inFlight = edge.pointee.sourceNode._withUnsafeGuaranteedRef {
        $0.version.load(ordering: .sequentiallyConsistent) &- read <= 1
          && $0.mutatingThread.load(ordering: .relaxed) != TrackingScope.currentThreadIdentity
      }
      if inFlight { return true }
    }
    return false
  }

  /// Links the inputs of the last computation unless another subscriber already did.
  private func linkInputsIfUnlinked() {
    GraphLock.withLock {
      guard isUnlinked.load(ordering: .relaxed) else { return }
      linkInputs()
    }
  }

  /// Under the graph lock: links the inputs of the last computation and checks their
  /// versions (links are published first, pairing with writers' version increments).
  private func linkInputs() {
    for input in inputs.inputs {
      input.source._withUnsafeGuaranteedRef { source in
        if !source.isDetached { ReactiveNode.link(source, to: self, version: input.version) }
      }
    }
    isUnlinked.store(false, ordering: .releasing)
    ReactiveNode.fenceAfterLinking(to: inputs.inputs)
    let changed = inputs.inputs.contains { input in
      input.source._withUnsafeGuaranteedRef { $0.changedSince(input.version) }
    }
    // Changed: marked as a walk would have marked it, so a refresh that relinked it while
    // computing (a subscriber arrived) does not publish the value it computed as current.
    // Unchanged inside that refresh: left stale for the refresh's own publication. Marked
    // current here, a write landing before that publication would find it current, mark it
    // stale with a plain store and walk on, and the publication's compare-exchange from
    // `stale` would then succeed with the value from before the write.
    let insideRefresh = refreshingThread.load(ordering: .relaxed) == Self.currentThread
    freshness.store(
      changed ? Self.stale | Self.changedWhileLocked : insideRefresh ? Self.stale : 0,
      ordering: .sequentiallyConsistent)
    if !changed && !insideRefresh { publishCurrent(replacing: 0) }
  }
}
