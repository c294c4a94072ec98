import CReactiveState

/// Linking a one-shot registration into the graph (shared by the plain and event forms).
enum OneShotInstallation {
  /// Install passes, for de-duplicating slots (guarded by the graph lock).
  nonisolated(unsafe) private static var pass: UInt64 = 0

  /// Links `observer` to every live slot of `list` in one critical section. When a recorded
  /// slot changed after it was read, the registration ends at once (`finish` runs under the
  /// lock, every link is removed) and that slot is returned for the caller to report — unless
  /// `mutationsEnd` is false (an observer that listens for deallocations only, which no
  /// mutation ends).
  ///
  /// The caller retains `observer` once for the registration before calling. `linked` says
  /// whether the registration now holds that retain (it is dropped when the observer fires
  /// or its objects go away); otherwise the caller releases it.
  static func install(
    _ list: AccessList, _ observer: ReactiveNode, mutationsEnd: Bool = true, finish: () -> Void
  ) -> (linked: Bool, missed: SourceNode?) {
    GraphLock.lock()
    defer { GraphLock.unlock() }
    let missed = link(list, to: observer, comparingVersions: mutationsEnd)
    if missed != nil {
      finish()
      observer.unlinkAllDependencies()
    }
    return (observer.firstDependency != nil, missed)
  }

  /// Under the graph lock: links `observer` to every live slot of `list`, then returns the
  /// first slot that changed after it was read (nil when none did, or when not
  /// `comparingVersions`).
  ///
  /// Links are published (subscriber counts raised) before versions are compared, and a
  /// writer bumps the version before reading the count: one of the two sides sees the other.
  private static func link(
    _ list: AccessList, to observer: ReactiveNode, comparingVersions: Bool
  ) -> SourceNode? {
    startPass()
    for entry in list.entries {
      entry.source._withUnsafeGuaranteedRef { source in
        if let abandoned = abandonedDerivedValue(source) {
          // Nothing keeps it alive once the list lets go: the registration listens to its
          // inputs, at the versions it read them (its value never changes again).
          linkInputs(of: abandoned, to: observer)
        } else {
          linkOnce(source, to: observer, version: entry.version)
        }
      }
    }
    guard comparingVersions else { return nil }
    ReactiveNode.fenceAfterLinking(to: list.entries)
    for entry in list.entries
    where entry.source._withUnsafeGuaranteedRef({ missedChange(of: $0, readAt: entry.version) }) {
      return entry.source.takeUnretainedValue()
    }
    return nil
  }

  /// Under the graph lock, as the abandoned derived value `node` goes away: each pending
  /// one-shot registration over it — directly, or through other abandoned values — listens
  /// to its inputs instead, at the versions it read them: a later change of those still
  /// reaches it, as a change of what a computed property reads reaches the toolchain's
  /// registrations. A change announced before this passed on through the value and has fired
  /// it already. When the value read an input while another thread's write of it was in
  /// flight, that write's `didSet` would have reached the registration through the value: the
  /// registration ends now and is queued in `missed`, as a change found at installation is
  /// (see ``ReactiveNode/missesChangeInFlight()``); an event registration instead takes the
  /// `didSet` through the links that replace the value (see
  /// ``ReactiveNode/linkedInputInPlaceOfDerivedValue(_:)``), so it still comes after the
  /// store (the replacing links are counted before the value's go, so the write, reading
  /// its listener count, always finds one of them). The value's departure then reaches the
  /// others as usual (``ReactiveNode/derivedValueWillDeinitialize(_:objectsGone:)``):
  /// a registration ends there only when it has nothing else to listen to.
  static func handOverSubscribers(of node: DerivedNode, missed: inout DeliveryQueue) {
    let inFlight = node.readInputDuringAWriteInFlight()
    var next = node.firstSubscriber
    while let link = next {
      next = link.pointee.nextSubscriber
      GraphLockPins.pin(link.pointee.subscriberNode)
      link.pointee.subscriberNode._withUnsafeGuaranteedRef { subscriber in
        guard subscriber.takesOverInputsOfDepartingDerivedValue() else { return }
        defer { subscriber.finishTakingOverInputs() }
        if inFlight && subscriber.missesChangeInFlight() { return missed.append(subscriber) }
        markLinkedSources(of: subscriber)
        linkInputs(of: node, to: subscriber)
      }
    }
  }

