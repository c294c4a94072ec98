import Foundation
import Observation
import ReactiveState
import Testing

/// The async sequence of values: SE-0475's semantics, without its stale-element and
/// duplicate bugs.
@Suite struct ObservedValuesTests {
  @Test func firstNextReturnsTheCurrentValueLazily() async {
    let model = HandModel()
    let calls = Box(0)
    let values = ObservedValues {
      calls.value += 1
      return model.a
    }
    model.a = 7
    #expect(calls.value == 0, "nothing is evaluated before the first next()")
    var iterator = values.makeAsyncIterator()
    #expect(await iterator.next() == 7)
  }

  /// `AsyncIteratorProtocol`'s isolated requirement, which `for await` uses in an isolated
  /// context, behaves as `next()`.
  @MainActor @Test func theIsolatedNextBehavesAsNext() async {
    let model = HandModel()
    var iterator = ObservedValues { model.a }.makeAsyncIterator()
    #expect(await iterator.next(isolation: MainActor.shared) == 0)
    model.a = 3
    #expect(await iterator.next(isolation: MainActor.shared) == 3)
    model.a = 4
    #expect(await iterator.next() == 4)
  }

  /// The deallocation of a model the last evaluation read runs `emit` again, which can end
  /// the sequence. Deliberate difference: `Observations` would wait until its task is
  /// cancelled (the watchdog tells the two outcomes apart: both end in nil).
  @Test func theDeallocationOfWhatWasReadLetsTheSequenceFinish() async {
    var model: HandModel? = HandModel()
    let holder = WeakHandModel()
    holder.model = model
    let evaluations = Box(0)
    var iterator = ObservedValues<Int, Never>.untilFinished {
      evaluations.value += 1
      guard let model = holder.model else { return .finish }
      return .next(model.a)
    }.makeAsyncIterator()
    #expect(await iterator.next() == 0)
    model = nil
    #expect(evaluations.value == 1, "emit runs on the consumer's next(), not in the deinit")
    let next = Task { [iterator] in
      var iterator = iterator
      return await iterator.next()
    }
    // Two minutes: parallel suites (under ThreadSanitizer, with exit tests spawning child
    // processes) can keep the task off the cooperative pool for tens of seconds.
    let watchdog = Task {
      do { try await Task.sleep(nanoseconds: 120_000_000_000) } catch { return false }
      next.cancel()
      return true
    }
    #expect(await next.value == nil)
    watchdog.cancel()
    #expect(await watchdog.value != true, "the sequence finished without being cancelled")
    #expect(evaluations.value == 2)
  }

  @Test func synchronousBurstsCoalesceIntoTheLatestValue() async {
    let model = HandModel()
    let calls = Box(0)
    var iterator = ObservedValues {
      calls.value += 1
      return model.a
    }.makeAsyncIterator()
    _ = await iterator.next()
    for i in 1...5 { model.a = i }
    #expect(await iterator.next() == 5)
    #expect(calls.value == 2, "one evaluation per element")
  }

  /// `emit` runs in the consumer's isolation, whether `next()` finds a parked change or has to
  /// wait for one: a main-actor consumer evaluates on the main actor (so it may read main-actor
  /// state), with no hop to the global executor and back per element. Were an evaluation to
  /// run elsewhere, `assumeIsolated` would stop the test process.
  @MainActor @Test func emitRunsInTheConsumersIsolation() async {
    let model = HandModel()
    let evaluations = Box(0)
    var iterator = ObservedValues {
      MainActor.assumeIsolated { evaluations.value += 1 }
      return model.a
    }.makeAsyncIterator()
    #expect(await iterator.next() == 0)
    model.a = 1
    #expect(await iterator.next() == 1, "a parked change")
    let waited = writeOnceSuspended(iterator) { model.a = 2 }
    #expect(await iterator.next() == 2, "a change awaited")
    #expect(waited.value, "the write found the consumer suspended")
    #expect(evaluations.value == 3)
  }

  @Test func nextSuspendsUntilAChangeArrives() async {
    let model = HandModel()
    var iterator = ObservedValues { model.a }.makeAsyncIterator()
    _ = await iterator.next()
    let waited = writeOnceSuspended(iterator) { model.a = 3 }
    #expect(await iterator.next() == 3)
    #expect(waited.value, "the write found the consumer suspended")
  }

  @Test func severalIteratorsAreIndependent() async {
    let model = HandModel()
    let values = ObservedValues { model.a }
    var first = values.makeAsyncIterator()
    var second = values.makeAsyncIterator()
    #expect(await first.next() == 0)
    #expect(await second.next() == 0)
    model.a = 5
    #expect(await first.next() == 5)
    #expect(await second.next() == 5)
  }

