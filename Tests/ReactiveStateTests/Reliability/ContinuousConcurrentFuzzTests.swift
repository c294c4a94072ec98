import Foundation
import ReactiveState
import Testing

/// Continuous observers of plain properties under threads: random observers over six
/// properties of two objects, with dependencies that switch with the values, of every kind —
/// `observe`, `.didSet` and `[.willSet, .didSet]` events, a manual scheduler, and observers
/// of one property (which park in its slot). Two threads write (some writes in
/// transactions), one churns (observers that come and go, one-shot trackers, flushes of the
/// scheduler, and replacements of an object by a copy, so objects with observers linked to
/// them go away mid-run), while the standing observers follow. At quiescence, against a
/// recomputation from the final values:
/// - every standing observer's last run read the final values (after the scheduler drained);
/// - it still follows one more write to every property;
/// - no observer's runs overlapped, no one-shot tracker fired twice, and every replaced
///   object was released.
@Suite struct ContinuousConcurrentFuzzTests {
  /// What an observer reads: `selector`, then `ifEven` or `ifOdd` by the selector's parity.
  struct Reads {
    var selector: Int
    var ifEven: [Int]
    var ifOdd: [Int]

    static func random(_ random: inout SplitMix64, singleProperty: Bool) -> Reads {
      let selector = random.below(ReplaceableCells.count)
      if singleProperty { return Reads(selector: selector, ifEven: [], ifOdd: []) }
      func some() -> [Int] {
        (0..<(1 + random.below(3))).map { _ in random.below(ReplaceableCells.count) }
      }
      return Reads(selector: selector, ifEven: some(), ifOdd: some())
    }

    /// `selector + 10 × sum(chosen)`, read through `cell`.
    func value(_ cell: (Int) -> Int) -> Int {
      let selector = cell(selector)
      let chosen = selector % 2 == 0 ? ifEven : ifOdd
      return selector + 10 * chosen.reduce(0) { $0 + cell($1) }
    }
  }

  enum Kind: CaseIterable {
    case plain, didSetEvents, bothEvents, scheduled, singleProperty
  }

  /// A standing observer: what its runs saw, and whether two of them overlapped.
  final class Witness: @unchecked Sendable {
    let lastSeen = LockedBox<Int?>(nil)
    let running = LockedBox(false)
    let overlaps = AtomicCounter()

    func run(_ body: () -> Int) {
      if running.value { overlaps.increment() }
      running.value = true
      lastSeen.value = body()
      running.value = false
    }
  }

  static func start(
    _ kind: Kind, _ reads: Reads, on cells: ReplaceableCells, scheduler: ManualScheduler,
    witness: Witness
  ) -> ObservationToken {
    switch kind {
    case .plain, .singleProperty:
      return observe { witness.run { reads.value { cells[$0] } } }
    case .didSetEvents:
      return withContinuousObservation(options: .didSet) { _ in
        witness.run { reads.value { cells[$0] } }
      }
    case .bothEvents:
      return withContinuousObservation(options: [.willSet, .didSet]) { _ in
        witness.run { reads.value { cells[$0] } }
      }
    case .scheduled:
      return observe(scheduler: scheduler) { witness.run { reads.value { cells[$0] } } }
    }
  }

  /// What went wrong in one or more runs.
  struct Outcome {
    var mismatches: [String] = []
    var overlaps = 0
    var doubleFires = 0
    var survivors = 0
    var eventViolations: [String] = []
    var liveTrackerClosures = 0

    static func += (total: inout Outcome, run: Outcome) {
      total.mismatches += run.mismatches
      total.overlaps += run.overlaps
      total.doubleFires += run.doubleFires
      total.survivors += run.survivors
      total.eventViolations += run.eventViolations
      total.liveTrackerClosures += run.liveTrackerClosures
    }
  }

  /// One run: standing observers, the threads, then the quiescent checks, and — once the
  /// cells are gone — the checks of what the event trackers received and kept.
  static func run(seed: UInt64, rounds: Int, on workers: [WorkerThread]) -> Outcome {
    let trackers = LockedBox<[EventRecord]>([])
    var outcome = runWithCells(seed: seed, rounds: rounds, on: workers, trackers: trackers)
    // A second, empty job: a worker has surely dropped the first one (and the cells it
    // captured) before it takes the next.
    for worker in workers { worker.run {} }
    for worker in workers { worker.wait() }
    for tracker in trackers.value {
      if let violation = tracker.violation { outcome.eventViolations.append(violation) }
      if tracker.closure.isAlive { outcome.liveTrackerClosures += 1 }
    }
    return outcome
  }

