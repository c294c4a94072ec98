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
  /// Moved out (a no-op left behind) when the observer finishes, so the pool holds no user
  /// closure.
  private var onChange: @Sendable () -> Void
  /// Guarded by the graph lock.
  @exclusivity(unchecked) private var isFinished = false
  /// The tag of the thread that armed this registration from a `willSet` callback — a
  /// callback of a write still in flight there (`onChange` re-arming, say) — until a
  /// `didSet` on that thread reaches it (graph lock after installation); 0 otherwise. See
  /// ``receive(_:from:)``. A tag, not the thread's address: it fits beside `isFinished`
  /// without growing the object.
  @exclusivity(unchecked) private var armedDuringWillSetOn: UInt32 = 0

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
    let armedDuringWillSetOn =
      thread.pointee.willset_delivery_depth == 0 ? 0 : rs_current_thread_tag()
    guard let pooled = thread.pointee.observer_pool else {
      let observer = OneShotObserver(onChange: onChange)
      observer.armedDuringWillSetOn = armedDuringWillSetOn
      return .passRetained(observer)
    }
    let observer = Unmanaged<OneShotObserver>.fromOpaque(pooled)
    observer._withUnsafeGuaranteedRef { observer in
      thread.pointee.observer_pool = observer.nextQueued?.toOpaque()
      thread.pointee.observer_pool_count &-= 1
      observer.nextQueued = nil
      observer.isFinished = false
      observer.armedDuringWillSetOn = armedDuringWillSetOn
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
    if event == .didSet, armedDuringWillSetOn != 0,
      armedDuringWillSetOn == rs_current_thread_tag()
    {
      // Except the `didSet` of the write whose `willSet` callback armed it (on this thread):
      // that write was announced before it armed, as when it reads a property — once per
      // write, as the toolchain's re-armed registrations. The next write reaches it.
      self.armedDuringWillSetOn = 0
      return false
    }
    isFinished = true
    unlinkAllDependencies()
    return true
  }

  override func takesOverInputsOfDepartingDerivedValue() -> Bool { !isFinished }

  override func missesChangeInFlight() -> Bool {
    // Armed from a `willSet` callback of that very write: it waits for the next one, as the
    // toolchain's re-armed registrations do (see `receive`).
    guard armedDuringWillSetOn == 0 else { return false }
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
