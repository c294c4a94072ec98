import Foundation
import ReactiveState
import Testing

/// `observe { }` and `withContinuousObservation`: re-runs, dynamic dependencies, isolation of
/// nested scopes, cancellation, and the self-invalidation bound.
@Suite struct ContinuousObservationTests {
  @Test func runsImmediatelyAndAfterEachCommittedChange() {
    let model = HandModel()
    let seen = Box<[Int]>([])
    let token = observe { seen.value.append(model.a) }
    model.a = 1
    model.a = 2
    model.b = 9  // not read
    #expect(seen.value == [0, 1, 2], "each run sees the committed value; unread b never re-runs")
    withExtendedLifetime(token) {}
  }

  @Test func dependenciesAreRecollectedOnEveryRun() {
    let model = HandModel()
    let runs = Box(0)
    let token = observe {
      runs.value += 1
      if model.a == 0 { _ = model.b } else { _ = model.c }
    }
    model.b = 1
    #expect(runs.value == 2, "b was read on the first run")
    model.a = 1
    #expect(runs.value == 3)
    model.b = 2
    #expect(runs.value == 3, "the branch reading b is no longer taken")
    model.c = 5
    #expect(runs.value == 4, "c is read now")
    withExtendedLifetime(token) {}
  }

  @Test func cancellingTheTokenOrDroppingItStopsRuns() {
    let model = HandModel()
    let runs = Box(0)
    let token = observe {
      runs.value += 1
      _ = model.a
    }
    model.a = 1
    token.cancel()
    model.a = 2
    #expect(runs.value == 2)

    var dropped: ObservationToken? = observe {
      runs.value += 1
      _ = model.b
    }
    #expect(runs.value == 3)
    dropped = nil
    model.b = 1
    #expect(runs.value == 3)
    _ = dropped
  }

  /// A body that read nothing can never run again, so nothing keeps it: what it captured is
  /// released while its token is still held (a body that read something is kept).
  @Test func anObserverThatReadNothingLetsGoOfItsBodyAtOnce() {
    let model = HandModel()
    let runs = Box(0)
    weak var unreadCapture: Canary?
    weak var readCapture: Canary?
    var tokens: [ObservationToken] = []
    do {
      let capture = Canary()
      unreadCapture = capture
      tokens.append(
        observe {
          runs.value += 1
          withExtendedLifetime(capture) {}
        })
      let kept = Canary()
      readCapture = kept
      tokens.append(
        observe {
          _ = model.a
          withExtendedLifetime(kept) {}
        })
    }
    #expect(runs.value == 1)
    #expect(unreadCapture == nil, "the body that read nothing is gone with its captures")
    #expect(readCapture != nil, "the body that read model.a waits for its change")
    model.a = 1
    tokens.removeAll()
    #expect(readCapture == nil)
    #expect(runs.value == 1)
  }

  /// `cancel()` lets go of the observation: a cycle through the body (an object keeping the
  /// token of an observer that captures it) ends there, while the token is still held.
  @Test func cancellingEndsACycleThroughTheBody() {
    final class Owner: @unchecked Sendable {
      let model = HandModel()
      var token: ObservationToken?
    }
    let runs = Box(0)
    weak var weakOwner: Owner?
    do {
      let owner = Owner()
      weakOwner = owner
      owner.token = observe {
        runs.value += 1
        _ = owner.model.a
      }
    }
    #expect(weakOwner != nil, "the owner keeps the token, whose body keeps the owner")
    weakOwner?.model.a = 1
    #expect(runs.value == 2)
    weakOwner?.token?.cancel()
    #expect(weakOwner == nil, "cancelling released the body, and the owner with it")
  }

