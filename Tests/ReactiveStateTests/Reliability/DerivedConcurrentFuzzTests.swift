import Foundation
import ReactiveState
import Testing

/// Random derived graphs (the generator of ``DerivedFuzzTests``: dependencies that switch
/// with the values) driven from four threads at once: two write cells (some writes in
/// transactions), two churn — read nodes, subscribe and cancel observers, install one-shot
/// trackers (plain and SE-0506), replace an object holding cells by a copy (so inputs go
/// away mid-computation).
/// Cells change independently, so a value read while writes land has no single right
/// answer; what must hold is checked at quiescence, against the reference model:
/// - every node reads the value recomputed from the final cells;
/// - every standing observer (subscribed before the threads start) last saw that value, and
///   still follows the next write;
/// - no one-shot tracker fired twice, and each SE-0506 tracker got one mutation's events at
///   most, and one that delivered a `willSet` also delivered its `didSet` (when both were
///   requested);
/// - dropping the graph releases every derived value and every tracker's closure, and every
///   replaced object went away.
@Suite struct DerivedConcurrentFuzzTests {
  /// The graph of one script's node specifications over replaceable cells.
  final class Graph: @unchecked Sendable {
    /// The script's cells are the first ``DerivedFuzzTests/cellCount`` of these.
    let cells = ReplaceableCells()
    /// The objects the churn replaced (each must go away).
    let replaced = LockedBox<[WeakTriple]>([])
    private(set) var nodes: [Computed<Int>] = []

    init(_ specs: [DerivedFuzzTests.NodeSpec]) {
      for spec in specs {
        let value: (DerivedFuzzTests.Input) -> Int = { [unowned self] input in
          switch input {
          case .cell(let index): return cells[index]
          case .node(let index): return nodes[index].value
          }
        }
        nodes.append(DerivedFuzzTests.computed(spec, reading: value))
      }
    }

    /// What the reference model computes for `node` from the cells' current values.
    func expected(_ node: Int, specs: [DerivedFuzzTests.NodeSpec]) -> Int {
      var reference = DerivedFuzzTests.Reference(nodes: specs)
      reference.cells = (0..<DerivedFuzzTests.cellCount).map(cells.stored)
      return reference.value(ofNode: node)
    }
  }

  /// The churn of one thread: random reads, observers that come and go, one-shot trackers.
  static func churn(
    _ graph: Graph, seed: UInt64, rounds: Int, outOfRange: AtomicCounter,
    doubleFires: AtomicCounter, trackers: LockedBox<[EventRecord]>
  ) {
    var random = SplitMix64(seed: seed)
    var kept: ObservationToken?
    for _ in 0..<rounds {
      let node = graph.nodes[random.below(graph.nodes.count)]
      switch random.below(6) {
      case 4: graph.replaced.value.append(WeakTriple(graph.cells.replace(random.below(2))))
      case 5:
        let record = EventRecord.track(&random) { _ = node.value }
        trackers.value.append(record)
      case 0:
        if !(0..<5).contains(node.value) { outOfRange.increment() }
      case 1:
        kept?.cancel()
        kept = observe { if !(0..<5).contains(node.value) { outOfRange.increment() } }
      case 2:
        observe { _ = node.value }.cancel()
      default:
        let fires = AtomicCounter()
        ReactiveState.withObservationTracking {
          _ = node.value
        } onChange: {
          fires.increment()
          if fires.value > 1 { doubleFires.increment() }
        }
      }
    }
    kept?.cancel()
  }

