import CReactiveState
import Synchronization

/// The node behind ``observe(scheduler:fileID:line:_:)`` and
/// ``withContinuousObservation(options:scheduler:fileID:line:apply:)``: runs its body now and
/// again after every change to anything the previous run read.
///
/// Dependencies are re-collected on every run with a cursor over the previous run's links:
/// a read that matches the next old link costs a compare and a store (no lock, no
/// allocation); a new read splices a link in under the graph lock; links the run did not
/// reach are removed at its end. Nobody else changes a running observer's dependency list:
/// a source deallocated meanwhile is only detached from its own side.
///
/// Lifetime: whoever starts a run keeps the observer alive for it — a scheduler's closure, the
/// delivery queue's retain for a queued run — except a run that `receive` starts on the
/// mutating thread, which takes no retain: the observer's owner (its token) cancels before
/// letting go, and a cancellation that finds a run in progress retains the observer for it;
/// the run releases that retain when it ends.
///
/// State: idle → queued (a change arrived) → running → idle, or cancelled from anywhere;
/// every transition is made under the graph lock except a clean run's end (see `state`). A
/// change that arrives while running marks the run dirty and the run repeats; after
/// ``rerunLimit`` runs in a row that changed what they read themselves, it stops with a
/// diagnostic naming the key path that kept invalidating it. The transitions a change or a
/// cancellation makes are in `ContinuousObserver+Changes.swift`.
///
/// An observer with a plain body, `didSet` triggers and no scheduler whose run read exactly
/// one property (and has no links) parks in that property's slot instead (phase `parked`,
/// see `ContinuousObserver+Parking.swift`): the write it waits for runs it with no graph lock.
final class ContinuousObserver: ReactiveNode, EventCanceller, @unchecked Sendable {
  /// What runs: a plain closure (`observe`) or one that receives events.
  enum Body {
    case plain(@Sendable () -> Void)
    case events(@Sendable (ObservationTracking.Event) -> Void)
  }

  enum Phase: UInt8 { case idle, queued, running, cancelled, parked }

  /// Consecutive self-invalidating re-runs allowed before the observer gives up.
  static let rerunLimit = 100

  // Layout: declaration is storage order. What a change touches (walk, delivery, run) comes
  // first, on as few cache lines as it fits; scheduling, parking and the rest follow.
  /// The body is isolated to the main actor: it runs inline only on the main thread, and
  /// through `scheduler` (the main actor's) from anywhere else (see ``deliversInline``).
  let runsOnMainActor: Bool
  /// Whether runs may park the observer in a property's slot (see the type's doc).
  let parksInSlots: Bool
  /// A plain body, `didSet` triggers, no scheduler: `receive` starts such a run itself.
  let startsDidSetRunsAtReceive: Bool
  /// The same for a main-actor body, when the change comes on the main thread.
  let startsMainThreadDidSetRunsAtReceive: Bool

  /// The phase, plus a "dirty while running" bit, in one atomic word. The graph lock guards
  /// every transition but one: the clean end of a run (running → idle), which the running
  /// thread makes with a compare-exchange and no lock. So whoever may meet a running
  /// observer under the lock (a change arriving, a cancellation) changes the word with an
  /// atomic read-modify-write, never a plain store.
  let state = Atomic<UInt8>(Phase.idle.rawValue)
  static let dirtyBit: UInt8 = 0x80

  /// The current phase (graph lock, or the running thread).
  var phase: Phase {
    // Acquiring: a phase a run's lock-free end published (idle) brings along everything
    // that run wrote.
    get { Phase(rawValue: state.load(ordering: .acquiring) & ~Self.dirtyBit).unsafelyUnwrapped }
    // Under the graph lock, from a phase no lock-free transition leaves; clears the dirty bit.
    set { state.store(newValue.rawValue, ordering: .relaxed) }
  }

