import Foundation
import ReactiveState
import Testing

/// The defects the reliability suite found in ReactiveState, each reduced to a deterministic
/// test (the fuzzers' minimal scripts, the lifetime checks). Fixed in the commits named in
/// the test comments; these keep them fixed.
@Suite struct FoundDefectRegressionTests {
  /// Events fuzz: one `.deinit` event per deallocated object, not one per tracked property;
  /// with three tracked properties the registration also leaked.
  @Test func oneDeinitEventPerObjectAndTheRegistrationEnds() {
    weak var weakCanary: Canary?
    let kinds = Box<[String]>([])
    var model: HandModel? = HandModel()
    do {
      let canary = Canary()
      weakCanary = canary
      ReactiveState.withObservationTracking(options: [.deinit]) {
        _ = model?.a
        _ = model?.b
        _ = model?.c
      } onChange: { event in
        _ = canary
        kinds.value.append("\(event.kind)")
      }
    }
    model = nil
    #expect(kinds.value == ["deinit"])
    #expect(weakCanary == nil)
  }

  /// LeakSanitizer, run over the concurrent fuzz tests: an object with two or more property
  /// slots leaked all but its newest when it went away. Each new slot, prepended to the list,
  /// took a retain of the old head through its `next`, and the head word's retain of the old
  /// head was never given back.
  @Test func everyPropertySlotGoesAwayWithItsObject() {
    var slots: [WeakSlot] = []
    do {
      let model = HandModel()
      ReactiveState.withObservationTracking({ _ = model.a }, onChange: {})
      model.b = 1  // a slot made by a write, once the object has one
      observe { _ = model.c }.cancel()
      slots = model.weakSlots
    }
    // This thread's spare access list keeps the slots of its last use until its next one.
    let other = HandModel()
    ReactiveState.withObservationTracking({ _ = other.a }, onChange: {})
    #expect(slots.count == 3)
    #expect(slots.filter { $0.slot != nil }.count == 0)
  }

  /// Continuous fuzz: a property read again after a derived value that read it (the derived
  /// value's computation re-stamped it) was linked twice, so each write ran the observer twice.
  @Test func aReReadAfterADerivedValueDoesNotDoubleTheRuns() {
    let model = HandModel()
    let total = Computed { model.a + model.b }
    let runs = Box(0)
    let token = observe {
      runs.value += 1
      _ = model.b
      _ = total.value
      _ = model.b
    }
    model.b += 1
    #expect(runs.value == 2)
    model.b = 5
    #expect(runs.value == 3)
    withExtendedLifetime(token) {}
  }

  /// The same through a nested one-shot tracking scope inside the observer's body.
  @Test func aReReadAfterANestedScopeDoesNotDoubleTheRuns() {
    let model = HandModel()
    let runs = Box(0)
    let token = observe {
      runs.value += 1
      _ = model.a
      ReactiveState.withObservationTracking({ _ = model.a }, onChange: {})
      _ = model.a
    }
    model.a = 1
    #expect(runs.value == 2)
    withExtendedLifetime(token) {}
  }

  /// A property re-read after another thread's tracking scope stamped it as its own read (the
  /// stamp is one word per property) was linked twice, so one write reached the observer
  /// twice: an extra `didSet` run.
  @Test func aReReadAfterAnotherThreadsScopeDoesNotDoubleTheRuns() {
    let model = HandModel()
    let events = LockedBox<[String]>([])
    let firstRun = LockedBox(true)
    let token = withContinuousObservation(options: .didSet) { event in
      events.value.append("\(event.kind)")
      _ = model.a
      _ = model.b
      let first = firstRun.value
      firstRun.value = false
      if first {
        onAnotherThread { ReactiveState.withObservationTracking({ _ = model.a }, onChange: {}) }
      }
      _ = model.a
    }
    model.a = 1
    #expect(events.value == ["initial", "didSet"])
    model.a = 2
    #expect(events.value == ["initial", "didSet", "didSet"])
    token.cancel()
  }

  /// The same on one thread: a scope begun inside `withoutObservationTracking` finds no scope
  /// current, so it cannot tell the observer's that it re-stamped what it read (each run
  /// links the property twice here).
  @Test func aReReadAfterAnUntrackedNestedScopeDoesNotDoubleTheRuns() {
    let model = HandModel()
    let runs = LockedBox(0)
    let token = observe {
      runs.value += 1
      _ = model.a
      _ = model.b
      withoutObservationTracking {
        ReactiveState.withObservationTracking({ _ = model.a }, onChange: {})
      }
      _ = model.a
    }
    model.a = 1
    #expect(runs.value == 2)
    model.a = 2
    #expect(runs.value == 3)
    token.cancel()
  }

