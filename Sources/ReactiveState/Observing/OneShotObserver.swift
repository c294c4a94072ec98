import CReactiveState
import Synchronization

/// The registration behind `withObservationTracking(_:onChange:)`: fires once, at the first
/// `willSet` of anything read, then is gone.
///
/// Exactly-once and no-zombie guarantees come from doing every state transition under
/// ``GraphLock``: installation links all edges and checks the recorded versions in one
/// critical section, and the first notifier flips `isFinished` and unlinks every edge before
/// anyone calls `onChange`. A pending registration holds one retain of its observer until it
/// fires or its last observed object is deallocated; the delivery queue then takes that
/// retain over, and delivery hands the finished observer to this thread's pool (or releases
/// it) outside the lock.
final class OneShotObserver: ReactiveNode, @unchecked Sendable {
  // The two flags come first, into the base class's tail padding: with the two tags after
  // the closure, the object is no larger than with one tag.
  /// Guarded by the graph lock.
  @exclusivity(unchecked) private var isFinished = false
  /// Armed from a `willSet` callback — a callback of a write still in flight on
  /// ``armingThread`` (`onChange` re-arming, say) — until a `didSet` on that thread reaches
  /// it (graph lock after installation). See ``receive(_:from:)``.
  @exclusivity(unchecked) private var armedDuringWillSet = false
  /// Moved out (a no-op left behind) when the observer finishes, so the pool holds no user
  /// closure.
  private var onChange: @Sendable () -> Void
  /// The thread that armed this registration (``TrackingScope/currentThreadIdentity``, which
  /// fits in half a word).
  @exclusivity(unchecked) private var armingThread: UInt32 = 0
  /// Set before the registration parks: the low 32 bits of the version it read. Only its
  /// arming thread reads it, for a parked registration of its own (see
  /// ``armAgain(_:reading:afterWriteFrom:)``).
  @exclusivity(unchecked) private var parkedReadVersion: UInt32 = 0

  private init(onChange: @escaping @Sendable () -> Void) {
    self.onChange = onChange
    super.init(interest: .willSet, handsPendingRetainToQueue: true)
  }

  /// Parks an observer in the slot of the one property `list` holds, or links one for every
  /// slot in it — or calls `onChange` right away when a recorded slot changed after it was
  /// read (the change the toolchain would lose).
  static func install(_ list: AccessList, onChange: consuming @escaping @Sendable () -> Void) {
    if OwnWriteDeferral.defers(list, onChange: onChange) { return }
    // Carries the registration's retain, and owns the callback it was handed, so arming
    // costs no reference counting.
    let observer = make(onChange: onChange)
    if list.entries.count == 1, let missedChange = park(observer, for: list.entries[0]) {
      if missedChange { fireParked(observer.toOpaque()) }
      return
    }
    let (linked, missed) = observer._withUnsafeGuaranteedRef { observer in
      OneShotInstallation.install(list, observer) { observer.isFinished = true }
    }
    if linked { return }
    let callback = observer._withUnsafeGuaranteedRef { $0.retire() }
    if missed != nil { callback() }
  }

  // MARK: - Parking (see `PropertySlot+ParkedOneShot.swift`)

  /// Parks `observer` in the slot of the one property `apply` read, when it is one nobody
  /// else listens to for `willSet` (a graph listener would otherwise be called after a later
  /// registration) and its place is free. Returns nil when it did not park, else whether the
  /// property changed after it was read and the registration was taken back (the caller
  /// then fires it).
  @inline(__always)
  private static func park(
    _ observer: Unmanaged<OneShotObserver>, for read: InputList.Input
  ) -> Bool? {
    read.source._withUnsafeGuaranteedRef { source in
      guard !source.isDerived, source.willSetListeners.load(ordering: .relaxed) == 0 else {
        return nil
      }
      let slot = unsafeDowncast(source, to: PropertySlot.self)
      observer._withUnsafeGuaranteedRef {
        $0.parkedReadVersion = UInt32(truncatingIfNeeded: read.version)
      }
      guard let parked = slot.park(observer.toOpaque()) else { return nil }
      // Once parked, the observer belongs to whoever clears the word: it is touched again
      // only when this reclaims it.
      return slot.versionChangedSince(read.version) && slot.reclaim(parked)
    }
  }

