import Foundation
import Observation
import ReactiveState
import Testing

/// Statistical concurrency probes: the toolchain's races (research §3.2 items 19–21, §3.5
/// item 44) provoked many times with real threads and random race windows, against both
/// engines. Each probe prints `probe <name>: Observation <n> / ReactiveState <m>`; only
/// ReactiveState's count is asserted (it must be 0 on every run — the pass/fail does not
/// depend on the interleavings), the toolchain's count is informational because it is racy.
/// Workloads are bounded by count, never by time. The forced, single-interleaving versions
/// of the same races are in `ForcedInterleavingTests`.
@Suite struct ConcurrencyProbeTests {
  /// Runs `probe` on the toolchain's Observation, then on ReactiveState, prints the
  /// comparison and returns ReactiveState's count.
  static func compare(_ name: String, trials: Int, _ probe: (ProbeEngine) -> Int) -> Int {
    let oracle = probe(.observation)
    let ours = probe(.reactiveState)
    Reliability.report(name, oracle: oracle, ours: ours, trials: trials)
    return ours
  }

  /// ``compare(_:trials:_:)`` for asynchronous probes.
  static func compare(
    _ name: String, trials: Int, _ probe: (ProbeEngine) async -> Int
  ) async -> Int {
    let oracle = await probe(.observation)
    let ours = await probe(.reactiveState)
    Reliability.report(name, oracle: oracle, ours: ours, trials: trials)
    return ours
  }

  // MARK: Lost update between read and install (item 19)

  /// A writer thread stores a new value at a random moment after `apply` read the old one.
  /// Lost = `apply` returned the old value and `onChange` never ran.
  /// `observedFirst`: the object is already observed through another property, so the trial's
  /// read is the first read of `value` on an observed object (ReactiveState's writes to a
  /// property nobody read yet skip the version protocol and re-check after a fence).
  static func lostUpdates(engine: ProbeEngine, trials: Int, observedFirst: Bool = false) -> Int {
    let writer = WorkerThread()
    defer { writer.stop() }
    var random = SplitMix64(seed: 19)
    var lost = 0
    for _ in 0..<trials {
      let model = engine.makeModel()
      if observedFirst { engine.track({ _ = model.other }, onChange: {}) }
      let fired = AtomicCounter()
      let ready = LockedBox(false)
      let go = LockedBox(false)
      let writerDelay = random.below(200)
      let readerDelay = random.below(40_000)
      writer.run {
        ready.value = true
        while !go.value {}
        spin(writerDelay)
        model.value = 1
      }
      while !ready.value {}  // the writer is awake and polling: the race window is real
      let seen = engine.track(
        { () -> Int in
          let value = model.value
          go.value = true
          spin(readerDelay)
          return value
        }, onChange: { fired.increment() })
      writer.wait()
      if seen == 0 && fired.value == 0 { lost += 1 }
    }
    return lost
  }

  @Test func lostUpdateBetweenReadAndInstall() {
    let trials = Reliability.count("REACTIVESTATE_PROBE_TRIALS", default: 2_000)
    let ours = Self.compare("lost-update", trials: trials) {
      Self.lostUpdates(engine: $0, trials: trials)
    }
    #expect(ours == 0)
    // The same race on the first read of a property of an already observed object (run
    // after the first, not in parallel with it, so neither starves the other's writer).
    let firstReadOurs = Self.compare("lost-update-first-read", trials: trials) {
      Self.lostUpdates(engine: $0, trials: trials, observedFirst: true)
    }
    #expect(firstReadOurs == 0)
  }

  // MARK: Double delivery and zombie registrations (items 20, 21)

  struct OneShotStress {
    /// One-shot observers whose `onChange` ran more than once while the writers ran.
    var doubles = 0
    /// Observers that still fired on quiet writes after every pending one was drained.
    var zombies = 0
    /// Observers whose total number of calls was not exactly one.
    var notExactlyOnce = 0
  }

  /// Two threads write continuously while this thread arms `installs` one-shot observers.
  static func oneShotStress(engine: ProbeEngine, installs: Int) -> OneShotStress {
    let model = engine.makeModel()
    let stop = LockedBox(false)
    let writers = DispatchGroup()
    for thread in 0..<2 {
      writers.enter()
      Thread.detachNewThread {
        var index = 0
        while !stop.value {
          index += 1
          model.value = index * 2 + thread
        }
        writers.leave()
      }
    }
    let calls = (0..<installs).map { _ in AtomicCounter() }
    for counter in calls {
      engine.track({ _ = model.value }, onChange: { counter.increment() })
    }
    stop.value = true
    writers.wait()
    var result = OneShotStress()
    result.doubles = calls.count { $0.value > 1 }
    model.value = -1  // drains every legitimately pending observer
    let drained = calls.map(\.value)
    for quiet in 0..<3 { model.value = -2 - quiet }
    result.zombies = calls.indices.count { calls[$0].value != drained[$0] }
    result.notExactlyOnce = calls.count { $0.value != 1 }
    return result
  }

  @Test func oneShotObserversUnderConcurrentWriters() {
    let installs = Reliability.count("REACTIVESTATE_PROBE_INSTALLS", default: 50_000)
    let oracle = Self.oneShotStress(engine: .observation, installs: installs)
    let ours = Self.oneShotStress(engine: .reactiveState, installs: installs)
    Reliability.report(
      "double-delivery", oracle: oracle.doubles, ours: ours.doubles, trials: installs)
    Reliability.report("zombie", oracle: oracle.zombies, ours: ours.zombies, trials: installs)
    #expect(ours.doubles == 0)
    #expect(ours.zombies == 0)
    #expect(ours.notExactlyOnce == 0, "every observer fired exactly once")
  }