  /// Lifetime: an `ObservedValues` iterator dropped mid-iteration no longer keeps its closure
  /// (the observer held its iteration strongly: a cycle through the iteration's token).
  @Test func aDroppedIteratorReleasesItsClosure() async {
    let model = HandModel()
    weak var weakCanary: Canary?
    do {
      let canary = Canary()
      weakCanary = canary
      var iterator = ObservedValues {
        _ = canary
        return model.a
      }.makeAsyncIterator()
      #expect(await iterator.next() == 0)
      model.a = 1
    }
    #expect(weakCanary == nil)
    model.a = 2
  }

  /// Review: a first observation that reads the old value while a write to the never-observed
  /// object is between its (skipped) `willSet` and its store. The write then finds slots and
  /// counts itself as a late mutation; it used to tell only `didSet` listeners, so the armed
  /// one-shot never fired although what it read was already stale.
  @Test func aWriteRacingTheFirstObservationReachesTheOneShot() {
    let model = PausingModel()
    let fired = AtomicCounter()
    let seen = interleaveFirstReadWithWrite(model) {
      var seen = -1
      ReactiveState.withObservationTracking({ seen = model.value }, onChange: { fired.increment() })
      #expect(fired.value == 0)
      return seen
    }
    #expect(seen == 0, "the reader ran before the store")
    #expect(fired.value == 1, "the late mutation reaches the observer armed meanwhile")
  }

  /// Concurrent fuzzing (objects replaced while observers came and went): a source
  /// deallocated while its observer's run was in progress, but cancelled, was unlinked from
  /// both sides, because a cancelled phase was taken for "not running". That recycled the
  /// link the run's cursor stood on, so the run's next read spliced its link onto a recycled
  /// record: the run's end never found that link, which stayed on a live property with a
  /// freed observer as its subscriber (the next write crashed).
  @Test func aSourceDeallocatedDuringACancelledRunLeavesNoLinkBehind() {
    let trigger = HandModel()
    let dying = LockedBox<HandModel?>(HandModel())
    let other = HandModel()
    let pause = RunPause()
    let (token, canary) = observeWithCanary {
      _ = trigger.a
      _ = dying.value?.a
      pause.passThrough()
      _ = other.a
    }
    #expect(other.aDidSetListeners == 1)
    // Re-runs the observer on another thread, which pauses after reading `dying`.
    let ran = pause.pauseRun { trigger.a = 1 }
    token.value?.cancel()
    dying.value = nil  // deallocated here, while the cancelled run is in progress
    pause.resume()
    ran.wait()
    token.value = nil
    #expect(!canary.isAlive, "the observer is gone")
    #expect(trigger.aDidSetListeners == 0)
    #expect(other.aDidSetListeners == 0, "no link left behind on a live property")
  }

  /// Concurrent fuzzing (objects replaced while observers ran): a running observer matched
  /// its reads to the previous run's links by address only. When a source it had read was
  /// deallocated during a run, and a new one allocated at the same address was read at the
  /// same position, the run kept the detached link, so the observer never heard of the new
  /// source's changes. The test makes models until one's slot lands in the freed slot's
  /// memory: the first one does with glibc's per-thread cache; under a sanitizer's
  /// quarantine none does, and the test then checks the ordinary path (it prints which).
  @Test func aNewSourceAtADeallocatedOnesAddressGetsALinkOfItsOwn() {
    let trigger = HandModel()
    let current = LockedBox<HandModel?>(HandModel())
    let pause = RunPause()
    let seen = LockedBox<[Int]>([])
    let token = observe {
      _ = trigger.a
      pause.passThrough()
      seen.value.append(current.value?.a ?? -1)
    }
    let oldSlot = current.value?.aSlotAddress
    // Re-runs the observer on another thread, which pauses before reading `current`.
    let ran = pause.pauseRun { trigger.a = 1 }
    current.value = nil  // deallocated (with its slot) while the run is paused
    // Models with slots, kept alive, until one's slot lands where the freed one was (a
    // tracked read makes the slot, on this thread, whose allocator cache holds that memory).
    var candidates: [HandModel] = []
    var replacement = HandModel()
    for _ in 0..<1_000 {
      replacement = HandModel()
      replacement.a = 7
      ReactiveState.withObservationTracking({ _ = replacement.a }, onChange: {})
      candidates.append(replacement)
      if replacement.aSlotAddress == oldSlot { break }
    }
    let reused = replacement.aSlotAddress == oldSlot
    print("regression: freed slot's address reused: \(reused) (\(candidates.count) models)")
    current.value = replacement
    pause.resume()
    ran.wait()
    #expect(seen.value == [0, 7])
    replacement.a = 8
    #expect(seen.value == [0, 7, 8], "the observer follows the new object")
    withExtendedLifetime(token) {}
  }

