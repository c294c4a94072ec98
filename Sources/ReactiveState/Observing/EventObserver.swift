import CReactiveState
import Synchronization

/// The registration behind `withObservationTracking(options:_:onChange:)`.
///
/// One-shot per mutation: the first mutation of a tracked property delivers its `.willSet`
/// and/or `.didSet` event (as requested), then the registration ends. `.deinit` events are
/// delivered for tracked objects deallocated while it is active; with only `.deinit`
/// requested it stays until the last tracked object is gone. `event.cancel()` ends it at
/// once (a `.didSet` paired with a cancelled `.willSet` is not delivered).
///
/// Which `didSet` ends the mutation: one on the mutating thread, past as many as writes of
/// the property that thread began meanwhile (from the mutation's `willSet` callbacks, say);
/// or one on another thread that leaves the property's version even, after the mutation's
/// `willSet` callback returned (a write that announces itself only at its end delivers its
/// `willSet` with its version even already) — a `registrar.didSet` may end its `willSet` on
/// another thread, after a suspension. One other thread's write that overlaps the mutation
/// leaves the version odd while the mutation is in flight, so its `didSet` never stands in
/// for the mutation's. Not told apart, as the version counts moves rather than writes in
/// flight: with three writes of one property overlapping on three threads, one's `didSet`
/// can end the mutation before its store; and a pair that ends on another thread while its
/// thread began another write of the property meanwhile leaves the registration waiting for
/// a `didSet` from another thread.
final class EventObserver: ReactiveNode, EventCanceller, @unchecked Sendable {
  private let options: ObservationTracking.Options
  /// Whether `.willSet` or `.didSet` was requested: with only `.deinit`, a mutation is no
  /// event and does not end the registration.
  private let mutationsAreEvents: Bool
  private let onChange: @Sendable (ObservationTracking.Event) -> Void
  /// Guarded by the graph lock.
  @exclusivity(unchecked) private var isFinished = false
  /// The property whose mutation is being delivered (between its willSet and didSet), also
  /// when the registration heard of it through a derived value. Identity only (never
  /// dereferenced or retained).
  @exclusivity(unchecked) private var mutatingSlot: UnsafeMutableRawPointer?
  /// The thread making that mutation (its thread-local state's address).
  @exclusivity(unchecked) private var mutatingThread: UnsafeMutableRawPointer?
  /// Writes of the mutating property made on the mutating thread between its `willSet` and
  /// `didSet` (from a callback of this mutation's `willSet`): as many `didSet`s there to pass
  /// over before the one that ends the mutation.
  @exclusivity(unchecked) private var nestedWrites = 0
  /// Armed inside a write of a property it read that announces itself only at its end (see
  /// ``adoptWriteInFlight(_:)``): that write's late `willSet`, still to come on the mutating
  /// thread, came before this registration and is passed over — a `withMutation` write
  /// begins and ends on one thread, so a `willSet` from another thread meanwhile is a write
  /// of its own (graph lock).
  @exclusivity(unchecked) private var awaitsLateWillSet = false
  /// Between the `receive` that queued the `.willSet` callback and that callback's return:
  /// another thread's `didSet` must not be delivered before it (see the type).
  private let willSetCallbackPending = Atomic<Bool>(false)
  /// The thread that armed this registration.
  private let armingThread = TrackingScope.currentThreadIdentity
  /// Set (under the lock, once) by the `receive` that finished the registration: a delivery
  /// drops the registration's +1 — whichever takes the flag first, as deliveries on several
  /// threads may be in flight at once (each holds the observer while it runs).
  private let deliveryOwesRelease = Atomic<Bool>(false)
  /// The ``ChangePropagation/detachPass`` in which a `.deinitialized` delivery was last
  /// queued (graph lock).
  @exclusivity(unchecked) private var deinitQueuedPass: UInt64 = 0
  /// The deallocation passes this registration reported a `.deinit` for (graph lock).
  @exclusivity(unchecked) private var reportedPasses = DeallocationPasses()
  /// Links to inputs of derived values this registration read, made when those values went
  /// (graph lock): a `didSet` through one of them is taken as through the value (see the
  /// `.didSet` case of ``receive(_:from:)``). Usually empty.
  @exclusivity(unchecked) private var linksInPlaceOfDerivedValues: [LinkPointer] = []