  /// One graph's run: the threads, then the quiescent checks. Returns the mismatches and weak
  /// references to the graph's derived values (the graph itself is gone when this returns,
  /// once the workers dropped their jobs).
  static func run(
    seed: UInt64, rounds: Int, on workers: [WorkerThread], outOfRange: AtomicCounter,
    doubleFires: AtomicCounter, trackers: LockedBox<[EventRecord]>
  ) -> (mismatches: [String], derivedValues: [WeakComputed], replacedSurvivors: Int) {
    let specs = DerivedFuzzTests.generate(seed: seed).nodes
    let graph = Graph(specs)
    let lastSeen = graph.nodes.map { _ in LockedBox<Int?>(nil) }
    let standing = graph.nodes.indices.map { index in
      let node = graph.nodes[index]
      return observe { lastSeen[index].value = node.value }
    }
    graph.cells.startRandomWriters(
      on: workers[0...1], seed: seed, rounds: rounds, cellCount: DerivedFuzzTests.cellCount)
    for churner in 2...3 {
      workers[churner].run {
        Self.churn(
          graph, seed: seed &* 131 &+ UInt64(churner), rounds: rounds, outOfRange: outOfRange,
          doubleFires: doubleFires, trackers: trackers)
      }
    }
    for worker in workers { worker.wait() }
    // A second, empty job: a worker has surely dropped the first one (and the graph it
    // captured) before it takes the next.
    for worker in workers { worker.run {} }
    for worker in workers { worker.wait() }

    var mismatches: [String] = []
    func check(_ moment: String) {
      for index in graph.nodes.indices {
        let expected = graph.expected(index, specs: specs)
        let read = graph.nodes[index].value
        let seen = lastSeen[index].value
        if read != expected || seen != expected {
          mismatches.append(
            "seed \(seed) \(moment): n\(index) read \(read), observer saw \(seen ?? -1), "
              + "reference \(expected)")
        }
      }
    }
    check("after the threads")
    for cell in 0..<DerivedFuzzTests.cellCount {
      graph.cells[cell] = (graph.cells.stored(cell) + 1) % 4
    }
    check("after one more write to every cell")
    for token in standing { token.cancel() }
    let survivors = graph.replaced.value.filter { $0.object != nil }.count
    return (mismatches, graph.nodes.map(WeakComputed.init), survivors)
  }

  /// A weak reference to a derived value.
  struct WeakComputed {
    weak var value: Computed<Int>?
    init(_ value: Computed<Int>) { self.value = value }
  }

  @Test func fourThreadsOnARandomGraphEndConsistentWithTheReference() {
    let graphs = Reliability.count("REACTIVESTATE_DERIVED_THREAD_GRAPHS", default: 40)
    let rounds = Reliability.count("REACTIVESTATE_DERIVED_THREAD_ROUNDS", default: 1_500)
    let workers = (0..<4).map { _ in WorkerThread() }
    var mismatches: [String] = []
    var leaked = 0
    var survivors = 0
    var eventViolations: [String] = []
    var liveTrackerClosures = 0
    let outOfRange = AtomicCounter()
    let doubleFires = AtomicCounter()
    for seed in 0..<UInt64(graphs) {
      let trackers = LockedBox<[EventRecord]>([])
      let outcome = Self.run(
        seed: seed, rounds: rounds, on: workers, outOfRange: outOfRange, doubleFires: doubleFires,
        trackers: trackers)
      mismatches += outcome.mismatches
      leaked += outcome.derivedValues.filter { $0.value != nil }.count
      survivors += outcome.replacedSurvivors
      // The graph is gone: every tracker has ended.
      eventViolations += trackers.value.compactMap(\.violation)
      liveTrackerClosures += trackers.value.filter(\.closure.isAlive).count
    }
    for worker in workers { worker.stop() }
    print(
      "fuzz derived threads: \(graphs) graphs × \(rounds) rounds on 4 threads, "
        + "\(mismatches.count) mismatches, \(eventViolations.count) event violations")
    #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    #expect(outOfRange.value == 0, "a node read outside its range 0..<5")
    #expect(doubleFires.value == 0, "a one-shot tracker fired twice")
    #expect(leaked == 0, "derived values that outlived their graph")
    #expect(survivors == 0, "replaced objects that outlived their replacement")
    #expect(eventViolations.isEmpty, "\(eventViolations.prefix(5))")
    #expect(liveTrackerClosures == 0, "event trackers that kept their closure")
  }
}