  /// Fires a registration a write took out of a slot's parking word at its `willSet` (its
  /// retain comes with it), as a `willSet` delivery.
  @inline(never)
  static func fireParkedAtWillSet(_ raw: UnsafeMutableRawPointer) {
    ChangePropagation.deliveringWillSet { fireParked(raw) }
  }

  /// Fires a registration taken out of a slot's parking word (its retain comes with it).
  @inline(__always)
  static func fireParked(_ raw: UnsafeMutableRawPointer) {
    let callback = Unmanaged<OneShotObserver>.fromOpaque(raw)._withUnsafeGuaranteedRef {
      $0.retire()
    }
    callback()
  }

  /// Ends a parked registration without calling it (its registrar is gone).
  static func discardParked(_ raw: UnsafeMutableRawPointer) {
    Unmanaged<OneShotObserver>.fromOpaque(raw).release()
  }

  /// This thread, as ``armingThread`` names it.
  private static var currentThread: UInt32 {
    UInt32(truncatingIfNeeded: TrackingScope.currentThreadIdentity)
  }

  /// Whether this thread armed the registration `raw`, taken from a slot's parking word by
  /// the caller (which owns it).
  static func wasArmedHere(_ raw: UnsafeMutableRawPointer) -> Bool {
    Unmanaged<OneShotObserver>.fromOpaque(raw)._withUnsafeGuaranteedRef {
      $0.armingThread == currentThread
    }
  }

  /// Arms again a registration this thread armed, then parked in `slot`, inside a write that
  /// began before its object was observed — its retain comes with it: the end of that write
  /// took it from the parking word, having moved the version from `from`. The write came
  /// before it (see `RegistrarStorage.lateMutation(site:keyPath:)`), so it is armed as if it
  /// had read the version the write left: it fires at once only when another write moved the
  /// version after its read, as a deferred one-shot is installed (see `OwnWriteDeferral`).
  static func armAgain(
    _ raw: UnsafeMutableRawPointer, reading slot: PropertySlot, afterWriteFrom from: UInt64
  ) {
    let observer = Unmanaged<OneShotObserver>.fromOpaque(raw)
    let readLowBits = observer._withUnsafeGuaranteedRef { $0.parkedReadVersion }
    // The version it read is at most `from`; its low bits say how far behind.
    let read = from &- UInt64(UInt32(truncatingIfNeeded: from) &- readLowBits)
    let callback = observer._withUnsafeGuaranteedRef { $0.retire() }
    install(AccessList.reading(slot, at: read &+ 2), onChange: callback)
  }

  // MARK: - Reuse

  /// How many finished observers a thread keeps for reuse.
  private static let poolLimit: UInt64 = 4096

  /// A retained observer for `onChange`: a finished one from this thread's pool when there
  /// is one (no allocation), else a new one.
  @inline(__always)
  private static func make(onChange: consuming @escaping @Sendable () -> Void)
    -> Unmanaged<OneShotObserver>
  {
    let thread = rs_current_thread()
    // Set by the tracking scope that recorded the reads. (Were it 0, the registration would
    // match no thread: it would fire where its own thread's exemptions spare it.)
    let armingThread = UInt32(truncatingIfNeeded: thread.pointee.serial >> 40)
    let armedDuringWillSet = thread.pointee.willset_delivery_depth != 0
    guard let pooled = thread.pointee.observer_pool else {
      let observer = OneShotObserver(onChange: onChange)
      observer.armingThread = armingThread
      observer.armedDuringWillSet = armedDuringWillSet
      return .passRetained(observer)
    }
    let observer = Unmanaged<OneShotObserver>.fromOpaque(pooled)
    observer._withUnsafeGuaranteedRef { observer in
      thread.pointee.observer_pool = observer.nextQueued?.toOpaque()
      thread.pointee.observer_pool_count &-= 1
      observer.nextQueued = nil
      observer.isFinished = false
      observer.armingThread = armingThread
      observer.armedDuringWillSet = armedDuringWillSet
      observer.onChange = onChange
    }
    return observer
  }