  /// The same with a run waiting in the observer's scheduler: the scheduled job does not keep
  /// the body (it held the observer, so a scheduler that never ran kept the cycle for good).
  @Test func cancellingWithARunQueuedInItsSchedulerEndsACycleThroughTheBody() {
    final class Owner: @unchecked Sendable {
      let model = HandModel()
      var token: ObservationToken?
    }
    let scheduler = ManualScheduler()
    let runs = Box(0)
    weak var weakOwner: Owner?
    do {
      let owner = Owner()
      weakOwner = owner
      owner.token = observe(scheduler: scheduler) {
        runs.value += 1
        _ = owner.model.a
      }
    }
    weakOwner?.model.a = 1  // a run waits in the scheduler
    weakOwner?.token?.cancel()
    #expect(weakOwner == nil, "cancelling released the body, and the owner with it")
    #expect(scheduler.flush() == 1, "the job is still there")
    #expect(runs.value == 1, "and runs nothing")
  }

  /// A run in progress on another thread keeps the body until it ends; `cancel()` returns at
  /// once and the body goes with the run's end.
  @Test func cancellingDuringARunReleasesTheBodyWhenTheRunEnds() {
    let model = HandModel()
    let entered = DispatchSemaphore(value: 0)
    let proceed = DispatchSemaphore(value: 0)
    let finished = DispatchSemaphore(value: 0)
    let blocks = Box(false)
    weak var weakCapture: Canary?
    var token: ObservationToken?
    do {
      let capture = Canary()
      weakCapture = capture
      token = observe {
        _ = model.a
        withExtendedLifetime(capture) {}
        if blocks.value {
          entered.signal()
          proceed.wait()
        }
      }
    }
    blocks.value = true
    DispatchQueue.global().async {
      model.a = 1
      finished.signal()
    }
    entered.wait()
    token?.cancel()
    #expect(weakCapture != nil, "the running body still holds what it captured")
    proceed.signal()
    finished.wait()
    #expect(weakCapture == nil, "the run's end released the cancelled body")
    withExtendedLifetime(token) {}
  }

  /// Tokens are equal only to themselves, so a set keeps each once (`store(in:)`, as with
  /// Combine's cancellables); emptying the set ends the observations.
  @Test func tokensStoredInASetLiveAsLongAsTheSet() {
    let model = HandModel()
    let runs = Box(0)
    var tokens = Set<ObservationToken>()
    observe {
      runs.value += 1
      _ = model.a
    }.store(in: &tokens)
    do {
      let second = observe {
        runs.value += 1
        _ = model.a
      }
      second.store(in: &tokens)
      second.store(in: &tokens)
      #expect(tokens.count == 2, "two tokens, the second stored twice")
      #expect(tokens.contains(second))
      #expect(tokens.filter { $0 == second }.count == 1)
    }
    model.a = 1
    #expect(runs.value == 4, "both ran first and once per change")
    tokens.removeAll()
    model.a = 2
    #expect(runs.value == 4)
  }

  @Test func nestedObserveScopesDoNotLeakIntoTheParent() {
    let model = HandModel()
    let outerRuns = Box(0)
    let innerRuns = Box(0)
    let inner = Box<ObservationToken?>(nil)
    let outer = observe {
      outerRuns.value += 1
      _ = model.a
      inner.value = observe {
        innerRuns.value += 1
        _ = model.b
      }
    }
    model.b = 1
    #expect(innerRuns.value == 2)
    #expect(outerRuns.value == 1, "the child's read of b is not the parent's dependency")
    model.a = 1
    #expect(outerRuns.value == 2)
    withExtendedLifetime(outer) {}
  }

  /// A model type used by this test only, so its diagnostic can be told apart from others
  /// reported by tests running in parallel (the diagnostics log is process-wide).
  final class SelfFeedingModel: ReactiveState.Observable, @unchecked Sendable {
    private let registrar = ReactiveState.ObservationRegistrar()
    private var _level = 0
    var level: Int {
      get {
        registrar.access(self, keyPath: \.level)
        return _level
      }
      set { registrar.withMutation(of: self, keyPath: \.level) { _level = newValue } }
    }
  }

