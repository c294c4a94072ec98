import ReactiveState
import Testing

/// Transactions coalesce continuous deliveries; untracked reads record nothing.
@Suite struct TransactionAndUntrackedTests {
  @Test func eachObserverRunsOnceAtTheEndOfTheOutermostTransactionSeeingAllNewValues() {
    let model = HandModel()
    let seen = Box<[String]>([])
    let token = observe { seen.value.append("\(model.a),\(model.b)") }
    withTransaction {
      model.a = 1
      withTransaction { model.b = 2 }
      #expect(seen.value == ["0,0"], "nothing runs inside the transaction, nested ones included")
      model.a = 3
    }
    #expect(seen.value == ["0,0", "3,2"], "one run, no glitch (never 1,0 or 3,0)")
    model.a = 4
    #expect(
      seen.value.last == "4,2", "outside a transaction, delivery is at the end of the mutation")
    withExtendedLifetime(token) {}
  }

  /// The documented rule for a transaction that throws: its mutations were made, so its
  /// observers still run, once, and later changes still reach them.
  @Test func aTransactionThatThrowsStillDelivers() {
    struct Abandoned: Error {}
    let model = HandModel()
    let seen = Box<[String]>([])
    let token = observe { seen.value.append("\(model.a),\(model.b)") }
    #expect(throws: Abandoned.self) {
      try withTransaction { () throws(Abandoned) in
        model.a = 1
        model.b = 2
        throw Abandoned()
      }
    }
    #expect(seen.value == ["0,0", "1,2"])
    model.a = 3
    #expect(seen.value.last == "3,2")
    withExtendedLifetime(token) {}
  }

  @Test func aScheduledObserverIsHandedToItsSchedulerWhenTheTransactionEnds() {
    let model = HandModel()
    let scheduler = ManualScheduler()
    let seen = Box<[String]>([])
    let token = observe(scheduler: scheduler) { seen.value.append("\(model.a),\(model.b)") }
    withTransaction {
      model.a = 1
      model.b = 2
    }
    #expect(seen.value == ["0,0"], "the transaction's end does not run it on this thread")
    #expect(scheduler.pendingCount == 1, "it waits in its scheduler, once")
    #expect(scheduler.flush() == 1)
    #expect(seen.value == ["0,0", "1,2"], "one run with the transaction's final values")
    withExtendedLifetime(token) {}
  }

  @Test func oneShotObserversKeepTheirWillSetSemanticsInsideTransactions() {
    let model = HandModel()
    let fired = Box<[Int]>([])
    ReactiveState.withObservationTracking(
      { _ = model.a }, onChange: { fired.value.append(model.a) })
    withTransaction {
      model.a = 1
      #expect(fired.value == [0], "fired inside the transaction, before the store")
    }
  }

  @Test func untrackedReadsRecordNothing() {
    let model = HandModel()
    let fired = Box(0)
    ReactiveState.withObservationTracking(
      {
        _ = withoutObservationTracking { model.a }
        _ = model.b
      }, onChange: { fired.value += 1 })
    model.a = 1
    #expect(fired.value == 0)
    model.b = 1
    #expect(fired.value == 1)

    let runs = Box(0)
    let token = observe {
      runs.value += 1
      _ = withoutObservationTracking { model.c }
    }
    model.c = 3
    #expect(runs.value == 1)
    withExtendedLifetime(token) {}
  }
}
