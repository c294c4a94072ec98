import Dispatch
import Foundation
import ReactiveState
import Testing

/// `observe { @MainActor in … }` when the main thread changes what it read while a run that
/// another thread's change queued still waits for its hop: the contract runs the body on the
/// main thread right after that change (or at the end of the main thread's transaction), not
/// later with the hop. The Linux harness runs the main actor off the process's main thread,
/// so these tests let the main-actor thread stand in for it (`actingAsMainThread`).
@Suite struct MainActorHopTakeoverTests {
  /// What each run of the body saw.
  @MainActor final class Runs {
    var seen: [String] = []
  }

  /// How another thread queues the hop that the main thread's change takes over.
  enum HopQueuedBy: CaseIterable, Sendable {
    /// One write.
    case oneWrite
    /// Two writes: the second finds the run queued by the first.
    case twoWrites
    /// The end of a transaction that holds the write.
    case transactionEnd
  }

  @MainActor @Test(arguments: HopQueuedBy.allCases)
  func aMainThreadChangeRunsTheBodyAtOnceWhileAHopIsPending(queuedBy: HopQueuedBy) async {
    let model = HandModel()
    let runs = Runs()
    let token = actingAsMainThread {
      let token = observe { @MainActor in runs.seen.append("a=\(model.a)") }
      // Queues a hop this test's main actor cannot run yet.
      onAnotherThread {
        switch queuedBy {
        case .oneWrite:
          model.a = 1
        case .twoWrites:
          model.a = 1
          model.a = -1
        case .transactionEnd:
          withTransaction { model.a = 1 }
        }
      }
      model.a = 2
      #expect(runs.seen == ["a=0", "a=2"], "run at once, on the main thread")
      return token
    }
    // The hop has nothing left to run.
    for _ in 0..<100 { await Task.yield() }
    #expect(runs.seen == ["a=0", "a=2"])
    withExtendedLifetime(token) {}
  }

  @MainActor @Test func aMainThreadTransactionRunsTheBodyAtItsEndWhileAHopIsPending() async {
    let model = HandModel()
    let runs = Runs()
    let token = actingAsMainThread {
      let token = withContinuousObservation(options: [.didSet]) { @MainActor event in
        runs.seen.append("\(event.kind == .initial ? "initial" : "change") a=\(model.a)")
      }
      onAnotherThread { model.a = 1 }
      withTransaction {
        model.a = 2
        model.a = 3
        #expect(runs.seen == ["initial a=0"])  // not before the transaction's end
      }
      #expect(runs.seen == ["initial a=0", "change a=3"])
      return token
    }
    for _ in 0..<100 { await Task.yield() }
    #expect(runs.seen == ["initial a=0", "change a=3"])
    withExtendedLifetime(token) {}
  }

  /// The hop abandoned by a takeover must not run a later queued run: here one waiting in
  /// another thread's open transaction, which would then see half of that transaction.
  @MainActor @Test func anAbandonedHopDoesNotRunAnotherThreadsTransactionEarly() async {
    let model = HandModel()
    let runs = Runs()
    let token = actingAsMainThread {
      let token = observe { @MainActor in runs.seen.append("a=\(model.a) b=\(model.b)") }
      onAnotherThread { model.a = 1 }
      model.a = 2  // takes the queued run over; its hop is still scheduled
      return token
    }
    #expect(runs.seen == ["a=0 b=0", "a=2 b=0"])
    let wrote = DispatchSemaphore(value: 0)
    let proceed = DispatchSemaphore(value: 0)
    let finished = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      withTransaction {
        model.a = 10
        wrote.signal()
        proceed.wait()
        model.b = 20
      }
      finished.signal()
    }
    while wrote.wait(timeout: .now()) == .timedOut { await Task.yield() }
    for _ in 0..<100 { await Task.yield() }  // the abandoned hop runs now
    proceed.signal()
    while finished.wait(timeout: .now()) == .timedOut { await Task.yield() }
    for _ in 0..<10_000 where runs.seen.count < 3 { await Task.yield() }
    #expect(runs.seen == ["a=0 b=0", "a=2 b=0", "a=10 b=20"])
    withExtendedLifetime(token) {}
  }

  /// A takeover makes the run a main-thread change of its own, not the end of the chain of
  /// scheduled runs that queued the hop: what the run then changes starts a new chain. Here
  /// the hop ends a chain of 99 scheduled runs (one short of the bound), the main thread takes
  /// it over in a transaction, and the run's write reaches a scheduled observer, which runs
  /// (a survivor of the session-41 mutation round: keeping the chain's depth dropped it as
  /// the 101st run in a row, with a misleading diagnostic).
  @MainActor @Test func aTakenOverRunStartsANewChainOfScheduledRuns() {
    let chainScheduler = ManualScheduler()
    let stages = continuousRerunLimit - 1
    let (models, chain) = scheduledCopyChain(stages: stages, through: chainScheduler)
    let relay = HandModel()
    let downstreamScheduler = ManualScheduler()
    let downstreamSeen = LockedBox<[Int]>([])
    let downstream = observe(scheduler: downstreamScheduler) {
      downstreamSeen.value.append(relay.a)
    }
    let reported = actingAsMainThread { () -> [ObservationDiagnostic] in
      let token = observe { @MainActor in relay.a = models[stages].a }
      // Another thread's chain queues the main-actor run's hop, 99 scheduled runs deep.
      onAnotherThread {
        models[0].a = 1
        _ = chainScheduler.flush()
      }
      let reported = ObservationDiagnostics.capture {
        withTransaction { models[stages].a = 5 }
        _ = downstreamScheduler.flush()
      }
      withExtendedLifetime(token) {}
      return reported
    }
    #expect(relay.a == 5)
    #expect(downstreamSeen.value == [0, 5], "the downstream observer ran")
    #expect(reported.isEmpty, "no scheduling-loop diagnostic")
    withExtendedLifetime((chain, downstream)) {}
  }
}