  @Test func aSelfInvalidatingObserverStopsWithADiagnosticNamingTheKeyPath() {
    let model = SelfFeedingModel()
    let runs = Box(0)
    let (token, reported) = observeCapturingDiagnostics {
      runs.value += 1
      model.level += 1  // reads and writes level
    }
    #expect(runs.value == 101, "initial run + 100 bounded re-runs, then it stops")
    #expect(reported.count == 1)
    #expect(reported.first?.contains("SelfFeedingModel") == true)
    // The key path as Swift prints it: `\SelfFeedingModel.<computed 0x… (Int)>` (a
    // computed property's name is not available at run time).
    #expect(reported.first?.contains("\\SelfFeedingModel.") == true)
    #expect(reported.first?.contains("(Int)") == true)
    withExtendedLifetime(token) {}
  }

  @Test func continuousEventsCarryKindAndKeyPath() {
    let model = HandModel()
    let events = Box<[String]>([])
    let token = withContinuousObservation(options: [.willSet, .didSet]) { event in
      let name = event.matches(\HandModel.a) ? "a" : event.matches(\HandModel.b) ? "b" : "-"
      let a = withoutObservationTracking { model.a }
      events.value.append("\(event.kind) \(name) \(a)")
      _ = model.b
    }
    model.a = 1  // read untracked: no event
    model.b = 1
    #expect(events.value == ["initial - 0", "willSet b 1", "didSet b 1"])
    withExtendedLifetime(token) {}
  }

  /// One event per dying object, however many of its properties the run read.
  @Test func deinitEventIsDeliveredOncePerDyingObject() {
    let events = Box<[String]>([])
    var model: HandModel? = HandModel()
    let weakModel = Box<HandModel?>(model)
    let token = withContinuousObservation(options: [.deinit]) { event in
      events.value.append("\(event.kind)")
      _ = weakModel.value?.a
      _ = weakModel.value?.b
      _ = weakModel.value?.c
    }
    weakModel.value = nil
    model = nil
    #expect(events.value == ["initial", "deinit"])
    withExtendedLifetime(token) {}
  }

  @Test func manualSchedulerDefersAndCoalescesRuns() {
    let model = HandModel()
    let scheduler = ManualScheduler()
    let seen = Box<[Int]>([])
    let token = observe(scheduler: scheduler) { seen.value.append(model.a + model.b) }
    model.a = 1
    model.b = 2
    model.a = 3
    #expect(seen.value == [0], "nothing runs until the scheduler flushes")
    #expect(scheduler.pendingCount == 1, "three changes coalesce into one pending run")
    scheduler.flush()
    #expect(seen.value == [0, 5])
    withExtendedLifetime(token) {}
  }

  @Test func mainActorSchedulerRunsLaterOnTheMainActor() async {
    let model = HandModel()
    let runs = LockedBox<[String]>([])
    let done = LockedBox<CheckedContinuation<Void, Never>?>(nil)
    let token = observe(scheduler: .mainActor) {
      _ = model.a
      if runs.value.isEmpty {
        runs.value.append("initial, on the caller's thread")
        return
      }
      // Traps unless the scheduler really runs the body on the main actor.
      let a = model.a
      MainActor.assumeIsolated { runs.value.append("main, a=\(a)") }
      done.value?.resume()
    }
    await withCheckedContinuation { continuation in
      done.value = continuation
      model.a = 1
    }
    #expect(runs.value == ["initial, on the caller's thread", "main, a=1"])
    withExtendedLifetime(token) {}
  }

