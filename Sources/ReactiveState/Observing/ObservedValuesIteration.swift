/// The non-generic half of one ``ObservedValues`` iterator: the continuous observer that
/// tracks `emit` (owned through its token) and the ``ChangeParkingLot`` between the producer
/// and the consumer.
///
/// The observer's scheduler is the parking lot: it does not run a re-evaluation but parks it
/// until the consumer asks for the next value, so evaluation happens on the consumer's task,
/// after the change was committed. Ownership runs one way — iterator → iteration → token →
/// observer → lot — so a dropped iterator frees everything. Being non-generic, none of this
/// needs generic metadata at run time; the typed half (``ObservedValuesBuffer``) is
/// specialised in the caller.
@usableFromInline
final class ObservedValuesIteration: @unchecked Sendable {
  private let lot = ChangeParkingLot()
  // Touched only by the consuming task.
  @exclusivity(unchecked) private var token: ObservationToken?
  /// The sequence's `emit` is isolated to the main actor (see ``ObservedValues``).
  @usableFromInline let evaluatesOnMainActor: Bool

  @usableFromInline init(evaluatesOnMainActor: Bool) {
    self.evaluatesOnMainActor = evaluatesOnMainActor
  }

  deinit {
    // The lot first: it holds a parked observer unretained, which the token keeps alive.
    lot.finish()
    token?.cancel()
  }

  /// Whether the first evaluation ran.
  @usableFromInline var hasStarted: Bool { token != nil }

  /// Starts tracking `evaluate` (run now, on the caller); false if already finished or the
  /// task is cancelled (as `Observations`, whose first `next()` then returns nil).
  @usableFromInline
  func start(_ evaluate: @escaping @Sendable () -> Void) -> Bool {
    if lot.isFinished { return false }
    if Task.isCancelled {
      lot.finish()
      return false
    }
    token = observeIncludingDeallocations(scheduler: lot, evaluate)
    return true
  }

  /// Waits for a change and re-evaluates; false when the iteration ended (finished or the
  /// task was cancelled), which cancels the observer's registration at once, even while the
  /// iterator is kept (`emit` and its captures go with the iterator).
  @usableFromInline
  nonisolated(nonsending) func evaluateNextChange() async -> Bool {
    if await lot.evaluateNextChange() { return true }
    finish()
    return false
  }

  /// Ends the iteration: no further change is evaluated.
  @usableFromInline
  func finish() {
    lot.finish()
    token?.cancel()
  }

  /// Whether the consumer is suspended waiting for a change (for tests).
  var hasWaitingConsumer: Bool { lot.hasWaitingConsumer }

  /// Runs the parked re-evaluation, if any; false when there is none or the iteration ended.
  @usableFromInline
  func runParked() -> Bool { lot.runParked() }
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