  /// Ends this finished observer's registration (consuming its retain): returns the user's
  /// closure, for the caller to call or drop, and keeps the observer for reuse. Nothing may
  /// touch the observer afterwards.
  @inline(__always)
  private func retire() -> @Sendable () -> Void {
    let callback = takeCallback()
    recycle()
    return callback
  }

  /// Moves the user's closure out (no reference counting), leaving a no-op behind.
  @inline(__always)
  private func takeCallback() -> @Sendable () -> Void {
    var callback: @Sendable () -> Void = {}
    swap(&callback, &onChange)
    return callback
  }

  /// Ends this finished observer's life (its callback already taken), consuming the
  /// registration's retain: keeps the observer in this thread's pool or releases it.
  @inline(__always)
  private func recycle() {
    let thread = rs_current_thread()
    guard thread.pointee.observer_pool_count < OneShotObserver.poolLimit else {
      Unmanaged.passUnretained(self).release()
      return
    }
    ThreadCaches.registerExitCleanup(thread)
    nextQueued = thread.pointee.observer_pool.map { Unmanaged<ReactiveNode>.fromOpaque($0) }
    thread.pointee.observer_pool = Unmanaged.passUnretained(self).toOpaque()
    thread.pointee.observer_pool_count &+= 1
  }

  /// Releases every pooled observer of `thread` (it is exiting).
  static func drainPool(_ thread: UnsafeMutablePointer<rs_thread_state>) {
    while let pooled = thread.pointee.observer_pool {
      let observer = Unmanaged<OneShotObserver>.fromOpaque(pooled)
      thread.pointee.observer_pool = observer._withUnsafeGuaranteedRef { $0.nextQueued?.toOpaque() }
      thread.pointee.observer_pool_count -= 1
      observer.release()
    }
  }

  override func receive(_ event: SourceEvent, from link: LinkPointer) -> Bool {
    // A derived value's `didSet` that finds this registration unfired: it linked while the
    // write was in flight, after the `willSet` walk (or the writer saw no `willSet` listener
    // upstream yet), and its install check found the derived value not yet invalidated. The
    // change is delivered late rather than lost.
    guard
      event == .willSet
        || (event == .didSet && link.pointee.sourceNode._withUnsafeGuaranteedRef { $0.isDerived }),
      !isFinished
    else { return false }
    if event == .didSet, armedDuringWillSet, armingThread == Self.currentThread {
      // Except the `didSet` of the write whose `willSet` callback armed it (on this thread):
      // that write was announced before it armed, as when it reads a property — once per
      // write, as the toolchain's re-armed registrations. The next write reaches it.
      armedDuringWillSet = false
      return false
    }
    isFinished = true
    unlinkAllDependencies()
    return true
  }

  override func passesOverEnclosingWrite(_ link: LinkPointer) -> Bool {
    !isFinished && armingThread == Self.currentThread
  }

  override func takesOverInputsOfDepartingDerivedValue() -> Bool { !isFinished }

  override func missesChangeInFlight() -> Bool {
    // Armed from a `willSet` callback of that very write: it waits for the next one, as the
    // toolchain's re-armed registrations do (see `receive`).
    guard !armedDuringWillSet else { return false }
    isFinished = true
    unlinkAllDependencies()
    return true
  }

  override func sourceWillDeinitialize(_ link: LinkPointer) -> Bool {
    // 6.3.1 parity: a pending observer is released without a call once nothing it observes
    // is alive any more.
    guard !isFinished, firstDependency == link, lastDependency == link else { return false }
    isFinished = true
    return true
  }

  override func deliver(_ event: SourceEvent, from source: SourceNode) {
    let callback = retire()
    // The user's closure is released when this returns.
    if event != .deinitialized { callback() }
  }
}