  @Test func untilFinishedEndsTheSequence() async {
    let model = HandModel()
    var iterator = ObservedValues<Int, Never>.untilFinished {
      model.a >= 2 ? .finish : .next(model.a)
    }.makeAsyncIterator()
    #expect(await iterator.next() == 0)
    model.a = 2
    #expect(await iterator.next() == nil)
    #expect(await iterator.next() == nil)
  }

  @Test func aThrownErrorIsThrownOnceThenTheSequenceEnds() async throws {
    struct Failure: Error {}
    let model = HandModel()
    var iterator = ObservedValues { () throws(Failure) -> Int in
      if model.a == 1 { throw Failure() }
      return model.a
    }.makeAsyncIterator()
    _ = try? await iterator.next()
    model.a = 1
    var threw = false
    do { _ = try await iterator.next() } catch { threw = true }
    #expect(threw)
    #expect(try await iterator.next() == nil)
  }

  @Test func dependenciesAreRecollectedPerElement() async {
    let model = HandModel()
    var iterator = ObservedValues { model.a == 0 ? "b\(model.b)" : "a\(model.a)" }
      .makeAsyncIterator()
    #expect(await iterator.next() == "b0")
    model.a = 1
    #expect(await iterator.next() == "a1")
    model.b = 9  // no longer read
    model.a = 2
    #expect(await iterator.next() == "a2")
  }

  @Test func taskCancellationEndsTheIteration() async {
    let model = HandModel()
    let got = LockedBox<[Int]>([])
    let task = Task {
      var iterator = ObservedValues { model.a }.makeAsyncIterator()
      while let value = await iterator.next() { got.value.append(value) }
    }
    for _ in 0..<100_000 where got.value.isEmpty { await Task.yield() }  // the first element
    task.cancel()
    await task.value
    #expect(got.value == [0])
  }

  /// As `Observations`: a task cancelled before its first `next()` gets nil, not a value, and
  /// the iteration stays ended: the same iterator, handed to a task that is not cancelled,
  /// still returns nil and evaluates nothing.
  @Test func firstNextOnACancelledTaskEndsTheIterationLikeTheOracle() async {
    let oracle = OracleModel()
    let model = HandModel()
    let calls = Box(0)
    let kept = Box<(Observations<Int, Never>.Iterator, ObservedValues<Int, Never>.Iterator)?>(nil)
    await Task {
      withUnsafeCurrentTask { $0?.cancel() }
      var oracleIterator = Observations { oracle.a }.makeAsyncIterator()
      var iterator = ObservedValues {
        calls.value += 1
        return model.a
      }.makeAsyncIterator()
      #expect(await oracleIterator.next() == nil)
      #expect(await iterator.next() == nil)
      kept.value = (oracleIterator, iterator)
    }.value
    guard var (oracleAgain, again) = kept.value else {
      Issue.record("the cancelled task kept no iterators")
      return
    }
    model.a = 1
    oracle.a = 1
    #expect(await oracleAgain.next() == nil, "the oracle's ended iteration stays ended")
    #expect(await again.next() == nil, "an ended iteration started again")
    #expect(calls.value == 0, "nothing evaluated")
  }

  /// An evaluation that writes what it reads is evaluated once per element, as by
  /// `Observations` (it used to repeat inline up to the rerun limit, with a diagnostic).
  /// Deliberate difference: its write is a change like any other, so the next element is
  /// ready at once; `Observations`, which cannot see a write its own evaluation makes, waits
  /// for a change from elsewhere.
  @Test(.timeLimit(.minutes(1)))
  func anEvaluationThatWritesWhatItReadsRunsOncePerElement() async {
    let oracle = OracleModel()
    var oracleIterator = Observations { () -> Int in
      oracle.b += 1
      return oracle.b
    }.makeAsyncIterator()
    let oracleFirst = await oracleIterator.next()

    let model = HandModel()
    let calls = Box(0)
    var iterator = ObservedValues { () -> Int in
      calls.value += 1
      model.b += 1
      return model.b
    }.makeAsyncIterator()
    #expect(await iterator.next() == oracleFirst)
    #expect(calls.value == 1)
    #expect(await iterator.next() == 2)
    #expect(calls.value == 2)
  }

