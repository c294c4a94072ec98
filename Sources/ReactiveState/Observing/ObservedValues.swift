/// An `AsyncSequence` of the values of an expression over observable state — SE-0475's
/// `Observations`, without its races.
///
/// - The first `next()` returns the current value at once.
/// - Changes (anything the last evaluation read) are noticed after they are committed
///   (`didSet`), so a value is never read before the producer's store, whatever thread the
///   producer runs on: no stale element, no lost final value.
/// - Synchronous bursts coalesce: the next `next()` evaluates once and returns the latest
///   value. A change made while nobody waits makes the next `next()` return at once — also
///   one `emit` made to what it read (`Observations` cannot see such a write and waits for
///   another change); `emit` still runs once per element.
/// - Each iterator has its own state (several iterators of one sequence are independent, and
///   a cancelled iteration leaves nothing behind that could produce a duplicate later).
/// - Task cancellation ends the iteration (`nil`); ``untilFinished(_:)`` ends it when the
///   closure returns `.finish`; a thrown error is thrown once, then the sequence ends.
/// - ``removingDuplicates()`` (Equatable elements) skips values equal to the last one.
/// - The deallocation of an object the last evaluation read counts as a change: `emit` runs
///   again, so an ``untilFinished(_:)`` closure reading a weakly held model can return
///   `.finish` once it is gone. Deliberate difference: `Observations` waits for a change that
///   can no longer come until its task is cancelled.
/// - An evaluation is a scheduled run: a write that `emit` itself makes to what another iteration
///   or scheduled observer reads extends a chain of scheduled runs, and iterations whose
///   evaluations keep changing each other are stopped as ``observe(scheduler:fileID:line:_:)``
///   describes (past 100 runs in a row the change is dropped with a diagnostic; the consumer then
///   waits for a change from elsewhere). What the consumer writes after `next()` returned starts no
///   chain: a loop that writes what it observes runs for as long as it likes.
///
/// `emit` runs on the iterating task, in its isolation (a main-actor consumer evaluates on the
/// main actor, with no executor hop per element), never on the mutating thread. For main-actor
/// state, ``onMainActor(_:)`` and ``onMainActorUntilFinished(_:)`` take a main-actor closure and
/// always evaluate it on the main actor: a consumer elsewhere waits for each element there, one
/// hop per `next()`. Dependencies are re-collected on every evaluation and edges are reused
/// between evaluations.
public struct ObservedValues<Element: Sendable, Failure: Error>: AsyncSequence, Sendable {
  /// What an ``untilFinished(_:)`` closure produces.
  public enum Iteration: Sendable {
    /// Emit this value and keep observing.
    case next(Element)
    /// End the sequence.
    case finish
  }

  @usableFromInline let emit: @Sendable () throws(Failure) -> Iteration
  @usableFromInline let isDuplicate: (@Sendable (Element, Element) -> Bool)?
  /// `emit` was isolated to the main actor: it is called on the main actor only.
  @usableFromInline let evaluatesOnMainActor: Bool

  /// Observes `emit`'s value, evaluated in the isolation of the task that calls `next()`.
  public init(_ emit: @escaping @Sendable () throws(Failure) -> Element) {
    self.init(emit, evaluatesOnMainActor: false)
  }

  private init(
    _ emit: @escaping @Sendable () throws(Failure) -> Element, evaluatesOnMainActor: Bool
  ) {
    self.emit = { () throws(Failure) -> Iteration in .next(try emit()) }
    self.isDuplicate = nil
    self.evaluatesOnMainActor = evaluatesOnMainActor
  }

  @usableFromInline
  init(
    iteration: @escaping @Sendable () throws(Failure) -> Iteration,
    isDuplicate: (@Sendable (Element, Element) -> Bool)?, evaluatesOnMainActor: Bool
  ) {
    self.emit = iteration
    self.isDuplicate = isDuplicate
    self.evaluatesOnMainActor = evaluatesOnMainActor
  }

