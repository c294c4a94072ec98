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
  /// The observer whose queued run is parked, unretained (see the type's notes): parking and
  /// running it cost no reference counting.
  @exclusivity(unchecked) private var parkedObserver: Unmanaged<ContinuousObserver>?
  /// The suspended consumer, if any. Every path that resumes it first takes it out under the
  /// lock, so it is resumed exactly once.
  @exclusivity(unchecked) private var waiter: SuspendedConsumer?
  @exclusivity(unchecked) private var finished = false

  override init() {}

  /// Whether the iteration ended.
  var isFinished: Bool { lock.withLock { finished } }

  /// Whether a consumer waits for a change (for tests: a change made now wakes it).
  var hasWaitingConsumer: Bool { lock.withLock { waiter != nil } }

  /// A change arrived: park the observer's re-evaluation (whole, no closure per change) and
  /// wake the consumer — unless the iteration ended (nobody would run it). The waiting
  /// consumer, if any, is taken under the lock and resumed after it is released.
  override func park(_ observer: ContinuousObserver) {
    let waiter = lock.withLock { () -> SuspendedConsumer? in
      guard !finished else { return nil }
      parkedObserver = .passUnretained(observer)
      return self.waiter.take()
    }
    waiter?.resume()
  }

  /// Never called: the observer of an iteration hands its changes to ``park(_:)``, its
  /// parking (the lot is its scheduler only so that the observer knows it has one).
  func schedule(_ work: @escaping @Sendable () -> Void) {
    preconditionFailure("an ObservedValues observer parks its runs; it schedules no closure")
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

  /// Ends the iteration: no further change is evaluated; a parked run is dropped and a
  /// waiting consumer resumed.
  func finish() {
    let waiter = lock.withLock { () -> SuspendedConsumer? in
      finished = true
      parkedObserver = nil
      return self.waiter.take()
    }
    waiter?.resume()
  }

  /// Runs the parked re-evaluation, if any; false when there is none or the iteration ended.
  /// Synchronous, so a consumer that is already behind pays no suspension or async frame.
  func runParked() -> Bool {
    // A cancelled consumer gets nil, even with a change parked (as `Observations`).
    if Task.isCancelled {
      finish()
      return false
    }
    let observer = lock.withLock { () -> Unmanaged<ContinuousObserver>? in
      guard !finished else { return nil }
      return parkedObserver.take()
    }
    guard let observer else { return false }
    observer._withUnsafeGuaranteedRef { $0.runIfQueued() }
    return true
  }

  /// Suspends until a change is parked (true) or the iteration ends (false).
  private nonisolated(nonsending) func waitForChange() async -> Bool {
    while true {
      let state = lock.withLock { () -> Bool? in
        if finished { return false }
        return parkedObserver != nil ? true : nil
      }
      if let state { return state }
      await withTaskCancellationHandler {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
          let consumer = SuspendedConsumer(continuation)
          let resumeNow = lock.withLock { () -> Bool in
            if finished || parkedObserver != nil { return true }
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