  /// Whether a change arrived while the body ran (graph lock).
  var dirtyWhileRunning: Bool { state.load(ordering: .acquiring) & Self.dirtyBit != 0 }
  /// Whether `eventBody` is set: stored, so a run need not load the cold closure to know.
  let hasEventBody: Bool
  /// Whether the current run has read at most one source so far, a property recorded in
  /// `singleSource` (with `singleVersion`) and not linked: a run that starts with no links in
  /// an observer that parks (owned by the running thread).
  @exclusivity(unchecked) var readsSingleSource = false
  /// Set by the `receive` that moved idle → running for a synchronous delivery (no
  /// scheduler, no open transaction on the mutating thread); read by its own `deliver` on
  /// the same thread, which then runs without taking the lock again.
  @exclusivity(unchecked) var startedByReceive = false
  /// The event of the run `receive` started: its kind, key path (below) and certainty (as
  /// `pendingIsCertain`).
  @exclusivity(unchecked) var startKind = ObservationTracking.Event.Kind.initial
  @exclusivity(unchecked) var startIsCertain = false
  /// The ``ChangePropagation/currentPass`` in which `receive` (or a main-thread takeover) last
  /// started a run (graph lock): a walk that reaches the observer twice runs it once.
  @exclusivity(unchecked) var startPass: UInt64 = 0
  /// Whether a change that marked the current run dirty came from the thread running its
  /// body: only such re-runs count toward ``rerunLimit``. Written by that thread alone (in
  /// `enqueue`, under the graph lock, and cleared as each run's body starts).
  @exclusivity(unchecked) var dirtiedByOwnThread = false
  /// Whether the current run's own thread deallocated an object the run read (a `.deinit`
  /// change, with `dirtiedByOwnThread`): the run changed what it read, as a write does, and
  /// counts toward ``rerunLimit``. Same thread and lifetime as `dirtiedByOwnThread`.
  @exclusivity(unchecked) var deallocatedWhatItRead = false
  /// Whether the last body run wrote the property the observer parks on (running thread).
  @exclusivity(unchecked) var runWroteParkingSlot = false
  /// Set by ``cancelObservation()``; read without the lock by a delivery whose run `receive`
  /// already started, so a cancel between the two (e.g. by another observer of the same
  /// change) keeps the body from starting after `cancel()` returned.
  let cancelRequested = Atomic<Bool>(false)
  /// The last link confirmed by the current run (owned by the running thread).
  @exclusivity(unchecked) var cursor: LinkPointer?
  /// The plain body (a no-op for an event body); kept apart from `eventBody` so a plain
  /// re-run calls a stored closure without copying it out of an enum.
  let plainBody: @Sendable () -> Void
  @exclusivity(unchecked) var startKeyPath: AnyKeyPath?
  /// The property a run reading singly read (see ``readsSingleSource``).
  @exclusivity(unchecked) var singleSource: Unmanaged<PropertySlot>?
  /// The thread running the body (its `rs_current_thread()` address), 0 outside the body:
  /// a change that arrives from that thread while the body runs is the run's own doing.
  let bodyThread = Atomic<UInt>(0)
  /// The derived values the last run read, in order, with the versions it saw, retained
  /// (owned by the running thread, or under the graph lock while idle): ``inputsChanged()``
  /// pulls them with no lock. A run that reads the same ones again swaps no reference counts.
  @exclusivity(unchecked) var derivedInputs = InputList()

  // Colder: the paths with a scheduler, a transaction, parking or a cancellation.
  let eventBody: (@Sendable (ObservationTracking.Event) -> Void)?
  private let triggers: ObservationTracking.Options
  let scheduler: (any ObservationScheduler)?
  /// `scheduler` when it parks whole observers (no closure per delivery): an ``ObservedValues``
  /// iteration's parking lot, or the parking passed to `init`; unretained (`scheduler` holds it).
  let parking: Unmanaged<ObserverParking>?
  let hasScheduler: Bool
  /// Every re-run goes through the scheduler, which parks it for its owner (the view graph's
  /// update pass): transactions do not run it at their end, and a change made by the run
  /// itself queues a new run instead of repeating the body inline.
  let parksRuns: Bool
  let label: String
  /// Where the observation was started (see ``name``).
  let site: ObserverSite
  @exclusivity(unchecked) var singleVersion: UInt64 = 0
  /// The slot the observer parks in, retained so its word outlives the observer's use of it
  /// even when its registrar goes (written under the graph lock by the running thread, so a
  /// cancellation can read it there).
  @exclusivity(unchecked) var parkingSlot: PropertySlot?
  /// Whether the observer holds its place in `parkingSlot`'s word (owned by the running
  /// thread).
  @exclusivity(unchecked) var parkingIsEstablished = false
  /// Whether the current run removed the observer from its parking word, whose retain it
  /// then releases when it ends (owned by the running thread).
  @exclusivity(unchecked) var owesWordRelease = false

