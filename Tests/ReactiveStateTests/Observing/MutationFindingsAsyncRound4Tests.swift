import Foundation
import Observation
import ReactiveState
import Testing

/// An actor that starts an observation for a caller outside it, who keeps the token.
private actor TokenlessHost {}

/// An actor whose observation reads a weakly held model and records `other.a` on each run.
private actor DeallocationRecorder {
  var seen: [Int] = []
  var token: ObservationToken?

  func start(_ holder: WeakHandModel, _ other: HandModel) {
    token = observe(isolation: self) {
      self.seen.append(other.a)
      _ = holder.model?.a
    }
  }
}

/// Behaviour of ``ObservedValues``, the actor-isolated and scheduled observation entry points
/// and ``ManualScheduler`` that the fourth mutation-testing round of the observing layer found
/// unpinned.
@Suite struct MutationFindingsAsyncRound4Tests {
  /// `observe(isolation:)` holds its actor weakly: once the actor is gone, a change to what
  /// the body read queues no run (it could only run there), even while a caller outside the
  /// actor still keeps the token — and never runs the body on the writing thread instead.
  @Test func aChangeAfterTheActorIsGoneRunsNothing() async {
    let model = HandModel()
    let runs = AtomicCounter()
    var host: TokenlessHost? = TokenlessHost()
    weak let weakHost = host
    let token = await observe(isolation: host!) {
      runs.increment()
      _ = model.a
    }
    #expect(runs.value == 1)
    host = nil
    // The executor may let go of the actor a moment after the call returned.
    #expect(await yield { weakHost == nil }, "the token does not keep the actor")
    model.a = 1
    #expect(runs.value == 1, "the body ran after its actor was gone")
    token.cancel()
  }

  /// ``ManualScheduler`` counts queued runs one per observer (each scheduled observer has its
  /// own coalesced run), and ``ManualScheduler/flush()`` returns how many ran, every one of a
  /// batch counted.
  @Test func aManualSchedulerCountsEveryQueuedRun() {
    let model = HandModel()
    let scheduler = ManualScheduler()
    let seen = Box<[String]>([])
    let first = observe(scheduler: scheduler) { seen.value.append("first \(model.a)") }
    let second = observe(scheduler: scheduler) { seen.value.append("second \(model.a)") }
    seen.value = []
    model.a = 1
    model.a = 2
    #expect(scheduler.pendingCount == 2, "one coalesced run per observer")
    #expect(scheduler.flush() == 2)
    #expect(seen.value == ["first 2", "second 2"])
    #expect(scheduler.pendingCount == 0)
    withExtendedLifetime((first, second)) {}
  }

  /// `observe` runs again for changes only: the deallocation of a model its last run read is
  /// no change (only an ``ObservedValues`` iteration's observer counts it as one, so that its
  /// closure can end the sequence). With `Observation` (the oracle), the deallocation of what
  /// `withObservationTracking` read does not call `onChange` either.
  @Test func theDeallocationOfWhatARunReadDoesNotRunItAgain() {
    var oracleModel: OracleModel? = OracleModel()
    weak let weakOracle = oracleModel
    let oracleChanges = AtomicCounter()
    Observation.withObservationTracking {
      _ = weakOracle?.a
    } onChange: {
      oracleChanges.increment()
    }
    oracleModel = nil
    #expect(weakOracle == nil)
    #expect(oracleChanges.value == 0)

    var model: HandModel? = HandModel()
    let holder = WeakHandModel(model)
    let runs = Box(0)
    let token = observe {
      runs.value += 1
      _ = holder.model?.a
    }
    #expect(runs.value == 1)
    model = nil
    #expect(holder.model == nil)
    #expect(runs.value == 1, "the deallocation ran the observer again")
    token.cancel()
  }

