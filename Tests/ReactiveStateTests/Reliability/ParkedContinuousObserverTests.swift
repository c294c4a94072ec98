import Foundation
import ReactiveState
import Synchronization
import Testing

/// An `observe` whose run read exactly one property parks in that property's slot instead of
/// being linked into the graph, and the write it waits for runs it with no lock (see
/// `ContinuousObserver+Parking.swift`). These tests pin where it parks and when it links
/// instead, that every kind of write reaches it with the stored value, and that concurrent
/// writers, cancellations and deallocations never lose the last value, run it twice at once,
/// or leak it. ReactiveState only: the toolchain has no continuous observer.
@Suite struct ParkedContinuousObserverTests {
  @Test func oneReadParksAndTwoReadsLink() {
    let model = HandModel()
    let seen = Box<[Int]>([])
    let token = observe { seen.value.append(model.a) }
    #expect(model.aHasParkedContinuousObserver, "one property read: parked")
    #expect(model.aDidSetListeners == 0)
    model.a = 1
    #expect(model.aHasParkedContinuousObserver, "parked again by its run")
    #expect(seen.value == [0, 1])

    let pair = observe { _ = model.a + model.b }
    #expect(model.aDidSetListeners == 1, "two properties read: linked")
    token.cancel()
    #expect(!model.aHasParkedContinuousObserver, "a cancelled observer leaves the slot")
    let late = observe { _ = model.a }
    #expect(!model.aHasParkedContinuousObserver, "an older graph listener keeps its turn")
    model.a = 2
    #expect(seen.value == [0, 1])
    withExtendedLifetime((pair, late)) {}
  }

  /// A parked observer whose run starts reading a second property becomes a graph observer:
  /// it then follows both, and stops following what a branch no longer reads.
  @Test func aSecondReadTurnsItIntoAGraphObserver() {
    let model = HandModel()
    let seen = Box<[Int]>([])
    let token = observe { seen.value.append(model.a > 0 ? model.a + model.b : model.a) }
    #expect(model.aHasParkedContinuousObserver)
    model.a = 1  // now reads a and b
    #expect(!model.aHasParkedContinuousObserver)
    model.b = 10
    model.a = 0  // back to reading a only; b is dropped
    model.b = 20
    #expect(seen.value == [0, 1, 11, 0])
    withExtendedLifetime(token) {}
  }

  /// A parked observer whose next run reads another single property (chosen by state it does
  /// not track) moves its place to that property's slot: writes to the old one no longer run
  /// it, writes to the new one do, with the stored value, and cancelling it there frees it.
  @Test func anObserverThatSwitchesItsOnlyPropertyMovesItsPlace() {
    let model = HandModel()
    let readsB = LockedBox(false)
    let seen = Box<[Int]>([])
    let (token, watch) = observeWithCanary {
      seen.value.append(readsB.value ? model.b : model.a)
    }
    #expect(model.aHasParkedContinuousObserver)
    readsB.value = true
    model.a = 1  // runs, reads b now: leaves a's slot for b's
    #expect(!model.aHasParkedContinuousObserver)
    #expect(model.aDidSetListeners == 0, "moved, not linked")
    model.a = 2
    model.b = 5
    model.b += 1
    #expect(seen.value == [0, 0, 5, 6])
    readsB.value = false
    model.b = 7  // runs, reads a again: back to a's slot
    #expect(model.aHasParkedContinuousObserver)
    model.b = 8
    model.a = 3
    #expect(seen.value == [0, 0, 5, 6, 2, 3])
    token.value?.cancel()
    token.value = nil
    #expect(!model.aHasParkedContinuousObserver)
    #expect(!watch.isAlive, "the cancelled observer and its closure are freed")
    model.a = 4
    #expect(seen.value.count == 6)
  }

  /// Every write path — assignment, in-place mutation (willSet/didSet), a write with another
  /// property's `willSet` listener on the same property (announced), a transaction — runs the
  /// parked observer once, after the store, with the new value.
  @Test func everyWritePathRunsItWithTheStoredValue() {
    let model = HandModel()
    let seen = Box<[Int]>([])
    let token = observe { seen.value.append(model.a) }
    model.a = 1
    model.a += 1
    let fired = Box(0)
    ReactiveState.withObservationTracking({ _ = model.a + model.b }, onChange: { fired.value += 1 })
    model.a = 5  // announced: the one-shot listens to willSet
    withTransaction {
      model.a = 6
      model.a = 7
    }
    model.a = 7  // equal: no notification
    #expect(seen.value == [0, 1, 2, 5, 7])
    #expect(fired.value == 1)
    withExtendedLifetime(token) {}
  }