  /// Observes `emit` until it returns `.finish`, evaluated in the isolation of the task that
  /// calls `next()`.
  public static func untilFinished(
    _ emit: @escaping @Sendable () throws(Failure) -> Iteration
  ) -> ObservedValues {
    ObservedValues(iteration: emit, isDuplicate: nil, evaluatesOnMainActor: false)
  }

  /// Observes `emit`'s value, evaluated on the main actor whatever task calls `next()`:
  /// `emit` may read and write main-actor state.
  public static func onMainActor(
    _ emit: @escaping @MainActor @Sendable () throws(Failure) -> Element
  ) -> ObservedValues {
    ObservedValues(droppingMainActorIsolation(emit), evaluatesOnMainActor: true)
  }

  /// Observes `emit` until it returns `.finish`, evaluated on the main actor whatever task
  /// calls `next()`.
  public static func onMainActorUntilFinished(
    _ emit: @escaping @MainActor @Sendable () throws(Failure) -> Iteration
  ) -> ObservedValues {
    ObservedValues(
      iteration: droppingMainActorIsolation(emit), isDuplicate: nil, evaluatesOnMainActor: true)
  }

  /// `emit` without its static isolation. Sound because an iterator calls it only on the main
  /// actor: ``Iterator`` runs a main-actor sequence's whole `next()` there.
  private static func droppingMainActorIsolation<Value>(
    _ emit: @escaping @MainActor @Sendable () throws(Failure) -> Value
  ) -> @Sendable () throws(Failure) -> Value {
    unsafeBitCast(emit, to: (@Sendable () throws(Failure) -> Value).self)
  }

  /// Creates an independent iterator.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(
      iteration: ObservedValuesIteration(evaluatesOnMainActor: evaluatesOnMainActor),
      buffer: ObservedValuesBuffer(emit: emit, isDuplicate: isDuplicate))
  }

  /// Iterates an ``ObservedValues`` sequence.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline let iteration: ObservedValuesIteration
    @usableFromInline let buffer: ObservedValuesBuffer<Element, Failure>

    @inlinable
    init(iteration: ObservedValuesIteration, buffer: ObservedValuesBuffer<Element, Failure>) {
      self.iteration = iteration
      self.buffer = buffer
    }

    /// The current value on the first call; afterwards the value after the next change, or
    /// nil when the sequence finished or the task was cancelled.
    @inlinable
    public nonisolated(nonsending) mutating func next() async throws(Failure) -> Element? {
      if iteration.evaluatesOnMainActor {
        return try await Self.advanceOnMainActor(iteration, buffer)
      }
      return try await Self.advance(iteration, buffer)
    }

    /// Same as ``next()``.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure)
      -> Element?
    {
      try await next()
    }

    /// ``advance(_:_:)`` for a main-actor `emit`: the whole step, its wait for a change
    /// included, runs on the main actor, so every evaluation does (a consumer already on the
    /// main actor makes no hop).
    @inlinable @MainActor
    static func advanceOnMainActor(
      _ iteration: ObservedValuesIteration, _ buffer: ObservedValuesBuffer<Element, Failure>
    ) async throws(Failure) -> Element? {
      try await advance(iteration, buffer)
    }

    @inlinable
    nonisolated(nonsending) static func advance(
      _ iteration: ObservedValuesIteration, _ buffer: ObservedValuesBuffer<Element, Failure>
    ) async throws(Failure) -> Element? {
      if !iteration.hasStarted {
        guard iteration.start({ buffer.evaluate() }) else { return nil }
        if let value = try buffer.take(ending: iteration) { return value }
      }
      while iteration.runParked() {
        if let value = try buffer.take(ending: iteration) { return value }
      }
      while await iteration.evaluateNextChange() {
        if let value = try buffer.take(ending: iteration) { return value }
      }
      return nil
    }
  }
}

extension ObservedValues where Element: Equatable {
  /// The same sequence, skipping values equal to the previously emitted one.
  public func removingDuplicates() -> ObservedValues {
    ObservedValues(
      iteration: emit, isDuplicate: { $0 == $1 }, evaluatesOnMainActor: evaluatesOnMainActor)
  }
}