  /// The registration whose linked sources carry the current `pass` (graph lock): handovers
  /// to it one after another — the values it read, released together — mark its links once.
  /// The marks stay exact while nothing else takes a pass: a waiting one-shot gains links only
  /// at installation and handover, which mark them (or call ``forgetMarkedLinks()``), and
  /// loses them only as their sources go.
  nonisolated(unsafe) private static var markedSubscriber: UnsafeMutableRawPointer?

  /// Under the graph lock: marks every source `subscriber` is linked to with a new pass
  /// (unless they carry the current one already), so adopting an input links it only once.
  private static func markLinkedSources(of subscriber: ReactiveNode) {
    let identity = Unmanaged.passUnretained(subscriber).toOpaque()
    // A derived subscriber's links also go as it lingers: marked anew every time.
    if !subscriber.isDerived && markedSubscriber == identity { return }
    startPass()
    if !subscriber.isDerived { markedSubscriber = identity }
    var link = subscriber.firstDependency
    while let edge = link {
      link = edge.pointee.nextDependency
      guard edge.pointee.previousSubscriber != edge else { continue }
      edge.pointee.sourceNode._withUnsafeGuaranteedRef { $0.installMark = pass }
    }
  }

  /// Under the graph lock: a registration gained a link that carries no mark.
  static func forgetMarkedLinks() { markedSubscriber = nil }

  /// Under the graph lock: a new pass, which no source carries yet.
  private static func startPass() {
    pass &+= 1
    markedSubscriber = nil
  }

  /// Under the graph lock: links `observer` to the live inputs `node` is linked to, at the
  /// versions it read them, skipping sources already linked in this pass.
  private static func linkInputs(of node: DerivedNode, to observer: ReactiveNode) {
    var input = node.firstDependency
    while let edge = input {
      input = edge.pointee.nextDependency
      // A link detached from its source's side may name a freed source.
      guard edge.pointee.previousSubscriber != edge else { continue }
      edge.pointee.sourceNode._withUnsafeGuaranteedRef {
        if let link = linkOnce($0, to: observer, version: edge.pointee.version) {
          observer.linkedInputInPlaceOfDerivedValue(link)
        }
      }
    }
  }

  /// Under the graph lock: links `source` to `observer` unless it is gone or was linked in
  /// this pass; returns the new link.
  @discardableResult
  private static func linkOnce(_ source: SourceNode, to observer: ReactiveNode, version: UInt64)
    -> LinkPointer?
  {
    guard source.installMark != pass, !source.isDetached else { return nil }
    source.installMark = pass
    return ReactiveNode.link(source, to: observer, version: version)
  }

  /// Whether `source` changed after it was read at `version` (graph lock).
  private static func missedChange(of source: SourceNode, readAt version: UInt64) -> Bool {
    // A derived value its owner let go of after the read (a `Computed` made inside `apply`)
    // moved its version then, which is no change of its inputs: those are checked instead.
    guard let abandoned = abandonedDerivedValue(source) else {
      return source.changedSince(version)
    }
    return abandoned.linkedInputChanged()
  }

  /// `source` if it is a derived value whose owner let go of it (graph lock).
  private static func abandonedDerivedValue(_ source: SourceNode) -> DerivedNode? {
    guard source.isDerived else { return nil }
    let derived = unsafeDowncast(source, to: DerivedNode.self)
    return derived.passesChangesOn.load(ordering: .relaxed) ? derived : nil
  }
}