  /// Whether the runs so far ended idle having read nothing (no link, no parking place, no
  /// derived input): then no change can ever reach the observer again. Asked by the thread that
  /// started it, before anyone else can reach it.
  var readNothing: Bool {
    phase == .idle && firstDependency == nil && derivedInputs.count == 0
  }

  // Guarded by the graph lock.
  @exclusivity(unchecked) var pendingKind = ObservationTracking.Event.Kind.initial
  /// The key path of the latest change: kept for event bodies and for the diagnostic of a
  /// self-invalidating run (resolved only then, to keep plain re-runs free of retains).
  @exclusivity(unchecked) var pendingKeyPath: AnyKeyPath?
  /// Whether the pending change certainly affects this observer (a property changed), as
  /// opposed to "a derived value it read may have changed" — then the run first pulls those
  /// derived values and is skipped when none of them actually changed (equality cut-off).
  @exclusivity(unchecked) var pendingIsCertain = false
  /// Whether the observer waits in a transaction's queue, which holds no retain of it
  /// (graph lock): a cancellation meanwhile retains it for the queue
  /// (`transactionHoldsRetain`), and ``runPostponed(_:)`` releases that.
  @exclusivity(unchecked) var isWaitingInTransaction = false
  @exclusivity(unchecked) var transactionHoldsRetain = false
  /// Link of the calling thread's transaction queue, and whether the observer is in it (see
  /// ``ObservationTransaction``; touched only by the thread whose transaction it is).
  @exclusivity(unchecked) var nextPostponed: Unmanaged<ContinuousObserver>?
  @exclusivity(unchecked) var isPostponed = false
  /// The drain that last ran the observer from a transaction queue (as `nextPostponed`).
  @exclusivity(unchecked) var drainStamp: UInt64 = 0
  /// Set by a cancellation that found a run in progress, with the retain it took for that
  /// run (graph lock); the run releases it when it ends.
  @exclusivity(unchecked) var cancellationRetainsRun = false
  /// For a queued scheduled observer: how many scheduled runs in a row led to its change, 1
  /// when the change came from outside any (graph lock). Each scheduled run happens in its
  /// own scheduler job, so observers that keep changing each other through a scheduler never
  /// re-run inline, and the rerun limit cannot stop them: past ``rerunLimit`` the change is
  /// dropped with a diagnostic instead (see ``dropSchedulingLoop()``).
  @exclusivity(unchecked) var pendingDepth: UInt64 = 0
  /// Main-actor hops scheduled for a queued run that the main thread then took over (see
  /// `ContinuousObserver+MainThreadTakeover.swift`): that many hop jobs find nothing of theirs
  /// to run (graph lock).
  @exclusivity(unchecked) var abandonedHops = 0
  /// The ``ChangePropagation/detachPass`` in which a `.deinit` event was last queued (graph
  /// lock): one event per deallocated object, however many of its properties the run read.
  @exclusivity(unchecked) private var deinitQueuedPass: UInt64 = 0

  init(
    triggers: ObservationTracking.Options, scheduler: consuming (any ObservationScheduler)?,
    label: String, site: ObserverSite = .unknown, parking: ObserverParking? = nil,
    parksRuns: Bool = false, runsOnMainActor: Bool = false, body: Body
  ) {
    switch body {
    case .plain(let run):
      plainBody = run
      eventBody = nil
      hasEventBody = false
    case .events(let run):
      plainBody = {}
      eventBody = run
      hasEventBody = true
    }
    self.triggers = triggers
    let traits = Self.traits(of: scheduler, parking: parking)
    hasScheduler = traits.present
    self.parking = traits.parking.map { .passUnretained($0) }
    self.parksRuns = parksRuns && hasScheduler
    self.runsOnMainActor = runsOnMainActor && hasScheduler
    self.label = label
    self.site = site
    if case .plain = body {
      parksInSlots = triggers == .didSet && !hasScheduler
      startsDidSetRunsAtReceive = triggers.contains(.didSet) && !hasScheduler
      startsMainThreadDidSetRunsAtReceive = triggers.contains(.didSet) && self.runsOnMainActor
    } else {
      parksInSlots = false
      startsDidSetRunsAtReceive = false
      startsMainThreadDidSetRunsAtReceive = false
    }
    self.scheduler = scheduler
    var interest: MutationInterest = []
    if triggers.contains(.willSet) { interest.insert(.willSet) }
    if triggers.contains(.didSet) { interest.insert(.didSet) }
    // A main-actor observer can sit in two delivery queues at once: another thread's change
    // queued its hop and is still delivering, and the main thread's change takes the run over
    // (see `ContinuousObserver+MainThreadTakeover.swift`). Each delivery then gets its own
    // queue entry, or the two queues would share (and cut) the observer's queue link.
    super.init(interest: interest, mayHaveConcurrentDeliveries: self.runsOnMainActor)
  }