  private static func runWithCells(
    seed: UInt64, rounds: Int, on workers: [WorkerThread], trackers: LockedBox<[EventRecord]>
  ) -> Outcome {
    var random = SplitMix64(seed: seed)
    let cells = ReplaceableCells()
    let scheduler = ManualScheduler()
    let standing = (0..<10).map { index in
      let kind = Kind.allCases[index % Kind.allCases.count]
      let reads = Reads.random(&random, singleProperty: kind == .singleProperty)
      let witness = Witness()
      let token = Self.start(kind, reads, on: cells, scheduler: scheduler, witness: witness)
      return (kind: kind, reads: reads, witness: witness, token: token)
    }
    let doubleFires = AtomicCounter()
    let replaced = LockedBox<[WeakTriple]>([])
    cells.startRandomWriters(on: workers[0...1], seed: seed, rounds: rounds)
    workers[2].run {
      var random = SplitMix64(seed: seed &* 131)
      var kept: ObservationToken?
      for _ in 0..<rounds {
        let reads = Reads.random(&random, singleProperty: random.oneIn(2))
        switch random.below(6) {
        case 4: replaced.value.append(WeakTriple(cells.replace(random.below(2))))
        case 5:
          trackers.value.append(EventRecord.track(&random) { _ = reads.value { cells[$0] } })
        case 0:
          kept?.cancel()
          kept = Self.start(
            Kind.allCases[random.below(Kind.allCases.count)], reads, on: cells,
            scheduler: scheduler, witness: Witness())
        case 1: scheduler.flush()
        case 2: observe { _ = reads.value { cells[$0] } }.cancel()
        default:
          let fires = AtomicCounter()
          ReactiveState.withObservationTracking {
            _ = reads.value { cells[$0] }
          } onChange: {
            fires.increment()
            if fires.value > 1 { doubleFires.increment() }
          }
        }
      }
      kept?.cancel()
    }
    for worker in workers { worker.wait() }

    var mismatches: [String] = []
    func check(_ moment: String) {
      while scheduler.flush() > 0 {}
      for (index, observer) in standing.enumerated() {
        let expected = observer.reads.value { cells.stored($0) }
        let seen = observer.witness.lastSeen.value
        if seen != expected {
          mismatches.append(
            "seed \(seed) \(moment): observer \(index) (\(observer.kind), \(observer.reads)) "
              + "saw \(seen ?? -1), expected \(expected)")
        }
      }
    }
    check("after the threads")
    for cell in 0..<ReplaceableCells.count { cells[cell] = (cells.stored(cell) + 1) % 4 }
    check("after one more write to every cell")
    for observer in standing { observer.token.cancel() }
    return Outcome(
      mismatches: mismatches, overlaps: standing.reduce(0) { $0 + $1.witness.overlaps.value },
      doubleFires: doubleFires.value,
      survivors: replaced.value.filter { $0.object != nil }.count)
  }

  @Test func threeThreadsWithEveryKindOfObserverEndConsistent() {
    let runs = Reliability.count("REACTIVESTATE_CONTINUOUS_THREAD_RUNS", default: 40)
    let rounds = Reliability.count("REACTIVESTATE_CONTINUOUS_THREAD_ROUNDS", default: 1_500)
    let workers = (0..<3).map { _ in WorkerThread() }
    var total = Outcome()
    for seed in 0..<UInt64(runs) { total += Self.run(seed: seed, rounds: rounds, on: workers) }
    for worker in workers { worker.stop() }
    print(
      "fuzz continuous threads: \(runs) runs × \(rounds) rounds on 3 threads, "
        + "\(total.mismatches.count) mismatches, \(total.eventViolations.count) event violations")
    #expect(total.mismatches.isEmpty, "\(total.mismatches.prefix(5))")
    #expect(total.overlaps == 0, "an observer's runs overlapped")
    #expect(total.survivors == 0, "replaced objects that outlived their replacement")
    #expect(total.doubleFires == 0, "a one-shot tracker fired twice")
    #expect(total.eventViolations.isEmpty, "\(total.eventViolations.prefix(5))")
    #expect(total.liveTrackerClosures == 0, "event trackers that kept their closure")
  }
}