  /// Concurrent fuzzing (event trackers while objects were released): a delivery queue chains
  /// its nodes through the nodes themselves, and an SE-0506 event registration can have two
  /// deliveries in flight on two threads (a `willSet` on the mutating thread, a `.deinit` on
  /// the releasing one). Queued by the second thread, it was cut out of the first thread's
  /// queue with everything after it: here the continuous observer queued behind it for the
  /// same `willSet` never ran, and never ran again (it stayed marked running).
  @Test func anEventRegistrationQueuedOnTwoThreadsLosesNoOtherDelivery() {
    let model = HandModel()
    let other = LockedBox<HandModel?>(HandModel())
    let parkedFired = DispatchSemaphore(value: 0)
    let released = DispatchSemaphore(value: 0)
    // Parked in the slot (the first listener): called after the `willSet` walk, before the
    // queue it filled is delivered.
    ReactiveState.withObservationTracking(
      { _ = model.a },
      onChange: {
        parkedFired.signal()
        released.wait()
      })
    #expect(model.aHasParkedOneShot)
    let events = LockedBox<[String]>([])
    ReactiveState.withObservationTracking(options: [.willSet, .didSet, .deinit]) {
      _ = model.a
      _ = other.value?.a
    } onChange: { event in
      events.value.append("\(event.kind)")
    }
    let runs = AtomicCounter()
    let token = withContinuousObservation(options: .willSet) { _ in
      runs.increment()
      _ = model.a
    }
    let wrote = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      model.a = 1
      wrote.signal()
    }
    parkedFired.wait()
    other.value = nil  // the registration's `.deinit`, queued and delivered on this thread
    released.signal()
    wrote.wait()
    #expect(events.value == ["deinit", "willSet", "didSet"])
    #expect(runs.value == 2, "the observer queued after the registration ran for the willSet")
    model.a = 2
    #expect(runs.value == 3, "and still follows")
    withExtendedLifetime(token) {}
  }

  /// Concurrent fuzzing: an SE-0506 registration waiting for the `didSet` of the mutation
  /// whose `willSet` it delivered took the `didSet` of another thread's overlapping mutation
  /// of the same property instead — two mutations' events, the `didSet` on another thread
  /// (which could even run before the `willSet` callback). It now waits for its own
  /// mutation's `didSet` (another thread's `didSet` ends it only when no write of the property
  /// is left in flight), and that walk is not skipped as one that reached nothing waiting (the
  /// other mutation's walk had marked the property as walked).
  @Test func anEventRegistrationDeliversTheDidSetOfItsOwnMutation() {
    let model = PausingModel()
    ReactiveState.withObservationTracking({ _ = model.value }, onChange: {})
    model.value = -1  // fires that registration: the property has a slot and no listener
    let bThread = LockedBox<UInt>(0)
    let bWaitsBeforeStore = DispatchSemaphore(value: 0)
    let bMayStore = DispatchSemaphore(value: 0)
    model.beforeStore = {
      guard currentThreadID() == bThread.value else { return }
      bWaitsBeforeStore.signal()
      bMayStore.wait()
    }
    let events = LockedBox<[String]>([])
    ReactiveState.withObservationTracking(options: [.willSet, .didSet]) {
      _ = model.value
    } onChange: { event in
      let thread = currentThreadID() == bThread.value ? "B" : "other"
      events.value.append("\(event.kind) on \(thread), value \(model.value)")
    }
    let bDone = Self.startThreadB(recordingItsIDIn: bThread) { model.value = 1 }
    bWaitsBeforeStore.wait()
    model.value = 2  // overlaps B's mutation, whose willSet the registration delivered
    bMayStore.signal()
    bDone.wait()
    model.beforeStore = nil
    #expect(events.value == ["willSet on B, value -1", "didSet on B, value 1"])
  }

  /// Concurrent fuzzing (SE-0506 trackers of derived values; documented as a known limit in
  /// session 18): a registration on a derived value delivered thread B's `willSet`, another
  /// thread's change then made the value stale, and B's `didSet` walk stopped at the stale
  /// value — the registration never got its `didSet` and stayed registered. It now listens
  /// to the written property itself from the `willSet` on (see the next test).
  @Test func anEventRegistrationOnADerivedValueGetsItsDidSetAfterAnotherThreadsChange() {
    let model = HandModel()
    let total = Computed { model.a + model.b }
    let events = Self.eventsOfThreadBWritingA(of: model, trackedThrough: total) {
      model.b = 5  // this thread's whole change lands between B's willSet and its store
    }
    #expect(events == ["willSet on B", "didSet on B"])
    #expect(total.value == 6)
  }

  /// The same, when the derived value stops depending on the property B writes in between
  /// (a dynamic dependency switched by another thread's change, then a recomputation): B's
  /// `didSet` had no path left to the registration. A registration that delivers a `willSet`
  /// which came through a derived value now links itself to the written property until it
  /// ends.
  @Test func anEventRegistrationOnADerivedValueGetsItsDidSetAfterTheDependencySwitched() {
    let model = HandModel()
    let picked = Computed { model.c == 0 ? model.a : model.b }
    let events = Self.eventsOfThreadBWritingA(of: model, trackedThrough: picked) {
      model.c = 1
      #expect(picked.value == 0, "now reads b, and no longer a")
    }
    #expect(events == ["willSet on B", "didSet on B"])
  }

  /// Tracks `derived` with `[.willSet, .didSet]`, lets thread B write `model.a = 1`, runs
  /// `meanwhile` on this thread while B's `willSet` callback holds B before its store, and
  /// returns the events with the thread each came on.
  private static func eventsOfThreadBWritingA(
    of model: HandModel, trackedThrough derived: Computed<Int>, meanwhile: () -> Void
  ) -> [String] {
    let bThread = LockedBox<UInt>(0)
    let bDeliveredWillSet = DispatchSemaphore(value: 0)
    let bMayStore = DispatchSemaphore(value: 0)
    let events = LockedBox<[String]>([])
    ReactiveState.withObservationTracking(options: [.willSet, .didSet]) {
      _ = derived.value
    } onChange: { event in
      let onB = currentThreadID() == bThread.value
      events.value.append("\(event.kind) on \(onB ? "B" : "another thread")")
      if onB && event.kind == .willSet {
        bDeliveredWillSet.signal()
        bMayStore.wait()
      }
    }
    let bDone = startThreadB(recordingItsIDIn: bThread) { model.a = 1 }
    bDeliveredWillSet.wait()
    meanwhile()
    bMayStore.signal()
    bDone.wait()
    return events.value
  }

  /// Starts thread B, which stores its ID in `id`, then runs `write`; the semaphore returned
  /// is signalled when `write` has returned.
  private static func startThreadB(
    recordingItsIDIn id: LockedBox<UInt>, _ write: @escaping @Sendable () -> Void
  ) -> DispatchSemaphore {
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      id.value = currentThreadID()
      write()
      done.signal()
    }
    return done
  }
}

/// A point in an observer's body where its next run stops, once armed, until the test lets
/// it go on.
final class RunPause: @unchecked Sendable {
  private let armed = LockedBox(false)
  private let paused = DispatchSemaphore(value: 0)
  private let resumed = DispatchSemaphore(value: 0)

  /// Called by the body: stops here if armed (once).
  func passThrough() {
    guard armed.value else { return }
    armed.value = false
    paused.signal()
    resumed.wait()
  }

  /// Arms the pause and makes `write` on a new thread, whose re-run of the observer stops
  /// here; returns once it stopped, with a semaphore signalled when the write has returned.
  func pauseRun(startedBy write: @escaping @Sendable () -> Void) -> DispatchSemaphore {
    armed.value = true
    let wrote = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      write()
      wrote.signal()
    }
    paused.wait()
    return wrote
  }

  func resume() { resumed.signal() }
}
