/// The state of one ``ObservedValues`` iterator.
///
/// A continuous observer evaluates `emit` with tracking; its scheduler is this object, which
/// does not run the re-evaluation but parks it until the consumer asks for the next value —
/// so evaluation happens on the consumer's task, after the change was committed.
public final class ObservedValuesIteration<Element: Sendable, Failure: Error>: ObservationScheduler,
  @unchecked Sendable
{
  typealias Iteration = ObservedValues<Element, Failure>.Iteration

  private let emit: @Sendable () throws(Failure) -> Iteration
  private let isDuplicate: (@Sendable (Element, Element) -> Bool)?
  private let lock = PThreadMutex()
  // Guarded by `lock`.
  private var parkedRun: (@Sendable () -> Void)?
  private var waiter: CheckedContinuation<Void, Never>?
  private var isFinished = false
  // Touched only by the consuming task (and the observer body it runs).
  private var token: ObservationToken?
  private var latest: Result<Iteration, Failure>?
  private var lastEmitted: Element?

  init(
    emit: @escaping @Sendable () throws(Failure) -> Iteration,
    isDuplicate: (@Sendable (Element, Element) -> Bool)?
  ) {
    self.emit = emit
    self.isDuplicate = isDuplicate
  }

  deinit { token?.cancel() }

  /// Scheduler entry: a change arrived; park the re-evaluation and wake the consumer.
  public func schedule(_ work: @escaping @Sendable () -> Void) {
    let waiter = lock.withLock { () -> CheckedContinuation<Void, Never>? in
      parkedRun = work
      defer { self.waiter = nil }
      return self.waiter
    }
    waiter?.resume()
  }

  func next() async throws(Failure) -> Element? {
    if token == nil {
      if lock.withLock({ isFinished }) { return nil }
      token = observe(scheduler: self) { [unowned self] in
        latest = Result { () throws(Failure) -> Iteration in try emit() }
      }
      if let value = try take() { return value }
    }
    while true {
      guard let run = await waitForChange() else { return nil }
      run()
      if let value = try take() { return value }
    }
  }

  /// Consumes the latest evaluation: the element to return, or nil to keep waiting
  /// (duplicate). Finishing or throwing ends the iteration.
  private func take() throws(Failure) -> Element? {
    guard let result = latest else { return nil }
    latest = nil
    switch result {
    case .success(.next(let value)):
      if let isDuplicate, let lastEmitted, isDuplicate(lastEmitted, value) { return nil }
      lastEmitted = value
      return value
    case .success(.finish):
      finish()
      return nil
    case .failure(let error):
      finish()
      throw error
    }
  }

  private func finish() {
    lock.withLock { isFinished = true }
    token?.cancel()
  }

  /// Suspends until a change is parked (returns its run) or the iteration ends (nil).
  private func waitForChange() async -> (@Sendable () -> Void)? {
    while true {
      if let outcome = lock.withLock({ () -> (@Sendable () -> Void)?? in
        if isFinished { return .some(nil) }
        if let run = parkedRun {
          parkedRun = nil
          return .some(run)
        }
        return nil
      }) {
        return outcome
      }
      await withTaskCancellationHandler {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
          let resumeNow = lock.withLock { () -> Bool in
            if isFinished || parkedRun != nil { return true }
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
