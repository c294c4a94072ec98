/// Where an ``ObservedValues`` iterator's observer parks its re-evaluations until the
/// consumer asks for the next value — the observer's scheduler.
///
/// It holds no reference to the iteration or the token (the iteration owns both and this
/// lot), so ownership has no cycle. A parked observer is held unretained: the iteration's
/// token keeps it alive, the iteration calls ``finish()`` (which drops it) before it cancels
/// the token, and only the iteration's consumer runs it.
final class ChangeParkingLot: ObserverParking, ObservationScheduler, @unchecked Sendable {
  private let lock = WordLock()
  // Guarded by `lock`.
  @exclusivity(unchecked) private var parkedRun: (@Sendable () -> Void)?
  /// The observer whose queued run is parked (the allocation-free form of `parkedRun`),
  /// unretained (see the type's notes): parking and running it cost no reference counting.
  @exclusivity(unchecked) private var parkedObserver: Unmanaged<ContinuousObserver>?
  /// The suspended consumer. Unsafe rather than checked: every path that resumes it first takes
  /// it out under the lock, so it is resumed exactly once; and a checked continuation, resilient
  /// outside its module, costs value-witness calls and reference counting on every hand-over.
  @exclusivity(unchecked) private var waiter: UnsafeContinuation<Void, Never>?
  @exclusivity(unchecked) private var finished = false

  override init() {}

  /// Whether the iteration ended.
  var isFinished: Bool { lock.withLock { finished } }

  /// A change arrived: park the observer's re-evaluation (whole, no closure per change) and
  /// wake the consumer. The observer calls this instead of ``schedule(_:)``.
  override func park(_ observer: ContinuousObserver) {
    parkAndWake { parkedObserver = .passUnretained(observer) }
  }

  /// Scheduler entry (general form): park `work` and wake the consumer.
  func schedule(_ work: @escaping @Sendable () -> Void) {
    parkAndWake { parkedRun = work }
  }

  /// Under the lock, unless the iteration ended (nobody would run it): `store` parks a run and
  /// the waiting consumer, if any, is taken; it is resumed after the lock is released.
  @inline(__always)
  private func parkAndWake(_ store: () -> Void) {
    let waiter = lock.withLock { () -> UnsafeContinuation<Void, Never>? in
      guard !finished else { return nil }
      store()
      return self.waiter.take()
    }
    waiter?.resume()
  }

  /// Waits for a change and re-evaluates; false when the iteration ended (finished or the
  /// task was cancelled).
  nonisolated(nonsending) func evaluateNextChange() async -> Bool {
    // A change parked while nobody waited: no suspension.
    if runParked() { return true }
    while true {
      guard await waitForChange() else { return false }
      if runParked() { return true }
    }
  }

  /// Ends the iteration: no further change is evaluated; a parked run is dropped (outside
  /// the lock: releasing a closure may deinitialise what it captured) and a waiting consumer
  /// resumed.
  func finish() {
    let (run, waiter) = lock.withLock {
      () -> ((@Sendable () -> Void)?, UnsafeContinuation<Void, Never>?) in
      finished = true
      parkedObserver = nil
      return (parkedRun.take(), self.waiter.take())
    }
    withExtendedLifetime(run) {}
    waiter?.resume()
  }

  /// Runs the parked re-evaluation, if any; false when there is none or the iteration ended.
  /// Synchronous, so a consumer that is already behind pays no suspension or async frame.
  func runParked() -> Bool {
    let (observer, run) = lock.withLock {
      () -> (Unmanaged<ContinuousObserver>?, (@Sendable () -> Void)?) in
      guard !finished else { return (nil, nil) }
      return (parkedObserver.take(), parkedRun.take())
    }
    if let observer {
      observer._withUnsafeGuaranteedRef { $0.runIfQueued() }
      return true
    }
    if let run {
      run()
      return true
    }
    return false
  }

  /// Suspends until a change is parked (true) or the iteration ends (false).
  private nonisolated(nonsending) func waitForChange() async -> Bool {
    while true {
      let state = lock.withLock { () -> Bool? in
        if finished { return false }
        return parkedObserver != nil || parkedRun != nil ? true : nil
      }
      if let state { return state }
      await withTaskCancellationHandler {
        await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
          let resumeNow = lock.withLock { () -> Bool in
            if finished || parkedRun != nil || parkedObserver != nil { return true }
            waiter = continuation
            return false
          }
          if resumeNow { continuation.resume() }
        }
      } onCancel: {
        let waiter = lock.withLock { () -> UnsafeContinuation<Void, Never>? in
          finished = true
          return self.waiter.take()
        }
        waiter?.resume()
      }
    }
  }
}