  deinit { derivedInputs.removeAll() }

  /// Whether there is a scheduler, and `parking`, else the parking lot the scheduler is, if
  /// so. Borrowed, and stored last: each by-value use of an optional existential copies it
  /// (tens of instructions). The cast (hundreds) is made only when no parking is given.
  @inline(__always)
  private static func traits(
    of scheduler: borrowing (any ObservationScheduler)?, parking: ObserverParking?
  ) -> (present: Bool, parking: ObserverParking?) {
    guard scheduler != nil else { return (false, parking) }
    if let parking { return (true, parking) }
    return (true, copy scheduler as? ChangeParkingLot)
  }

  /// Runs the body for the first time (event kind `.initial`) on the calling thread.
  func start() {
    GraphLock.withLock {
      phase = .running
      ObservationWave.advance()
    }
    execute(kind: .initial, keyPath: nil, certain: true)
  }

  /// Runs a queued change now (delivery point: a scheduler, a parking lot, or a delivery with
  /// no transaction open; a transaction's end uses ``runPostponed(_:)``).
  func runIfQueued() {
    GraphLock.lock()
    guard phase == .queued else {
      GraphLock.unlock()
      return
    }
    runQueuedChange()
  }

  /// Under the graph lock, with a queued change: starts its run, releases the lock, runs it.
  /// A scheduled run publishes its causal depth for the changes it makes.
  func runQueuedChange() {
    phase = .running
    ObservationWave.advance()  // this run consumes the changes that queued it
    let (kind, keyPath, certain) = (pendingKind, pendingKeyPath, pendingIsCertain)
    let depth = pendingDepth
    GraphLock.unlock()
    guard depth > 0 else {
      execute(kind: kind, keyPath: keyPath, certain: certain)
      return
    }
    let thread = rs_current_thread()
    let outer = thread.pointee.scheduled_run_depth
    thread.pointee.scheduled_run_depth = depth
    execute(kind: kind, keyPath: keyPath, certain: certain)
    thread.pointee.scheduled_run_depth = outer
  }

  /// Runs the body now on the calling thread: the queued run (with its event) if a change is
  /// pending, otherwise a run with an `.initial` event (its owner needs fresh output, e.g. a
  /// view whose parent passed new inputs). The parked scheduler work of a consumed queued run
  /// finds nothing to do. No-op while running or after cancellation.
  ///
  /// Unless `force` is set, a queued run caused only by derived inputs is skipped when they
  /// recompute to equal values (the equality cut-off); `force` always runs the body.
  func runNow(force: Bool) {
    GraphLock.lock()
    let kind: ObservationTracking.Event.Kind
    let keyPath: AnyKeyPath?
    let certain: Bool
    switch phase {
    case .queued:
      kind = pendingKind
      keyPath = pendingKeyPath
      certain = force || pendingIsCertain
    case .idle:
      kind = .initial
      keyPath = nil
      certain = true
    case .running, .cancelled, .parked:
      GraphLock.unlock()
      return
    }
    phase = .running
    ObservationWave.advance()
    pendingKeyPath = nil
    GraphLock.unlock()
    execute(kind: kind, keyPath: keyPath, certain: certain)
  }

  /// The key path of the change a queued run is waiting for, if any.
  var queuedKeyPath: AnyKeyPath? {
    GraphLock.withLock { phase == .queued ? pendingKeyPath : nil }
  }