  @Test func mainActorSchedulerRunsAChangeMadeInATransactionOnTheMainActor() async {
    let model = HandModel()
    let runs = LockedBox<[String]>([])
    let done = LockedBox<CheckedContinuation<Void, Never>?>(nil)
    let token = observe(scheduler: .mainActor) {
      let (a, b) = (model.a, model.b)
      if runs.value.isEmpty {
        runs.value.append("initial")
        return
      }
      // Traps unless the transaction's end handed the run to the main actor.
      MainActor.assumeIsolated { runs.value.append("main, a=\(a), b=\(b)") }
      done.value?.resume()
    }
    await withCheckedContinuation { continuation in
      done.value = continuation
      Thread.detachNewThread {
        withTransaction {
          model.a = 1
          model.b = 2
        }
      }
    }
    #expect(runs.value == ["initial", "main, a=1, b=2"])
    withExtendedLifetime(token) {}
  }
}

/// Batched writes walk a source's subscribers once per wave; nothing may be missed.
@Suite struct ObservationWaveTests {
  @Test func batchedWritesRunEachObserverOnceAndLaterWritesStillReachIt() {
    let model = HandModel()
    let runs = Box([0, 0, 0])
    let tokens = (0..<3).map { index in
      observe {
        runs.value[index] += 1
        _ = model.a
      }
    }
    withTransaction { for i in 1...50 { model.a = i } }
    #expect(runs.value == [2, 2, 2])
    model.a = 100
    #expect(runs.value == [3, 3, 3])
    withExtendedLifetime(tokens) {}
  }

  @Test func anObserverStoppedByTheRerunLimitStillHearsLaterChanges() {
    let model = HandModel()
    let other = HandModel()
    let runs = Box(0)
    let token = observe {
      runs.value += 1
      if other.b == 0 { model.a += 1 }  // self-invalidating until `b` changes
      _ = model.a
    }
    #expect(runs.value == 101)
    other.b = 1
    #expect(runs.value == 102, "an outside change re-runs it")
    model.a = -5
    #expect(runs.value == 103)
    withExtendedLifetime(token) {}
  }

  /// Writes that find their property's last walk current skip the walk without the graph
  /// lock. Racing them on four threads — batched and single writes, observers linking and
  /// leaving, a derived subscriber — must never leave an observer on a stale value: once the
  /// threads are done, every observer (parked, linked, through a `Computed`) last saw the
  /// property's final value.
  @Test func lockFreeSkippedWalksLoseNoChangeUnderRacingThreads() {
    let trials = Reliability.count("REACTIVESTATE_WAVE_TRIALS", default: 40, sanitizedDivisor: 4)
    var stale = 0
    for trial in 0..<trials {
      let model = ReactiveProbeModel()  // lock-guarded storage: writers race
      let doubled = Computed { model.value * 2 }
      let seen = (0..<3).map { _ in LockedBox(-1) }
      let tokens = [
        observe { seen[0].value = model.value },
        observe { seen[1].value = model.value + model.other },
        observe { seen[2].value = doubled.value / 2 },
      ]
      let threads = DispatchGroup()
      for writer in 0..<4 {
        threads.enter()
        Thread.detachNewThread {
          for step in 0..<300 {
            let value = trial * 1_000_000 + step * 10 + writer
            switch (step + writer) % 3 {
            case 0: withTransaction { for k in 0..<5 { model.value = value * 8 + k } }
            case 1: model.value = value * 8
            default:
              let passing = observe { _ = model.value }
              model.value = value * 8 + 1
              passing.cancel()
            }
          }
          threads.leave()
        }
      }
      threads.wait()
      let final = model.value  // outside any tracking scope
      stale += seen.filter { $0.value != final }.count
      withExtendedLifetime(tokens) {}
    }
    #expect(stale == 0)
  }

  @Test func aDerivedValueReadOutsideAnyObserverIsInvalidatedAgain() {
    let model = HandModel()
    let doubled = Computed { model.a * 2 }
    let token = observe { _ = doubled.value }
    withTransaction {
      model.a = 1
      #expect(doubled.value == 2, "pulled inside the transaction")
      model.a = 2
      #expect(doubled.value == 4, "the second write reached it although its observer has not run")
    }
    withExtendedLifetime(token) {}
  }
}