  @Test func anObserverThatKeepsChangingWhatItReadsIsStopped() {
    let model = HandModel()
    let runs = Box(0)
    let (token, reports) = observeCapturingDiagnostics {
      runs.value += 1
      model.a = model.a + 1
    }
    #expect(runs.value == continuousRerunLimit + 1)
    #expect(reports.contains { $0.contains("invalidated itself") && $0.contains("HandModel") })
    model.a = 0  // it still hears later changes (and stops again)
    #expect(runs.value > continuousRerunLimit + 1)
    withExtendedLifetime(token) {}
  }

  /// Two parked observers that keep changing each other with untracked writes: each write
  /// runs the other one nested, with no tracking scope current, and the nested run's write of
  /// the outer one's property used to count for nobody, so the loop never ended.
  @Test func parkedObserversChangingEachOtherUntrackedAreStopped() {
    let model = HandModel()
    let runs = LockedBox(0)
    var tokens: [ObservationToken] = []
    let reports = ObservationDiagnostics.capture {
      tokens.append(untrackedRelay(counting: runs, from: { model.a }, to: { model.b = $0 }))
      tokens.append(untrackedRelay(counting: runs, from: { model.b }, to: { model.a = $0 }))
    }
    #expect(model.aHasParkedContinuousObserver)
    #expect(runs.value < 1_000)
    #expect(reports.contains { $0.message.contains("invalidated itself") })
    for token in tokens { token.cancel() }
  }

  /// An observer that writes one more than what `read` returns through `write`, untracked,
  /// counting its runs (it stops writing past 20,000 runs: the loop's safety valve).
  private func untrackedRelay(
    counting runs: LockedBox<Int>, from read: @escaping @Sendable () -> Int,
    to write: @escaping @Sendable (Int) -> Void
  ) -> ObservationToken {
    observe {
      let value = read()
      runs.value += 1
      if runs.value > 20_000 { return }
      withoutObservationTracking { write(value + 1) }
    }
  }

  /// The same with one parked observer (of `a`) and one graph observer (of `b` and `c`):
  /// stopped whether the parked run is nested in the graph one (the parked observer starts
  /// last) or encloses it (a later outside write of `a`).
  @Test func aParkedAndAGraphObserverChangingEachOtherUntrackedAreStopped() {
    let model = HandModel()
    let runs = LockedBox(0)
    var tokens: [ObservationToken] = []
    let reports = ObservationDiagnostics.capture {
      tokens.append(
        untrackedRelay(counting: runs, from: { model.b + model.c }, to: { model.a = $0 }))
      tokens.append(untrackedRelay(counting: runs, from: { model.a }, to: { model.b = $0 }))
    }
    #expect(model.aHasParkedContinuousObserver)
    #expect(runs.value < 1_000)
    #expect(reports.contains { $0.message.contains("invalidated itself") })
    runs.value = 0
    let laterReports = ObservationDiagnostics.capture { model.a = -1 }
    #expect(runs.value < 1_000)
    #expect(laterReports.contains { $0.message.contains("invalidated itself") })
    for token in tokens { token.cancel() }
  }

  /// Four threads write while the parked observer runs: afterwards its last run saw the
  /// final value, and no two runs ever overlapped. (The probe model's storage takes a lock:
  /// the registrar synchronizes observation, not the model's storage.) `announced`: a
  /// `willSet` listener linked after the observer parked makes every write announce itself
  /// (the parked observer then waits for the `didSet` of the write it was waiting for).
  @Test(arguments: [false, true])
  func concurrentWritersNeverLoseTheLastValueOrOverlapRuns(announced: Bool) {
    for trial in 0..<Reliability.count("REACTIVESTATE_PARKED_TRIALS", default: 40) {
      let model = ProbeEngine.reactiveState.makeModel()
      let seen = Atomic<Int>(-1)
      let running = Atomic<Int>(0)
      let overlaps = Atomic<Int>(0)
      let token = observe {
        if running.wrappingAdd(1, ordering: .sequentiallyConsistent).newValue > 1 {
          overlaps.wrappingAdd(1, ordering: .relaxed)
        }
        seen.store(model.value, ordering: .sequentiallyConsistent)
        running.wrappingSubtract(1, ordering: .sequentiallyConsistent)
      }
      let willSetListener =
        announced
        ? withContinuousObservation(options: .willSet) { _ in _ = model.value } : nil
      runConcurrently(threads: 4) { thread in
        for index in 1...500 { model.value = trial * 100_000 + index * 4 + thread }
      }
      #expect(seen.load(ordering: .sequentiallyConsistent) == model.value, "trial \(trial)")
      #expect(overlaps.load(ordering: .relaxed) == 0)
      token.cancel()
      willSetListener?.cancel()
    }
  }

