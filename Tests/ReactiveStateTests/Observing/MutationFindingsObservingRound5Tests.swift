import ReactiveState
import Testing

/// Behaviour of the observing layer that the fifth mutation-testing round (transactions,
/// the scheduling bound, main-thread takeovers, the parking lot of `ObservedValues` and
/// cancellation from inside a run) found unpinned.
@Suite struct MutationFindingsObservingRound5Tests {
  /// An observer cancelled from inside its own run (the run is in progress, so the
  /// cancellation retains the observer for it) releases that retain when the run ends: once
  /// its token is gone too, the body and what it captured are freed. Later changes run
  /// nothing.
  @Test func anObserverCancelledFromInsideItsRunIsFreedWithItsToken() {
    let model = HandModel()
    let runs = Box(0)
    let watch = CanaryWatch()
    var token: ObservationToken? = {
      let canary = Canary()
      watch.canary = canary
      return withContinuousObservation(options: .didSet) { event in
        withExtendedLifetime(canary) {}
        _ = model.a
        runs.value += 1
        if event.kind == .didSet { event.cancel() }
      }
    }()
    #expect(watch.isAlive)
    model.a = 1
    model.a = 2  // its run cancels the observation
    model.a = 3
    #expect(runs.value == 2, "cancelled during its second run")
    token = nil
    #expect(!watch.isAlive, "the run kept the retain its cancellation took")
    withExtendedLifetime(token) {}
  }

  /// A run that deallocates a model it read (here it replaces the model, a `.deinit` trigger
  /// being asked for) changes what it read itself, as a run writing a property it read
  /// does: the contract stops such a run after ``continuousRerunLimit`` re-runs in a row,
  /// with the self-invalidation diagnostic. (The bug, fixed in session 43: only runs that
  /// *wrote* an observed property counted toward the limit, so this loop never stopped; the
  /// body gives up by itself after three times the limit so that the test cannot hang.)
  @Test func aRunThatDeallocatesWhatItReadIsStoppedAtTheRerunLimit() {
    let holder = Box(HandModel())
    let runs = Box(0)
    let reported = ObservationDiagnostics.capture {
      let token = withContinuousObservation(options: [.didSet, .deinit]) { _ in
        runs.value += 1
        guard runs.value <= continuousRerunLimit * 3 else { return }
        _ = holder.value.a
        holder.value = HandModel()  // deallocates the model just read
      }
      token.cancel()
    }
    #expect(runs.value > 1, "the deallocation ran the observer again")
    #expect(runs.value == continuousRerunLimit + 1)
    #expect(
      reported.map(\.message).contains {
        $0.contains("invalidated itself") && $0.contains("deallocating an object")
      })
  }

  /// A main-actor run whose hop another thread queued, taken over by a main-thread
  /// transaction, waits in that transaction: a change to another property it read, later in
  /// the transaction, finds the run waiting there and takes nothing over again. Each
  /// takeover leaves one hop job with nothing to run; a takeover counted twice would make a
  /// later hop, queued by another thread's change, find nothing to run as well, and that
  /// change would never reach the body.
  @MainActor @Test func aHopQueuedAfterATransactionTookARunOverStillRunsTheBody() async {
    let model = HandModel()
    let seen = LockedBox<[Int]>([])
    let token = actingAsMainThread {
      let token = observe { @MainActor in seen.value.append(model.a + model.b) }
      onAnotherThread { model.a = 1 }  // queues a hop this test's main actor cannot run yet
      withTransaction {
        model.a = 2  // takes the queued run over: it waits for the transaction's end
        model.b = 10  // finds it waiting there
      }
      return token
    }
    #expect(seen.value == [0, 12])
    await onNewThread { model.a = 4 }  // queues a new hop
    for _ in 0..<20_000 where seen.value.count < 3 { await Task.yield() }
    #expect(seen.value == [0, 12, 14], "the new hop ran nothing")
    withExtendedLifetime(token) {}
  }

  /// Event observers that keep re-queueing each other at the end of a transaction are stopped
  /// with a diagnostic that names the change the stopped one was queued for (an event body
  /// keeps the key path of its pending change), not just "an observed value".
  @Test func theDiagnosticOfObserversStoppedAtATransactionsEndNamesTheLastChange() {
    let model = HandModel()
    let forward = withContinuousObservation(options: .didSet) { _ in
      let a = model.a
      if a > 0 { model.b = a + 1 }
    }
    let back = withContinuousObservation(options: .didSet) { _ in
      let b = model.b
      if b > 0 { model.a = b + 1 }
    }
    let reported = ObservationDiagnostics.capture { withTransaction { model.a = 1 } }
      .map(\.message)
    let stopped = reported.filter { $0.contains("kept invalidating each other") }
    #expect(stopped.count == 1)
    let names = [\HandModel.a, \HandModel.b].map { "last change: \(String(describing: $0))." }
    #expect(stopped.allSatisfy { message in names.contains { message.contains($0) } })
    withExtendedLifetime((forward, back)) {}
  }
}
