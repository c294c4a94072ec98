import ReactiveState
import Testing

/// Two documented choices (README, "Deliberate differences" and the observer limits): the
/// delivery order of a property's observers once a transaction reached a parked one, and
/// the bound on chains of scheduled runs, which counts runs and does not look for a repeat.
@Suite struct DeliveryOrderAndChainTests {
  /// A one-property observer that came first is parked in the slot and runs first; a write
  /// inside a transaction subscribes it after the observers already subscribed, and it keeps
  /// that later turn. (Observation promises no order among observers.)
  @Test func aTransactionGivesAParkedObserverTheLastTurn() {
    let model = HandModel()
    let log = Box<[String]>([])
    let parked = observe { log.value.append("parked \(model.a)") }
    let linked = observe { log.value.append("linked \(model.a)\(model.b)") }
    log.value.removeAll()
    model.a = 1
    #expect(log.value == ["parked 1", "linked 10"])
    log.value.removeAll()
    withTransaction { model.a = 2 }
    #expect(log.value == ["linked 20", "parked 2"])
    log.value.removeAll()
    model.a = 3
    #expect(log.value == ["linked 30", "parked 3"])
    withExtendedLifetime((parked, linked)) {}
  }

  /// A pipeline of more scheduled observers than the bound, each copying the previous
  /// model's value, stops at the bound with a diagnostic that names the pipeline case; the
  /// same pipeline without schedulers, written in a transaction, reaches its end.
  @Test func aScheduledPipelineLongerThanTheBoundStopsAndAnUnscheduledOneDoesNot() {
    let stages = continuousRerunLimit + 20
    let scheduler = ManualScheduler()
    let scheduledModels = (0...stages).map { _ in HandModel() }
    let scheduled = (0..<stages).map { index in
      observe(scheduler: scheduler) { scheduledModels[index + 1].a = scheduledModels[index].a }
    }
    _ = scheduler.flush()
    let reported = ObservationDiagnostics.capture {
      scheduledModels[0].a = 1
      _ = scheduler.flush()
    }.map(\.message)
    #expect(scheduledModels[continuousRerunLimit].a == 1)
    #expect(scheduledModels[stages].a == 0)
    #expect(reported.contains { $0.contains("scheduled observers each feeding the next") })

    let plainModels = (0...stages).map { _ in HandModel() }
    let plain = (0..<stages).map { index in
      observe { plainModels[index + 1].a = plainModels[index].a }
    }
    withTransaction { plainModels[0].a = 1 }
    #expect(plainModels[stages].a == 1)
    withExtendedLifetime((scheduled, plain)) {}
  }

  /// A main-actor observer at the end of a chain of scheduled runs exactly as long as the bound
  /// (its own run the 100th in a row) still runs: the hop's check is the scheduler's (the
  /// session-41 mutation round: an off-by-one there went unnoticed). The chain runs on a
  /// thread other than the main one, so the main-actor observer's run hops.
  @Test func aMainActorObserverEndingAChainOfExactlyTheBoundRuns() async {
    let scheduler = ManualScheduler()
    let stages = continuousRerunLimit - 1
    let (models, chain) = scheduledCopyChain(stages: stages, through: scheduler)
    let seen = LockedBox<[Int]>([])
    let last = await MainActor.run {
      observe { @MainActor in seen.value.append(models[stages].a) }
    }
    await onNewThread {
      models[0].a = 1
      _ = scheduler.flush()
    }
    // The hop is a main-actor task: wait for it (up to a minute, for loaded sanitizer runs).
    for _ in 0..<60_000 where seen.value.count < 2 {
      try? await Task.sleep(nanoseconds: 1_000_000)
    }
    #expect(models[stages].a == 1)
    #expect(seen.value == [0, 1], "the 100th scheduled run in a row is within the bound")
    withExtendedLifetime((chain, last)) {}
  }
}

/// `stages` observers on `scheduler`, each copying `models[i].a` into `models[i + 1].a`: a
/// write of `models[0].a` then runs them as a chain of `stages` scheduled runs in a row.
func scheduledCopyChain(stages: Int, through scheduler: ManualScheduler)
  -> (models: [HandModel], tokens: [ObservationToken])
{
  let models = (0...stages).map { _ in HandModel() }
  let tokens = (0..<stages).map { index in
    observe(scheduler: scheduler) { models[index + 1].a = models[index].a }
  }
  _ = scheduler.flush()
  return (models, tokens)
}
