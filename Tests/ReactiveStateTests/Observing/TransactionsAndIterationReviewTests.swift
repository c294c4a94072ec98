import Foundation
import Observation
import ReactiveState
import Testing

/// Defects a review found in iteration, untracked writes and transactions, kept fixed.
@Suite struct TransactionsAndIterationReviewTests {
  /// "Task cancellation ends the iteration (`nil`)" — also when a change is already waiting,
  /// as for a consumer that writes what it observes; such a loop used to run on forever.
  @Test func aCancelledConsumerThatWritesWhatItObservesStops() async {
    let model = HandModel()
    let elements = await Task { () -> Int in
      var iterator = ObservedValues { model.a }.makeAsyncIterator()
      var count = 0
      while let value = await iterator.next() {
        count += 1
        if count == 3 { withUnsafeCurrentTask { $0?.cancel() } }
        if count == 1_000 { break }  // a guard against the old endless loop
        model.a = value + 1
      }
      return count
    }.value
    #expect(elements == 3, "the next() after the cancellation returns nil")
  }

  /// The same side by side with the toolchain's `Observations` (the oracle).
  @Test func nextOnACancelledTaskReturnsNilEvenWithAChangeWaiting() async {
    let oracle = OracleModel()
    let model = HandModel()
    let (oracleValue, value) = await Task { () -> (Int?, Int?) in
      var oracleIterator = Observations { oracle.a }.makeAsyncIterator()
      var iterator = ObservedValues { model.a }.makeAsyncIterator()
      _ = await oracleIterator.next()
      _ = await iterator.next()
      oracle.a = 1
      model.a = 1
      withUnsafeCurrentTask { $0?.cancel() }
      return (await oracleIterator.next(), await iterator.next())
    }.value
    #expect(oracleValue == nil)
    #expect(value == nil)
  }

  /// A body that writes what it read inside `withoutObservationTracking` still invalidates
  /// itself: it is stopped at the rerun limit (it used to loop forever, the write unseen).
  /// `readsOne`: one read (the observer parks in the slot) or two (it is linked). `nested`:
  /// the write is inside a second untracked block, which must keep the run's scope suspended.
  @Test(arguments: [true, false], [false, true])
  func aSelfInvalidatingWriteInsideAnUntrackedBlockIsStopped(readsOne: Bool, nested: Bool) {
    let model = HandModel()
    let runs = Box(0)
    var token: ObservationToken?
    let reported = ObservationDiagnostics.capture {
      token = observe {
        runs.value += 1
        let value = readsOne ? model.a : model.a + model.b
        guard runs.value < 10_000 else { return }  // a guard against the old endless loop
        withoutObservationTracking {
          if nested {
            withoutObservationTracking { model.a = value + 1 }
          } else {
            model.a = value + 1
          }
        }
      }
    }
    #expect(runs.value == continuousRerunLimit + 1)
    #expect(reported.count == 1)
    withExtendedLifetime(token) {}
  }

  /// Observer i copies `models[i].a` into `models[i + 1].a`: an acyclic chain longer than the
  /// rerun limit completes inside a transaction as outside one. The end of a transaction used
  /// to count its rounds and abandon round 101 as a cycle, though no observer ran twice.
  @Test(arguments: [false, true])
  func aLongAcyclicCascadeCompletes(inTransaction: Bool) {
    let length = continuousRerunLimit + 20
    let models = (0...length).map { _ in HandModel() }
    let tokens = (0..<length).map { i in observe { models[i + 1].a = models[i].a } }
    let reported = ObservationDiagnostics.capture {
      if inTransaction { withTransaction { models[0].a = 1 } } else { models[0].a = 1 }
    }
    #expect(models[length].a == 1)
    #expect(reported.isEmpty, "\(reported.map(\.message))")
    withExtendedLifetime(tokens) {}
  }

  /// The acyclic chain of `aLongAcyclicCascadeCompletes`, plus one observer that reads every
  /// link (a progress display, say). The chain re-queues it once per round, so it runs once per
  /// link, more than the limit, though nothing is cyclic: it must end up seeing the final state
  /// (as outside a transaction), and no cycle may be reported.
  @Test(arguments: [false, true])
  func aSummaryObserverOfALongAcyclicCascadeSeesItsEnd(inTransaction: Bool) {
    let length = continuousRerunLimit + 20
    let models = (0...length).map { _ in HandModel() }
    let tokens = (0..<length).map { i in observe { models[i + 1].a = models[i].a } }
    let lastSum = LockedBox(-1)
    let summary = observe { lastSum.value = models.reduce(0) { $0 + $1.a } }
    let reported = ObservationDiagnostics.capture {
      if inTransaction { withTransaction { models[0].a = 1 } } else { models[0].a = 1 }
    }
    #expect(models[length].a == 1)
    #expect(lastSum.value == length + 1, "the summary observer missed the end of the cascade")
    #expect(reported.isEmpty, "\(reported.map(\.message))")
    withExtendedLifetime((tokens, summary)) {}
  }

  /// A transaction's drain that gives up on observers re-queueing each other used to abandon
  /// everything queued in that round, including an observer reached there for the first
  /// time: its change was lost (here `reader` never saw `c` become 102).
  @Test func theRoundThatStopsACycleStillRunsAnObserverReachedForTheFirstTime() {
    let model = HandModel()
    let seen = LockedBox(-1)
    let reader = observe { seen.value = model.c }
    let forward = observe {
      let a = model.a
      if a > 0 { model.b = a + 1 }
    }
    let back = observe {
      let b = model.b
      if b > 0 && b < 400 { model.a = b + 1 }
      if b == 102 { model.c = b }
    }
    let reports = ObservationDiagnostics.capture { withTransaction { model.a = 1 } }
    #expect(model.c == 102)
    #expect(seen.value == 102)
    #expect(reports.contains { $0.message.contains("kept invalidating each other") })
    for token in [reader, forward, back] { token.cancel() }
  }

  /// A cancelled iteration cancels its observer's registration at once, not when the
  /// iterator goes (it used to stay registered while the iterator was kept, e.g. in a
  /// property).
  @Test func aCancelledIterationEndsItsRegistrationWhileTheIteratorIsKept() async {
    let model = HandModel()
    let kept = LockedBox<ObservedValues<Int, Never>.Iterator?>(
      ObservedValues { model.a }.makeAsyncIterator())
    let isWaiting = waitingConsumerProbe(of: kept.value!)
    let task = Task { [kept] () -> Int? in
      var iterator = kept.value!
      _ = await iterator.next()  // the initial value
      let next = await iterator.next()  // cancelled while it waits
      kept.value = iterator
      return next
    }
    for _ in 0..<120_000 where !isWaiting() { try? await Task.sleep(nanoseconds: 1_000_000) }
    #expect(isWaiting())
    #expect(model.aDidSetListeners == 1)
    task.cancel()
    #expect(await task.value == nil)
    #expect(kept.value != nil)
    #expect(model.aDidSetListeners == 0, "the cancelled iteration is still registered")
  }
}
