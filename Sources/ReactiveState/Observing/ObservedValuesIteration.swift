/// The non-generic half of one ``ObservedValues`` iterator: the continuous observer that
/// tracks `emit`, and the parking lot between the producer and the consumer.
///
/// The observer's scheduler is this object (through a weak ``IterationParking``): it does not
/// run a re-evaluation but parks it until the consumer asks for the next value, so evaluation
/// happens on the consumer's task, after the change was committed. Being non-generic, none of this needs generic metadata at
/// run time; the typed half (``ObservedValuesBuffer``) is specialised in the caller.
@usableFromInline
final class ObservedValuesIteration: ObservationScheduler, @unchecked Sendable {
  private let lock = WordLock()
  // Guarded by `lock`.
  @exclusivity(unchecked) private var parkedRun: (@Sendable () -> Void)?
  /// The observer whose queued run is parked (the allocation-free form of `parkedRun`).
  @exclusivity(unchecked) private var parkedObserver: ContinuousObserver?
  @exclusivity(unchecked) private var waiter: CheckedContinuation<Void, Never>?
  @exclusivity(unchecked) private var isFinished = false
  // Touched only by the consuming task.
  @exclusivity(unchecked) private var token: ObservationToken?

  @usableFromInline init() {}

  deinit { token?.cancel() }

  /// Whether the first evaluation ran.
  @usableFromInline var hasStarted: Bool { token != nil }

  /// Starts tracking `evaluate` (run now, on the caller); false if already finished.
  @usableFromInline
  func start(_ evaluate: @escaping @Sendable () -> Void) -> Bool {
    if lock.withLock({ isFinished }) { return false }
    token = observe(scheduler: IterationParking(self), evaluate)
    return true
  }

  /// A change arrived: park the observer's re-evaluation (whole, no closure per change) and
  /// wake the consumer. The observer calls this instead of ``schedule(_:)``.
  func park(_ observer: ContinuousObserver) {
    let waiter = lock.withLock { () -> CheckedContinuation<Void, Never>? in
      parkedObserver = observer
      defer { self.waiter = nil }
      return self.waiter
    }
    waiter?.resume()
  }

  /// Scheduler entry (general form): park `work` and wake the consumer.
  @usableFromInline
  func schedule(_ work: @escaping @Sendable () -> Void) {
    let waiter = lock.withLock { () -> CheckedContinuation<Void, Never>? in
      parkedRun = work
      defer { self.waiter = nil }
      return self.waiter
    }
    waiter?.resume()
  }

  /// Waits for a change and re-evaluates; false when the iteration ended (finished or the
  /// task was cancelled).
  @usableFromInline
  func evaluateNextChange() async -> Bool {
    // A change parked while nobody waited: no suspension.
    if runParked() { return true }
    while true {
      guard await waitForChange() else { return false }
      if runParked() { return true }
    }
  }

  /// Ends the iteration: no further change is evaluated.
  @usableFromInline
  func finish() {
    lock.withLock { isFinished = true }
    token?.cancel()
  }

  /// Runs the parked re-evaluation, if any; false when there is none or the iteration ended.
  /// Synchronous, so a consumer that is already behind pays no suspension or async frame.
  @usableFromInline
  func runParked() -> Bool {
    let (observer, run) = lock.withLock { () -> (ContinuousObserver?, (@Sendable () -> Void)?) in
      guard !isFinished else { return (nil, nil) }
      defer {
        parkedObserver = nil
        parkedRun = nil
      }
      return (parkedObserver, parkedRun)
    }
    if let observer {
      observer.runIfQueued()
      return true
    }
    if let run {
      run()
      return true
    }
    return false
  }

  /// Suspends until a change is parked (true) or the iteration ends (false).
  private func waitForChange() async -> Bool {
    while true {
      let state = lock.withLock { () -> Bool? in
        if isFinished { return false }
        return parkedObserver != nil || parkedRun != nil ? true : nil
      }
      if let state { return state }
      await withTaskCancellationHandler {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
          let resumeNow = lock.withLock { () -> Bool in
            if isFinished || parkedRun != nil || parkedObserver != nil { return true }
            waiter = continuation
            return false
          }
          if resumeNow { continuation.resume() }
        }
      } onCancel: {
        let waiter = lock.withLock { () -> CheckedContinuation<Void, Never>? in
          isFinished = true
          defer { self.waiter = nil }
          return self.waiter
        }
        waiter?.resume()
      }
    }
  }
}

/// The observer's scheduler: forwards to its iteration without keeping it alive. The iteration
/// owns the observer (through its token), so a strong reference back would be a cycle that
/// kept every dropped or finished iterator — its closure and its subscriptions — forever.
final class IterationParking: ObservationScheduler, @unchecked Sendable {
  weak var iteration: ObservedValuesIteration?

  init(_ iteration: ObservedValuesIteration) { self.iteration = iteration }

  func park(_ observer: ContinuousObserver) { iteration?.park(observer) }

  func schedule(_ work: @escaping @Sendable () -> Void) { iteration?.schedule(work) }
}

/// The typed half of one ``ObservedValues`` iterator: the latest evaluation and the last
/// emitted element. Touched only by the consuming task (and the evaluation it runs).
@usableFromInline
final class ObservedValuesBuffer<Element: Sendable, Failure: Error>: @unchecked Sendable {
  @usableFromInline let emit:
    @Sendable () throws(Failure) -> ObservedValues<Element, Failure>.Iteration
  @usableFromInline let isDuplicate: (@Sendable (Element, Element) -> Bool)?
  @exclusivity(unchecked) @usableFromInline var latest:
    Result<ObservedValues<Element, Failure>.Iteration, Failure>?
  @exclusivity(unchecked) @usableFromInline var lastEmitted: Element?

  @usableFromInline
  init(
    emit: @escaping @Sendable () throws(Failure) -> ObservedValues<Element, Failure>.Iteration,
    isDuplicate: (@Sendable (Element, Element) -> Bool)?
  ) {
    self.emit = emit
    self.isDuplicate = isDuplicate
  }

  /// Runs `emit` (with tracking active, inside the observer) and keeps the outcome.
  @inlinable
  func evaluate() {
    latest = Result { () throws(Failure) -> ObservedValues<Element, Failure>.Iteration in try emit()
    }
  }

  /// Consumes the latest evaluation: the element to return, or nil to keep waiting
  /// (duplicate). Finishing or throwing ends the iteration.
  @inlinable
  func take(ending iteration: ObservedValuesIteration) throws(Failure) -> Element? {
    guard let result = latest else { return nil }
    latest = nil
    switch result {
    case .success(.next(let value)):
      if let isDuplicate, let lastEmitted, isDuplicate(lastEmitted, value) { return nil }
      lastEmitted = value
      return value
    case .success(.finish):
      iteration.finish()
      return nil
    case .failure(let error):
      iteration.finish()
      throw error
    }
  }
}
