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
  /// The suspended consumer, if any. Every path that resumes it first takes it out under the
  /// lock, so it is resumed exactly once.
  @exclusivity(unchecked) private var waiter: SuspendedConsumer?
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
    let waiter = lock.withLock { () -> SuspendedConsumer? in
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
      () -> ((@Sendable () -> Void)?, SuspendedConsumer?) in
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
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
          let consumer = SuspendedConsumer(continuation)
          let resumeNow = lock.withLock { () -> Bool in
            if finished || parkedRun != nil || parkedObserver != nil { return true }
            waiter = consumer
            return false
          }
          if resumeNow { consumer.resume() }
        }
      } onCancel: {
        let waiter = lock.withLock { () -> SuspendedConsumer? in
          finished = true
          return self.waiter.take()
        }
        waiter?.resume()
      }
    }
  }
}

/// A consumer suspended in ``ChangeParkingLot``, boxed: the lot's hand-overs (a park with nobody
/// waiting is the common one) move and test a class reference, while a `CheckedContinuation`,
/// resilient outside the concurrency library, is copied and destroyed through value-witness
/// calls. Checked rather than unsafe: ThreadSanitizer sees the checked continuation's hand-over
/// but not an unsafe one's, whose inlined resume it reports as racing the resumed task.
private final class SuspendedConsumer {
  private let continuation: CheckedContinuation<Void, Never>

  init(_ continuation: CheckedContinuation<Void, Never>) { self.continuation = continuation }

  /// Resumes the consumer (once: the lot hands each box to one resumer).
  func resume() { continuation.resume() }
}