  /// The run that parks an observer reads the property, then takes its place in the slot. A
  /// write from another thread between the two found nobody to run or mark, and the observer
  /// used to park waiting for a version move that had already happened: no later write ran it
  /// again (about one trial in 20,000 here). Each trial starts an observer while another thread
  /// writes, waits for those writes to return (a write that claims the observer runs it before
  /// returning), then writes once more on this thread, which must run it with that value.
  @Test func aWriteBetweenTheFirstReadAndTheFirstParkIsNotLost() {
    let model = ProbeEngine.reactiveState.makeModel()
    var stale = 0
    for trial in 0..<Reliability.count("REACTIVESTATE_PARK_RACE_TRIALS", default: 20_000) {
      let go = DispatchSemaphore(value: 0)
      let burstDone = DispatchSemaphore(value: 0)
      DispatchQueue.global().async {
        go.wait()
        for index in 1...50 { model.value = trial * 1_000 + index }
        burstDone.signal()
      }
      let seen = Atomic<Int>(-1)
      go.signal()
      let token = observe { seen.store(model.value, ordering: .relaxed) }
      burstDone.wait()
      model.value = -trial - 1
      if seen.load(ordering: .relaxed) != -trial - 1 { stale += 1 }
      token.cancel()
    }
    #expect(stale == 0, "observers that missed the last write")
  }

  /// Tokens cancelled (or dropped) on another thread while writers write: the observer stops,
  /// and its body is freed once the writes are over.
  @Test func cancellationDuringConcurrentWritesStopsAndFrees() {
    for _ in 0..<Reliability.count("REACTIVESTATE_PARKED_TRIALS", default: 40) {
      let model = ProbeEngine.reactiveState.makeModel()
      let runs = Atomic<Int>(0)
      let (token, watch) = observeWithCanary {
        _ = model.value
        runs.wrappingAdd(1, ordering: .relaxed)
      }
      runConcurrently(threads: 3) { thread in
        if thread == 0 {
          usleep(50)
          token.value = nil  // drops the only reference: cancels
        } else {
          for index in 1...300 { model.value = index * 2 + thread }
        }
      }
      let afterCancel = runs.load(ordering: .relaxed)
      model.value = -1
      #expect(runs.load(ordering: .relaxed) == afterCancel, "no run after the cancellation")
      #expect(!watch.isAlive, "the body is freed")
    }
  }

  /// The model goes while the observer is parked on it: the observer goes dormant, and
  /// dropping its token frees its body.
  @Test func aDeallocatedModelLeavesADormantObserverThatIsFreed() {
    weak var weakModel: HandModel?
    let observer: (token: LockedBox<ObservationToken?>, canary: CanaryWatch)
    do {
      let model = HandModel()
      weakModel = model
      let reader = UncheckedWeak(model)
      observer = observeWithCanary { _ = reader.object?.a }
      #expect(model.aHasParkedContinuousObserver)
    }
    #expect(weakModel == nil, "a parked observer does not keep its model alive")
    #expect(observer.canary.isAlive, "the token still holds the body")
    observer.token.value = nil
    #expect(!observer.canary.isAlive)
  }

  /// The model goes during the observer's run, after the read that parked it (the run drops
  /// the last reference): the run ends dormant instead of parking in a closed slot, and
  /// dropping the token frees the body.
  @Test func aModelDeallocatedDuringTheRunThatParkedLeavesADormantObserver() {
    let holder = LockedBox<HandModel?>(HandModel())
    weak let weakModel = holder.value
    let seen = LockedBox<[Int]>([])
    let (token, watch) = observeWithCanary {
      seen.value.append(holder.value?.a ?? -1)
      holder.value = nil
    }
    #expect(weakModel == nil)
    #expect(seen.value == [0], "ran once, and nothing is left to run it again")
    #expect(watch.isAlive, "the token still holds the body")
    token.value = nil
    #expect(!watch.isAlive)
  }
}

/// A weak reference a `@Sendable` closure can capture.
private final class UncheckedWeak<Object: AnyObject>: @unchecked Sendable {
  weak var object: Object?
  init(_ object: Object) { self.object = object }
}
