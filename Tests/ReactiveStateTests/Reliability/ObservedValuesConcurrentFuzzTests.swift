import Foundation
import ReactiveState
import Testing

/// `ObservedValues` iterations under threads: iterating tasks over random reads of six
/// properties of two replaceable objects (dependencies that switch with the values), while
/// two threads write (some writes in transactions) and one churns — it replaces the objects
/// (so an evaluation's inputs go away under it) and starts short iterations that it cancels.
/// At quiescence every standing iteration must reach the value recomputed from the final
/// state (a lost wake-up leaves it waiting, and the watchdog turns that into a failure), and
/// every iteration's closure and every replaced object must be released.
@Suite struct ObservedValuesConcurrentFuzzTests {
  typealias Reads = ContinuousConcurrentFuzzTests.Reads

  /// What went wrong in one run.
  struct Outcome {
    var stuck: [String] = []
    var liveClosures = 0
    var survivors = 0
    var produced = 0
  }

  /// One iteration over `reads`, holding `canary` in its closure, that returns true once it
  /// produced the value `target` names for it (false if cancelled first).
  static func iterate(
    _ reads: Reads, on cells: ReplaceableCells, canary: Canary, until target: LockedBox<Int?>,
    counting produced: AtomicCounter
  ) -> Task<Bool, Never> {
    Task {
      var iterator = ObservedValues {
        _ = canary
        return reads.value { cells[$0] }
      }.makeAsyncIterator()
      while let value = await iterator.next() {
        produced.increment()
        if value == target.value { return true }
      }
      return false
    }
  }

  /// A new canary, watched by an entry of `watches`.
  static func canary(watchedIn watches: LockedBox<[CanaryWatch]>) -> Canary {
    let canary = Canary()
    watches.value.append(CanaryWatch(watching: canary))
    return canary
  }

  static func run(seed: UInt64, rounds: Int, on workers: [WorkerThread]) async -> Outcome {
    var random = SplitMix64(seed: seed)
    let cells = ReplaceableCells()
    let watches = LockedBox<[CanaryWatch]>([])
    let produced = AtomicCounter()
    let standing = (0..<4).map { _ in
      let reads = Reads.random(&random, singleProperty: random.oneIn(3))
      let target = LockedBox<Int?>(nil)
      let canary = Self.canary(watchedIn: watches)
      let task = iterate(reads, on: cells, canary: canary, until: target, counting: produced)
      return (reads, target, task)
    }
    let replaced = LockedBox<[WeakTriple]>([])
    cells.startRandomWriters(on: workers[0...1], seed: seed, rounds: rounds)
    let churnSeed = seed &* 131
    workers[2].run {
      var random = SplitMix64(seed: churnSeed)
      var short: [Task<Bool, Never>] = []
      for round in 0..<rounds {
        if random.oneIn(6) { replaced.value.append(WeakTriple(cells.replace(random.below(2)))) }
        if round % 50 == 0 {
          let reads = Reads.random(&random, singleProperty: random.oneIn(2))
          let canary = Self.canary(watchedIn: watches)
          short.append(
            iterate(reads, on: cells, canary: canary, until: LockedBox(nil), counting: produced))
        }
        if random.oneIn(40), !short.isEmpty { short.removeFirst().cancel() }
      }
      for task in short { task.cancel() }
    }
    for worker in workers { worker.wait() }

    // Quiescent: each standing iteration must arrive at its recomputed value. Writing every
    // property again (its own value) wakes one whose last value already was that one.
    for (reads, target, _) in standing { target.value = reads.value { cells.stored($0) } }
    for cell in 0..<ReplaceableCells.count { cells[cell] = cells.stored(cell) }
    let watchdog = Task {
      try? await Task.sleep(nanoseconds: 60_000_000_000)
      for (_, _, task) in standing { task.cancel() }
    }
    var outcome = Outcome()
    for (index, (reads, target, task)) in standing.enumerated() where !(await task.value) {
      outcome.stuck.append(
        "seed \(seed): iteration \(index) (\(reads)) never produced \(target.value ?? -1)")
    }
    watchdog.cancel()
    // Let the churn's cancelled iterations finish and drop their closures.
    for _ in 0..<1_000 where watches.value.contains(where: \.isAlive) {
      try? await Task.sleep(nanoseconds: 1_000_000)
    }
    outcome.liveClosures = watches.value.filter(\.isAlive).count
    outcome.survivors = replaced.value.filter { $0.object != nil }.count
    outcome.produced = produced.value
    return outcome
  }

  @Test func iterationsReachTheFinalValueAndReleaseEverything() async {
    let runs = Reliability.count("REACTIVESTATE_VALUES_THREAD_RUNS", default: 20)
    let rounds = Reliability.count("REACTIVESTATE_VALUES_THREAD_ROUNDS", default: 5_000)
    let workers = (0..<3).map { _ in WorkerThread() }
    var stuck: [String] = []
    var liveClosures = 0
    var survivors = 0
    var produced = 0
    for seed in 0..<UInt64(runs) {
      let outcome = await Self.run(seed: seed, rounds: rounds, on: workers)
      stuck += outcome.stuck
      liveClosures += outcome.liveClosures
      survivors += outcome.survivors
      produced += outcome.produced
    }
    for worker in workers { worker.stop() }
    print(
      "fuzz values threads: \(runs) runs × \(rounds) rounds on 3 threads, "
        + "\(produced) values produced, \(stuck.count) stuck iterations")
    #expect(stuck.isEmpty, "\(stuck.prefix(5))")
    #expect(liveClosures == 0, "iterations that kept their closure")
    #expect(survivors == 0, "replaced objects that outlived their replacement")
  }
}