  /// A parked change whose only cause is a derived value that recomputes to an equal value
  /// is cut off: its re-evaluation does not run `emit`, and `next()` must not return the
  /// element it returned before (a stale duplicate) but wait for a real change. Were the
  /// consumed outcome kept, the old element would come back at once; the write of 3, made
  /// only once the consumer waits (or never, once `next()` returned), ends the wait.
  @Test func aCutOffReevaluationReturnsNoStaleElement() async {
    let model = HandModel()
    let parity = Computed { model.a % 2 }
    let evaluations = LockedBox(0)
    var iterator = ObservedValues { () -> Int in
      evaluations.value += 1
      return parity.value
    }.makeAsyncIterator()
    #expect(await iterator.next() == 0)
    model.a = 2  // the parity recomputes to 0: cut off
    let isWaiting = waitingConsumerProbe(of: iterator)
    let done = LockedBox(false)
    let wrote = LockedBox(false)
    Thread.detachNewThread {
      for _ in 0..<120_000 where !done.value && !isWaiting() { usleep(1_000) }
      guard !done.value else { return }
      wrote.value = true
      model.a = 3
    }
    let next = await iterator.next()
    done.value = true
    #expect(next == 1, "the previous element came back")
    #expect(wrote.value, "the consumer waited for the real change")
    #expect(evaluations.value == 2, "the cut-off change evaluated nothing")
  }

  /// `observe(isolation:)` runs again for changes only: the deallocation of a model its last
  /// run read queues no run on the actor (as for `observe`). A run queued by it would have
  /// had time to run during the yields, and would have recorded `other.a` before the later
  /// change: `[0, 0, 1]` instead of `[0, 1]`.
  @Test func theDeallocationOfWhatAnActorRunReadQueuesNoRun() async {
    var model: HandModel? = HandModel()
    let holder = WeakHandModel(model)
    let other = HandModel()
    let recorder = DeallocationRecorder()
    await recorder.start(holder, other)
    model = nil
    #expect(holder.model == nil)
    for _ in 0..<1_000 { await Task.yield() }
    await onNewThread { other.a = 1 }
    #expect(await yield { await recorder.seen.last == 1 })
    #expect(await recorder.seen == [0, 1], "the deallocation ran the body again")
  }

  /// The main-actor event form delivers the kinds in its `options`, not only `.didSet`: on
  /// the main thread a `.willSet` arrives synchronously, before the store (it sees the old
  /// value), and no `.didSet` follows when only `.willSet` was asked for.
  @MainActor @Test func theMainActorEventFormDeliversTheRequestedKinds() {
    let model = HandModel()
    let seen = Box<[String]>([])
    actingAsMainThread { () -> Void in
      let token = withContinuousObservation(options: [.willSet]) { @MainActor event in
        seen.value.append("\(event.kind) a=\(model.a)")
      }
      model.a = 1
      #expect(seen.value == ["initial a=0", "willSet a=0"])
      token.cancel()
    }
  }

  /// Iterations whose evaluations keep changing each other (`first` reads `a` and writes `b`,
  /// `second` reads `b` and writes `a`) are a chain of scheduled runs like any other: past the
  /// bound, the write that would extend it is dropped with a diagnostic naming the iteration,
  /// as the sequence's contract states. Each `next()` finds the other's change parked, so the
  /// loop never waits; were iterations exempt from the bound, it would run to its own limit
  /// with no drop.
  @Test func iterationsThatKeepChangingEachOtherAreStoppedAtTheBound() async {
    let model = HandModel()
    let reports = LockedBox<[String]>([])
    var first = ObservedValues { () -> Int in
      let a = model.a
      reports.value += ObservationDiagnostics.capture { model.b = a + 1 }.map(\.message)
      return a
    }.makeAsyncIterator()
    var second = ObservedValues { () -> Int in
      let b = model.b
      reports.value += ObservationDiagnostics.capture { model.a = b + 1 }.map(\.message)
      return b
    }.makeAsyncIterator()
    var elements = 0
    while reports.value.isEmpty && elements < continuousRerunLimit * 4 {
      let next = await (elements.isMultiple(of: 2) ? first.next() : second.next())
      guard next == elements else { break }
      elements += 1
    }
    #expect(reports.value.count == 1, "the chain was never stopped")
    #expect(reports.value.first?.contains("ObservedValues was stopped after") == true)
    // Two first evaluations (no scheduled runs), then 100 scheduled runs in a row: the write
    // the last of them makes is the one dropped.
    #expect(elements == continuousRerunLimit + 2)
  }
}