  override func receive(_ event: SourceEvent, from link: LinkPointer) -> Bool {
    // The common case without `enqueue`'s frame: a `didSet` reaching an idle plain observer
    // with no scheduler, outside any transaction — its run starts now (as `enqueue` would).
    if event == .didSet && startsDidSetRunsAtReceive && phase == .idle
      && ObservationTransaction.current == nil
    {
      startRunAtReceive(kind: .didSet, certain: Self.isCertain(link))
      return true
    }
    // Out of line, so the plain observers' path above keeps its lean frame.
    if startsMainThreadDidSetRunsAtReceive { return receiveOnMainActor(event, from: link) }
    return enqueueReceived(event, from: link)
  }

  /// ``receive(_:from:)`` for a plain main-actor body: a `didSet` on the main thread reaching
  /// it idle, outside any transaction, starts its run now, as for an observer without a
  /// scheduler.
  @inline(never)
  private func receiveOnMainActor(_ event: SourceEvent, from link: LinkPointer) -> Bool {
    if event == .didSet && rs_is_main_thread() != 0 && phase == .idle
      && ObservationTransaction.current == nil
    {
      startRunAtReceive(kind: .didSet, certain: Self.isCertain(link))
      return true
    }
    return enqueueReceived(event, from: link)
  }

  /// Whether a change through `link` certainly changed what the observer read: a property's
  /// did; a derived value's may recompute to an equal value.
  @inline(__always)
  private static func isCertain(_ link: LinkPointer) -> Bool {
    !link.pointee.sourceNode._withUnsafeGuaranteedRef { $0.isDerived }
  }

  /// The rest of ``receive(_:from:)``: a change this observer's triggers ask for is queued.
  @inline(__always)
  private func enqueueReceived(_ event: SourceEvent, from link: LinkPointer) -> Bool {
    let kind: ObservationTracking.Event.Kind
    switch event {
    case .willSet:
      guard triggers.contains(.willSet) else { return false }
      kind = .willSet
    case .didSet:
      guard triggers.contains(.didSet) else { return false }
      kind = .didSet
    case .deinitialized:
      return false
    }
    return enqueue(kind: kind, link: link, duringWalk: true)
  }

  /// Under the graph lock, as a source of `link` goes: a run in progress walks the dependency
  /// list without the lock, so only the source's side goes now; the run's end removes the
  /// rest. That holds for a run cancelled meanwhile too (phase `cancelled`, links present: a
  /// cancellation outside a run removed them already).
  private func detachDepartingSource(_ link: LinkPointer) {
    if phase == .running || phase == .cancelled { ReactiveNode.detachFromSource(link) }
  }

  override func sourceWillDeinitialize(_ link: LinkPointer) -> Bool {
    detachDepartingSource(link)
    guard triggers.contains(.deinit) else { return false }
    if deinitQueuedPass == ChangePropagation.detachPass { return false }
    deinitQueuedPass = ChangePropagation.detachPass
    return enqueue(kind: .deinit, link: nil)
  }

  override func derivedValueWillDeinitialize(_ link: LinkPointer, objectsGone: DeallocationPasses)
    -> DerivedValueDeparture
  {
    // The observer retains the derived values it reads (`derivedInputs`), so one goes only
    // once a run stopped reading it: no event, even for objects read through it that went
    // before it (this observer heard nothing of them, and no longer reads them).
    detachDepartingSource(link)
    return .none
  }

  override func missedChange(at link: LinkPointer) {
    _ = enqueue(kind: .didSet, link: link)
  }

  override func deliver(_ event: SourceEvent, from source: SourceNode) {
    if runsOnMainActor && rs_is_main_thread() == 0 {
      // Another thread queued a main-actor run: it hops. (A run `receive` started is the main
      // thread's, which may set `startedByReceive` meanwhile: this thread never reads it.)
      handToScheduler()
    } else if startedByReceive {
      startedByReceive = false
      // Cancelled since `receive`: `execute` ends the run before its body starts.
      execute(kind: startKind, keyPath: startKeyPath.take(), certain: startIsCertain)
    } else if hasScheduler {
      handToScheduler()
    } else {
      runIfQueued()
    }
  }
}