  private init(
    options: ObservationTracking.Options,
    onChange: @escaping @Sendable (ObservationTracking.Event) -> Void
  ) {
    self.options = options
    mutationsAreEvents = !options.isDisjoint(with: [.willSet, .didSet])
    self.onChange = onChange
    // The willSet edge marks which mutation is being delivered, even when only its didSet
    // is requested; with only `.deinit`, mutations are not listened to at all.
    super.init(
      interest: mutationsAreEvents ? [.willSet, .didSet] : [], mayHaveConcurrentDeliveries: true)
  }

  static func install(
    _ list: AccessList, options: ObservationTracking.Options,
    onChange: @escaping @Sendable (ObservationTracking.Event) -> Void
  ) {
    // Armed inside a write of what it read that announces itself only at its end: its
    // `willSet` came before this registration (see `OwnWriteDeferral`).
    if OwnWriteDeferral.defers(list, options: options, onChange: onChange) { return }
    let observer = EventObserver(options: options, onChange: onChange)
    if options.contains(.didSet) { observer.adoptWriteInFlight(list) }
    let registration = Unmanaged.passRetained(observer)
    let (linked, missed) = OneShotInstallation.install(
      list, observer, mutationsEnd: observer.mutationsAreEvents
    ) {
      observer.isFinished = true
    }
    if !linked { registration.release() }
    if let missed {
      // The change landed between the read and the install: report it as already stored.
      let kind: ObservationTracking.Event.Kind = options.contains(.didSet) ? .didSet : .willSet
      onChange(
        ObservationTracking.Event(kind: kind, keyPath: missed.changeKeyPath, canceller: nil))
    }
  }

  /// Under the lock: ends the registration for the delivery about to be queued, which (or
  /// another one in flight) then drops the registration's +1.
  private func finishForDelivery() {
    if finish() { deliveryOwesRelease.store(true, ordering: .releasing) }
  }

  /// Before linking: when this thread is inside a write of a property `list` read (between
  /// its `willSet` and `didSet`), the registration takes that write as the mutation being
  /// delivered, as the toolchain's registrar does with a registration installed during a
  /// write: its `didSet` is delivered, its `willSet` (already past) is not.
  private func adoptWriteInFlight(_ list: AccessList) {
    let unannounced = OwnWriteDeferral.unannouncedWritesInFlight()
    let me = TrackingScope.currentThreadIdentity
    for entry in list.entries {
      let source = entry.source
      let (isDerived, announced) = source._withUnsafeGuaranteedRef {
        (
          $0.isDerived,
          $0.version.load(ordering: .relaxed) & 1 == 1
            && $0.mutatingThread.load(ordering: .relaxed) == me
        )
      }
      guard !isDerived else { continue }
      let isUnannounced = unannounced.contains(source.toOpaque())
      guard announced || isUnannounced else { continue }
      mutatingSlot = source.toOpaque()
      mutatingThread = UnsafeMutableRawPointer(rs_current_thread())
      awaitsLateWillSet = isUnannounced
      return
    }
  }

  /// Under the lock: ends the registration; true when this call did it.
  private func finish() -> Bool {
    guard !isFinished else { return false }
    isFinished = true
    mutatingSlot = nil
    mutatingThread = nil
    nestedWrites = 0
    awaitsLateWillSet = false
    linksInPlaceOfDerivedValues = []
    unlinkAllDependencies()
    return true
  }