  // MARK: Stale element from the async sequence (item 44)

  /// The producer writes on a plain thread, pausing 2 ms between `willSet` and the store.
  /// Stale = the element delivered after the write is not the written value.
  static func staleElements(engine: ProbeEngine, trials: Int) async -> Int {
    var stale = 0
    for _ in 0..<trials {
      let element: Int?
      switch engine {
      case .observation:
        let model = OracleProbeModel(storeDelayMicros: 2_000)
        var iterator = Observations { model.value }.makeAsyncIterator()
        _ = await iterator.next()
        Thread.detachNewThread { model.value = 77 }
        element = await iterator.next()
      case .reactiveState:
        let model = ReactiveProbeModel(storeDelayMicros: 2_000)
        var iterator = ObservedValues { model.value }.makeAsyncIterator()
        _ = await iterator.next()
        Thread.detachNewThread { model.value = 77 }
        element = await iterator.next()
      }
      if element != 77 { stale += 1 }
    }
    return stale
  }

  @Test func asyncSequenceNeverDeliversAStaleElement() async {
    let trials = Reliability.count(
      "REACTIVESTATE_PROBE_ASYNC_TRIALS", default: 40, sanitizedDivisor: 4)
    let ours = await Self.compare("stale-element", trials: trials) {
      await Self.staleElements(engine: $0, trials: trials)
    }
    #expect(ours == 0)
  }

  // MARK: Continuous observers under concurrent writers

  /// Two threads write 1,000 distinct values each, the last few with a 300 µs pause between
  /// `willSet` and the store (a slow setter); afterwards the observer's last run must have
  /// seen the final value. ReactiveState's `observe` delivers synchronously on the
  /// writers, so "afterwards" is when they joined; the toolchain's continuous form is
  /// `Observations`, consumed by a task — it gets up to 100 ms after the writers joined.
  static func missedFinalStates(engine: ProbeEngine, trials: Int) async -> Int {
    var missed = 0
    for trial in 0..<trials {
      let model = engine.makeModel()
      let seen = LockedBox(Int.min)
      var token: ObservationToken?
      var consumer: Task<Void, Never>?
      switch engine {
      case .observation:
        let sequence = Observations { model.value }
        consumer = Task.detached {
          for await value in sequence { seen.value = value }
        }
        while seen.value != 0 { await Task.yield() }
      case .reactiveState:
        token = observe { seen.value = model.value }
      }
      let writers = DispatchGroup()
      for thread in 0..<2 {
        writers.enter()
        Thread.detachNewThread {
          for index in 1...1_000 {
            if index == 995 { model.storeDelayMicros = 300 }
            model.value = trial * 10_000 + index * 2 + thread
          }
          writers.leave()
        }
      }
      writers.wait()
      let final = model.value
      if let consumer {
        for _ in 0..<100 where seen.value != final { try? await Task.sleep(nanoseconds: 1_000_000) }
        consumer.cancel()
        model.value = final  // wakes the consumer so it sees the cancellation
      }
      if seen.value != final { missed += 1 }
      token?.cancel()
    }
    return missed
  }

  @Test func continuousObserversAlwaysSeeTheFinalState() async {
    let trials = Reliability.count(
      "REACTIVESTATE_PROBE_FINAL_TRIALS", default: 20, sanitizedDivisor: 2)
    let ours = await Self.compare("final-state-missed", trials: trials) {
      await Self.missedFinalStates(engine: $0, trials: trials)
    }
    #expect(ours == 0)
  }

  // MARK: Observers cancelled while firing

  /// Thread A writes continuously (the observer runs on it, slowly); thread B cancels the
  /// token at a random moment, then writes itself. After `cancel()` returned on B, no run may
  /// start on B (program order makes this deterministic), and once A stopped no write may run
  /// the observer at all. The toolchain's one-shot form has no cancel handle: n/a.
  static func runsAfterCancel(trials: Int) -> Int {
    var random = SplitMix64(seed: 44)
    var violations = 0
    for _ in 0..<trials {
      let model = ReactiveProbeModel()
      let runs = AtomicCounter()
      let cancelThread = LockedBox<UInt>(0)
      let cancelReturned = LockedBox(false)
      let late = AtomicCounter()
      let token = observe {
        runs.increment()
        _ = model.value
        if currentThreadID() == cancelThread.value && cancelReturned.value { late.increment() }
        spin(200)
      }
      let stop = LockedBox(false)
      let threads = DispatchGroup()
      threads.enter()
      Thread.detachNewThread {
        var index = 0
        while !stop.value {
          index += 1
          model.value = index
        }
        threads.leave()
      }
      let cancelDelay = random.below(20_000)
      threads.enter()
      Thread.detachNewThread {
        cancelThread.value = currentThreadID()
        spin(cancelDelay)
        token.cancel()
        cancelReturned.value = true
        for index in 0..<20 { model.value = -index }
        threads.leave()
      }
      while !cancelReturned.value { spin(100) }
      stop.value = true
      threads.wait()
      let before = runs.value
      model.value = 1_000_000
      if runs.value != before { late.increment() }
      violations += late.value
    }
    return violations
  }

  @Test func noRunStartsAfterCancelReturned() {
    let trials = Reliability.count("REACTIVESTATE_PROBE_CANCEL_TRIALS", default: 300)
    let ours = Self.runsAfterCancel(trials: trials)
    Reliability.report("run-after-cancel", oracle: nil, ours: ours, trials: trials)
    #expect(ours == 0)
  }
}
