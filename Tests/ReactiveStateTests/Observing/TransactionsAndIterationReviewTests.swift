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
  /// `readsOne`: one read (the observer parks in the slot) or two (it is linked).
  @Test(arguments: [true, false])
  func aSelfInvalidatingWriteInsideAnUntrackedBlockIsStopped(readsOne: Bool) {
    let model = HandModel()
    let runs = Box(0)
    var token: ObservationToken?
    let reported = ObservationDiagnostics.capture {
      token = observe {
        runs.value += 1
        let value = readsOne ? model.a : model.a + model.b
        if runs.value < 10_000 {  // a guard against the old endless loop
          withoutObservationTracking { model.a = value + 1 }
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

}