  override func receive(_ event: SourceEvent, from link: LinkPointer) -> Bool {
    guard !isFinished else { return false }
    let source = link.pointee.sourceNode.toOpaque()
    switch event {
    case .willSet:
      // With only `.deinit` requested, mutations are not events.
      guard mutatingSlot == nil, mutationsAreEvents else {
        guard mutatingSlot == source,
          mutatingThread == UnsafeMutableRawPointer(rs_current_thread())
        else { return false }
        if awaitsLateWillSet {
          awaitsLateWillSet = false
        } else {
          nestedWrites += 1
        }
        return false
      }
      if !options.contains(.didSet) {
        finishForDelivery()
        return true
      }
      mutatingSlot =
        link.pointee.sourceNode._withUnsafeGuaranteedRef({ $0.isDerived })
        ? listenToWrittenProperty() : source
      mutatingThread = UnsafeMutableRawPointer(rs_current_thread())
      // Its `didSet` must reach the registration: a walk that reached it earlier, while it
      // waited for nothing, may have marked the source as walked (see the `.didSet` case).
      ObservationWave.advance()
      guard options.contains(.willSet) else { return false }
      willSetCallbackPending.store(true, ordering: .relaxed)
      return true
    case .didSet:
      // Also a derived value's `didSet` for a change whose `willSet` this registration missed
      // (it linked while the write was in flight, after the `willSet` walk): delivered late
      // rather than lost, as for one-shot registrations. So is one through a link that took
      // the place of such a value when it went during that write.
      if mutatingSlot != nil {
        guard mutatingSlot == source, endsMutation(link) else {
          // Another property's `didSet`, or another write's: this walk reached a
          // registration still waiting for its own, so it must not mark its source as walked
          // (which lets the `didSet` it waits for skip its walk).
          ObservationWave.advance()
          return false
        }
      } else {
        guard mutationsAreEvents, standsForDerivedValue(link) else { return false }
      }
      finishForDelivery()
      return true
    case .deinitialized:
      return false
    }
  }

  /// A `didSet` of the mutating property (graph lock): whether it ends the mutation (see the
  /// type).
  private func endsMutation(_ link: LinkPointer) -> Bool {
    guard mutatingThread == UnsafeMutableRawPointer(rs_current_thread()) else {
      return !willSetCallbackPending.load(ordering: .acquiring)
        && link.pointee.sourceNode._withUnsafeGuaranteedRef {
          $0.version.load(ordering: .sequentiallyConsistent) & 1 == 0
        }
    }
    guard nestedWrites == 0 else {
      nestedWrites -= 1
      return false
    }
    return true
  }

  override func passesOverEnclosingWrite(_ link: LinkPointer) -> Bool {
    guard !isFinished, mutationsAreEvents, mutatingSlot == nil,
      armingThread == TrackingScope.currentThreadIdentity
    else { return false }
    // Armed inside the write: its `willSet` came before. With `.didSet` requested, the write
    // is the mutation delivered, as a write found in flight at installation is (see
    // ``adoptWriteInFlight(_:)``), and its `didSet` walk must reach here (see `receive`).
    if options.contains(.didSet) {
      mutatingSlot = link.pointee.sourceNode.toOpaque()
      mutatingThread = UnsafeMutableRawPointer(rs_current_thread())
      ObservationWave.advance()
    }
    return true
  }

  /// Whether `link` is to a derived value, or to an input of one that went, in its place.
  private func standsForDerivedValue(_ link: LinkPointer) -> Bool {
    link.pointee.sourceNode._withUnsafeGuaranteedRef { $0.isDerived }
      || linksInPlaceOfDerivedValues.contains(link)
  }

  override func linkedInputInPlaceOfDerivedValue(_ link: LinkPointer) {
    linksInPlaceOfDerivedValues.append(link)
  }

