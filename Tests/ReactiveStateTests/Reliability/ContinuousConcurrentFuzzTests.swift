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
  /// Three observable integers behind one lock; `properties` exposes two of these as six cells.
  final class LockedTriple: ReactiveState.Observable, @unchecked Sendable {
    private let registrar = ReactiveState.ObservationRegistrar()
    private let lock = NSLock()
    private var storage = (0, 0, 0)

    init() {}
    /// A new object with `other`'s current values.
    init(copying other: LockedTriple) {
      storage = (other.stored(0), other.stored(1), other.stored(2))
    }

    subscript(cell: Int) -> Int {
      get {
        switch cell {
        case 0: registrar.access(self, keyPath: \.first)
        case 1: registrar.access(self, keyPath: \.second)
        default: registrar.access(self, keyPath: \.third)
        }
        return stored(cell)
      }
      set {
        switch cell {
        case 0: registrar.withMutation(of: self, keyPath: \.first) { store(newValue, at: 0) }
        case 1: registrar.withMutation(of: self, keyPath: \.second) { store(newValue, at: 1) }
        default: registrar.withMutation(of: self, keyPath: \.third) { store(newValue, at: 2) }
        }
      }
    }
    // The key paths the subscript reports (never used to read).
    var first: Int { stored(0) }
    var second: Int { stored(1) }
    var third: Int { stored(2) }

    /// The value, without tracking.
    func stored(_ cell: Int) -> Int {
      lock.lock()
      defer { lock.unlock() }
      switch cell {
      case 0: return storage.0
      case 1: return storage.1
      default: return storage.2
      }
    }
    private func store(_ value: Int, at cell: Int) {
      lock.lock()
      defer { lock.unlock() }
      switch cell {
      case 0: storage.0 = value
      case 1: storage.1 = value
      default: storage.2 = value
      }
    }
  }

  /// Six cells: three properties on each of two objects, which are themselves observable
  /// properties of the holder, and replaceable: ``replace(_:)`` swaps one for a copy, so the
  /// old object (and every link to it) goes away while the other threads use it.
  final class Cells: ReactiveState.Observable, @unchecked Sendable {
    static let count = 6
    private let registrar = ReactiveState.ObservationRegistrar()
    private let lock = NSLock()
    private var objects = [LockedTriple(), LockedTriple()]
    // The key paths the object reads report (never used to read).
    var first: LockedTriple { storedObject(0) }
    var second: LockedTriple { storedObject(1) }
    private static func keyPath(_ index: Int) -> KeyPath<Cells, LockedTriple> {
      index == 0 ? \.first : \.second
    }

    private func object(_ index: Int) -> LockedTriple {
      registrar.access(self, keyPath: Self.keyPath(index))
      return storedObject(index)
    }
    private func storedObject(_ index: Int) -> LockedTriple {
      lock.lock()
      defer { lock.unlock() }
      return objects[index]
    }

    subscript(cell: Int) -> Int {
      get { object(cell / 3)[cell % 3] }
      set { object(cell / 3)[cell % 3] = newValue }
    }
    func stored(_ cell: Int) -> Int { storedObject(cell / 3).stored(cell % 3) }

    /// Replaces object `index` with a copy of its current values; returns the old one.
    func replace(_ index: Int) -> LockedTriple {
      registrar.withMutation(of: self, keyPath: Self.keyPath(index)) {
        lock.lock()
        defer { lock.unlock() }
        let old = objects[index]
        objects[index] = LockedTriple(copying: old)
        return old
      }
    }
  }

  /// What an observer reads: `selector`, then `ifEven` or `ifOdd` by the selector's parity.
  struct Reads {
    var selector: Int
    var ifEven: [Int]
    var ifOdd: [Int]

    static func random(_ random: inout SplitMix64, singleProperty: Bool) -> Reads {
      let selector = random.below(Cells.count)
      if singleProperty { return Reads(selector: selector, ifEven: [], ifOdd: []) }
      func some() -> [Int] { (0..<(1 + random.below(3))).map { _ in random.below(Cells.count) } }
      return Reads(selector: selector, ifEven: some(), ifOdd: some())
    }

    /// `selector + 10 × sum(chosen)`, read through `cell`.
    func value(_ cell: (Int) -> Int) -> Int {
      let selector = cell(selector)
      let chosen = selector % 2 == 0 ? ifEven : ifOdd
      return selector + 10 * chosen.reduce(0) { $0 + cell($1) }
    }
  }

  /// A replaced object, which must go away.
  struct WeakTriple {
    weak var object: LockedTriple?
    init(_ object: LockedTriple) { self.object = object }
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
    _ kind: Kind, _ reads: Reads, on cells: Cells, scheduler: ManualScheduler, witness: Witness
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

  /// One run: standing observers, the threads, then the quiescent checks. Returns the
  /// mismatches, overlapping runs and one-shot trackers that fired twice.
  static func run(seed: UInt64, rounds: Int, on workers: [WorkerThread]) -> (
    mismatches: [String], overlaps: Int, doubleFires: Int, survivors: Int
  ) {
    var random = SplitMix64(seed: seed)
    let cells = Cells()
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
    for writer in 0...1 {
      workers[writer].run {
        var random = SplitMix64(seed: seed &* 31 &+ UInt64(writer))
        for round in 0..<rounds {
          if round % 6 == writer {
            withTransaction {
              for _ in 0..<3 { cells[random.below(Cells.count)] = random.below(4) }
            }
          } else {
            cells[random.below(Cells.count)] = random.below(4)
          }
        }
      }
    }
    workers[2].run {
      var random = SplitMix64(seed: seed &* 131)
      var kept: ObservationToken?
      for _ in 0..<rounds {
        let reads = Reads.random(&random, singleProperty: random.oneIn(2))
        switch random.below(5) {
        case 4: replaced.value.append(WeakTriple(cells.replace(random.below(2))))
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
    for cell in 0..<Cells.count { cells[cell] = (cells.stored(cell) + 1) % 4 }
    check("after one more write to every cell")
    for observer in standing { observer.token.cancel() }
    let overlaps = standing.reduce(0) { $0 + $1.witness.overlaps.value }
    let survivors = replaced.value.filter { $0.object != nil }.count
    return (mismatches, overlaps, doubleFires.value, survivors)
  }

  @Test func threeThreadsWithEveryKindOfObserverEndConsistent() {
    let runs = Reliability.count("REACTIVESTATE_CONTINUOUS_THREAD_RUNS", default: 40)
    let rounds = Reliability.count("REACTIVESTATE_CONTINUOUS_THREAD_ROUNDS", default: 1_500)
    let workers = (0..<3).map { _ in WorkerThread() }
    var mismatches: [String] = []
    var overlaps = 0
    var survivors = 0
    var doubleFires = 0
    for seed in 0..<UInt64(runs) {
      let outcome = Self.run(seed: seed, rounds: rounds, on: workers)
      mismatches += outcome.mismatches
      overlaps += outcome.overlaps
      survivors += outcome.survivors
      doubleFires += outcome.doubleFires
    }
    for worker in workers { worker.stop() }
    print(
      "fuzz continuous threads: \(runs) runs × \(rounds) rounds on 3 threads, "
        + "\(mismatches.count) mismatches")
    #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    #expect(overlaps == 0, "an observer's runs overlapped")
    #expect(survivors == 0, "replaced objects that outlived their replacement")
    #expect(doubleFires == 0, "a one-shot tracker fired twice")
  }
}