  /// Observations (swiftlang/swift#85683) can re-emit after a cancelled iteration because its
  /// dirty flag is per sequence; ours is per iterator. After the fresh iterator's first
  /// element, a `next()` with nothing changed must wait: a duplicate (1) would come at once,
  /// and the watchdog's write (`a = -1`) ends the wait instead.
  @MainActor @Test func noDuplicateAfterACancelledIteration() async {
    let model = HandModel()
    let values = ObservedValues { model.a }
    let isWaiting = LockedBox<(@Sendable () -> Bool)?>(nil)
    let cancelled = Task {
      var iterator = values.makeAsyncIterator()
      _ = await iterator.next()
      isWaiting.value = waitingConsumerProbe(of: iterator)
      _ = await iterator.next()
    }
    // Cancelled while suspended in its second next().
    for _ in 0..<120_000 where !(isWaiting.value?() ?? false) {
      try? await Task.sleep(nanoseconds: 1_000_000)
    }
    #expect(isWaiting.value?() == true)
    cancelled.cancel()
    _ = await cancelled.value
    model.a = 1
    var fresh = values.makeAsyncIterator()
    #expect(await fresh.next() == 1)
    let unchanged = await ObservationParityAuditSequenceTests.next(
      &fresh, unblocking: model, after: 0.2)
    #expect(unchanged == -1, "no duplicate of 1: it waited for a change")
    model.a = 2
    #expect(await fresh.next() == 2)
  }

  @Test func removingDuplicatesSkipsEqualValues() async {
    let model = HandModel()
    var iterator = ObservedValues { model.a % 2 }.removingDuplicates().makeAsyncIterator()
    #expect(await iterator.next() == 0)
    model.a = 2  // same parity: skipped
    model.a += 0
    model.a = 3
    #expect(await iterator.next() == 1)
  }

  /// Observations can emit the old value when the producer is on another thread (it wakes on
  /// willSet); ours wakes after the store. 10,000 trials with a slow setter window.
  @Test func neverEmitsAStaleValueForCrossThreadProducers() async {
    let model = HandModel()
    var iterator = ObservedValues { model.a }.makeAsyncIterator()
    var previous = await iterator.next() ?? -1
    var stale = 0
    for trial in 1...10_000 {
      Thread.detachNewThread { model.a = trial }
      let value = await iterator.next() ?? -1
      if value != trial { stale += 1 }
      previous = value
    }
    #expect(stale == 0)
    #expect(previous == 10_000)
  }
}

extension ObservedValuesTests {
  @Test func seesAValueWrittenInATransactionOnTheIteratingTask() async {
    let model = HandModel()
    var iterator = ObservedValues { model.a + model.b }.makeAsyncIterator()
    #expect(await iterator.next() == 0)
    withTransaction {
      model.a = 1
      model.b = 10
    }
    let done = LockedBox(false)
    unblockAfterTwoMinutes(unless: done) { model.a = -1 }
    #expect(await iterator.next() == 11, "one element with the transaction's final values")
    done.value = true
  }

  @Test func seesTheLastValueWrittenInTransactionsOnAnotherThread() async {
    // Locked storage: the iteration reads while the other thread writes, and the model's own
    // storage is the model's business (a plain stored property would be a data race).
    let model = LockedPair()
    var iterator = ObservedValues { model.a }.makeAsyncIterator()
    _ = await iterator.next()
    let writes = 2_000
    let done = LockedBox(false)
    Thread.detachNewThread {
      for i in 1...writes { withTransaction { model.setA(i) } }
      unblockAfterTwoMinutes(unless: done) { model.setA(-1) }
    }
    var last = 0
    while last != writes && last != -1 {
      guard let value = await iterator.next() else { break }
      last = value
    }
    done.value = true
    #expect(last == writes)
  }

  /// Runs `write` on another thread once `iterator`'s consumer is suspended in `next()` (or
  /// after two minutes, so a consumer that never suspends fails the test instead of hanging
  /// it; generous because parallel suites can keep a main-actor consumer waiting for tens of
  /// seconds); the box says whether the write found it suspended.
  private func writeOnceSuspended<Element, Failure>(
    _ iterator: ObservedValues<Element, Failure>.Iterator,
    _ write: @escaping @Sendable () -> Void
  ) -> LockedBox<Bool> {
    let isWaiting = waitingConsumerProbe(of: iterator)
    let waited = LockedBox(false)
    Thread.detachNewThread {
      for _ in 0..<120_000 where !isWaiting() { usleep(1_000) }
      waited.value = isWaiting()
      write()
    }
    return waited
  }

  /// If an iteration missed a change, its wait never ends: unless `done` is set within two
  /// minutes, `writeMinusOne` (a plain write of -1 to what it reads) ends it, and the test
  /// fails on the value instead of hanging the suite. (Generous: parallel suites can keep the
  /// iterating task off the cooperative pool's two threads for tens of seconds.)
  private func unblockAfterTwoMinutes(
    unless done: LockedBox<Bool>, by writeMinusOne: @escaping @Sendable () -> Void
  ) {
    Thread.detachNewThread {
      for _ in 0..<12_000 where !done.value { usleep(10_000) }
      if !done.value { writeMinusOne() }
    }
  }
}