  /// A `willSet` that came through a derived value (graph lock): its `didSet` may find no
  /// path back here — a `didSet` walk stops at a derived value that another thread's change
  /// already made stale, and such a change can also switch the derived value's dependencies
  /// away from the written property — so the registration listens to that property itself
  /// (the walk's root) until it ends. Returns that property, the mutation to wait for.
  private func listenToWrittenProperty() -> UnsafeMutableRawPointer {
    let written = ChangePropagation.walkRoot.unsafelyUnwrapped
    written._withUnsafeGuaranteedRef { property in
      var link = firstDependency
      while let edge = link {
        if edge.refers(to: property) { return }
        link = edge.pointee.nextDependency
      }
      ReactiveNode.link(property, to: self, version: property.version.load(ordering: .relaxed))
      OneShotInstallation.forgetMarkedLinks()
    }
    return written.toOpaque()
  }

  override func takesOverInputsOfDepartingDerivedValue() -> Bool { !isFinished }

  override func sourceWillDeinitialize(_ link: LinkPointer) -> Bool {
    guard !isFinished else { return false }
    // The link is removed next and its record may be reused for another link.
    if !linksInPlaceOfDerivedValues.isEmpty { linksInPlaceOfDerivedValues.removeAll { $0 == link } }
    if firstDependency == link && lastDependency == link {
      finishForDelivery()
    } else if !options.contains(.deinit) {
      return false
    }
    return queueDeinitOncePerObject()
  }

  override func derivedValueWillDeinitialize(_ link: LinkPointer, objectsGone: DeallocationPasses)
    -> DerivedValueDeparture
  {
    guard !isFinished else { return .none }
    // The value itself is no observed object. Objects read through it that went before it
    // went unheard here (the registration was linked to the value, not to them), unless it
    // reported their deallocation pass already (one also read directly, say): one `.deinit`
    // stands for the passes not reported yet.
    let unreported = objectsGone.subtracting(reportedPasses)
    let reports = options.contains(.deinit) && !unreported.isEmpty
    if reports { for pass in unreported { reportedPasses.insert(pass) } }
    guard firstDependency == link && lastDependency == link else {
      return reports ? .deallocation : .none
    }
    finishForDelivery()
    return reports ? .deallocation : .silentEnd
  }

  /// Under the lock: whether to queue a `.deinit` delivery for the object being detached —
  /// once, however many of its properties this registration reaches (queueing twice would
  /// deliver `.deinit` twice and unbalance the queue's retains).
  private func queueDeinitOncePerObject() -> Bool {
    guard deinitQueuedPass != ChangePropagation.detachPass else { return false }
    deinitQueuedPass = ChangePropagation.detachPass
    reportedPasses.insert(deinitQueuedPass)
    return true
  }

  override func deliver(_ event: SourceEvent, from source: SourceNode) {
    let kind: ObservationTracking.Event.Kind
    let requested: Bool
    switch event {
    case .willSet: (kind, requested) = (.willSet, options.contains(.willSet))
    case .didSet:
      // Without `.didSet` requested, a `didSet` reaches here only for a change whose
      // `willSet` was missed (see `receive`): it is reported as that `willSet`, late.
      (kind, requested) =
        options.contains(.didSet) ? (.didSet, true) : (.willSet, options.contains(.willSet))
    case .deinitialized:
      // The stand-in for a derived value that went and left nothing to report: the
      // registration just ends.
      let isEvent = source !== DependencyLink.silentlyDepartedSource
      (kind, requested) = (.deinit, isEvent && options.contains(.deinit))
    }
    if requested {
      let keyPath = kind == .deinit ? nil : source.changeKeyPath
      onChange(ObservationTracking.Event(kind: kind, keyPath: keyPath, canceller: self))
    }
    if event == .willSet { willSetCallbackPending.store(false, ordering: .releasing) }
    if deliveryOwesRelease.exchange(false, ordering: .acquiringAndReleasing) {
      Unmanaged.passUnretained(self).release()
    }
  }

  func cancelObservation() {
    let released = GraphLock.withLock { finish() }
    if released { Unmanaged.passUnretained(self).release() }
  }
}
