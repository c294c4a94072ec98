import ReactiveState
import Testing

/// Seeded fuzzing of derived values (`Computed`) against a reference model that recomputes
/// everything from scratch.
///
/// A script builds a random graph of derived values over four cells — each node picks its
/// inputs by the parity of a selector, so dependencies change with the values — then runs
/// random steps: writes (equal values do not notify), transactions, reads outside tracking,
/// continuous observers of one node, one-shot trackers of one node, and cancellations.
/// Observers come and go, so nodes move between observed (linked to their inputs) and
/// unobserved (validated by version on read).
///
/// Reference semantics: a read returns the value recomputed from the current cells. A
/// continuous observer runs at once and again after each write (or transaction) that changes
/// its node's value (equality cut-off). A one-shot tracker fires once, at the first notifying
/// write to a cell its node currently depends on, even when the node's value will not change
/// (one-shots fire on `willSet`, before anything is recomputed).
@Suite struct DerivedFuzzTests {
  enum Input: CustomStringConvertible {
    case cell(Int)
    case node(Int)
    var description: String {
      switch self {
      case .cell(let index): return "c\(index)"
      case .node(let index): return "n\(index)"
      }
    }
  }

  /// `(selector + sum(selector even ? ifEven : ifOdd)) % 5`.
  struct NodeSpec: CustomStringConvertible {
    var selector: Input
    var ifEven: [Input]
    var ifOdd: [Input]
    var description: String { "\(selector) ? \(ifEven) : \(ifOdd)" }
  }

  enum Step: CustomStringConvertible {
    case write(cell: Int, value: Int)
    case transaction([(cell: Int, value: Int)])
    case read(node: Int)
    case observe(id: Int, node: Int)
    case track(id: Int, node: Int)
    case cancel(id: Int)

    var description: String {
      switch self {
      case .write(let cell, let value): return "c\(cell) = \(value)"
      case .transaction(let writes):
        return
          "transaction { \(writes.map { "c\($0.cell) = \($0.value)" }.joined(separator: "; ")) }"
      case .read(let node): return "read n\(node)"
      case .observe(let id, let node): return "observe o\(id) of n\(node)"
      case .track(let id, let node): return "one-shot t\(id) of n\(node)"
      case .cancel(let id): return "cancel o\(id)"
      }
    }
  }

  struct Script: CustomStringConvertible {
    var nodes: [NodeSpec]
    var steps: [Step]
    var description: String {
      nodes.enumerated().map { "n\($0.offset) = \($0.element)" }.joined(separator: "; ")
    }
  }

  static let cellCount = 4
  static let nodeCount = 6

  static func generate(seed: UInt64) -> Script {
    var random = SplitMix64(seed: seed)
    func input(below node: Int) -> Input {
      node > 0 && random.oneIn(2) ? .node(random.below(node)) : .cell(random.below(cellCount))
    }
    let nodes = (0..<nodeCount).map { node in
      NodeSpec(
        selector: input(below: node),
        ifEven: (0..<random.below(3)).map { _ in input(below: node) },
        ifOdd: (0..<random.below(3)).map { _ in input(below: node) })
    }
    var steps: [Step] = []
    var ids = 0
    for _ in 0..<30 {
      switch random.below(10) {
      case 0..<3: steps.append(.write(cell: random.below(cellCount), value: random.below(4)))
      case 3:
        steps.append(
          .transaction(
            (0..<(1 + random.below(3))).map { _ in
              (cell: random.below(cellCount), value: random.below(4))
            }))
      case 4..<6: steps.append(.read(node: random.below(nodeCount)))
      case 6:
        steps.append(.observe(id: ids, node: random.below(nodeCount)))
        ids += 1
      case 7:
        steps.append(.track(id: ids, node: random.below(nodeCount)))
        ids += 1
      default: if ids > 0 { steps.append(.cancel(id: random.below(ids))) }
      }
    }
    return Script(nodes: nodes, steps: steps)
  }

  /// The reference model: recomputes from the cells every time.
  struct Reference {
    let nodes: [NodeSpec]
    var cells = Array(repeating: 0, count: DerivedFuzzTests.cellCount)
    var observers: [Int: (node: Int, lastSeen: Int)] = [:]
    var trackers: [Int: Set<Int>] = [:]

    /// The value of `input`, adding every cell read to `reads`.
    func value(_ input: Input, reads: inout Set<Int>) -> Int {
      switch input {
      case .cell(let index):
        reads.insert(index)
        return cells[index]
      case .node(let index):
        let spec = nodes[index]
        let selector = value(spec.selector, reads: &reads)
        let chosen = selector % 2 == 0 ? spec.ifEven : spec.ifOdd
        return (selector + chosen.reduce(0) { $0 + value($1, reads: &reads) }) % 5
      }
    }

    func value(ofNode node: Int) -> Int {
      var reads = Set<Int>()
      return value(.node(node), reads: &reads)
    }

    mutating func write(_ writes: [(cell: Int, value: Int)], log: inout [String]) {
      for (cell, value) in writes where cells[cell] != value {
        for (id, cellsRead) in trackers where cellsRead.contains(cell) {
          log.append("fired t\(id)")
          trackers[id] = nil
        }
        cells[cell] = value
      }
      for (id, observer) in observers {
        let now = value(ofNode: observer.node)
        if now != observer.lastSeen {
          log.append("o\(id)=\(now)")
          observers[id]!.lastSeen = now
        }
      }
    }

    static func run(_ script: Script) -> [[String]] {
      var reference = Reference(nodes: script.nodes)
      return script.steps.map { step in
        var log: [String] = []
        switch step {
        case .write(let cell, let value): reference.write([(cell, value)], log: &log)
        case .transaction(let writes): reference.write(writes, log: &log)
        case .read(let node): log.append("n\(node)=\(reference.value(ofNode: node))")
        case .observe(let id, let node):
          let now = reference.value(ofNode: node)
          reference.observers[id] = (node, now)
          log.append("o\(id)=\(now)")
        case .track(let id, let node):
          var reads = Set<Int>()
          _ = reference.value(.node(node), reads: &reads)
          reference.trackers[id] = reads
        case .cancel(let id): reference.observers[id] = nil
        }
        return log.sorted()
      }
    }
  }

  /// The derived value of `spec`, reading its inputs through `value`.
  static func computed(_ spec: NodeSpec, reading value: @escaping (Input) -> Int)
    -> Computed<Int>
  {
    Computed {
      let selector = value(spec.selector)
      let chosen = selector % 2 == 0 ? spec.ifEven : spec.ifOdd
      return (selector + chosen.reduce(0) { $0 + value($1) }) % 5
    }
  }

  /// One observable integer with hand-written accessors and the macro's equality rule.
  final class Cell: ReactiveState.Observable, @unchecked Sendable {
    private let registrar = ReactiveState.ObservationRegistrar()
    private var storage = 0
    var value: Int {
      get {
        registrar.access(self, keyPath: \.value)
        return storage
      }
      set {
        guard newValue != storage else { return }
        registrar.withMutation(of: self, keyPath: \.value) { storage = newValue }
      }
    }
  }

  /// Runs a script on ReactiveState.
  final class Execution: @unchecked Sendable {
    let cells = (0..<DerivedFuzzTests.cellCount).map { _ in Cell() }
    var nodes: [Computed<Int>] = []
    var tokens: [Int: ObservationToken] = [:]
    var log: [String] = []

    init(_ specs: [NodeSpec]) {
      for spec in specs {
        let value: (Input) -> Int = { [unowned self] input in
          switch input {
          case .cell(let index): return cells[index].value
          case .node(let index): return nodes[index].value
          }
        }
        nodes.append(DerivedFuzzTests.computed(spec, reading: value))
      }
    }

    func run(_ steps: [Step]) -> [[String]] {
      steps.map { step in
        switch step {
        case .write(let cell, let value): cells[cell].value = value
        case .transaction(let writes):
          withTransaction { for (cell, value) in writes { cells[cell].value = value } }
        case .read(let node): log.append("n\(node)=\(nodes[node].value)")
        case .observe(let id, let node):
          let computed = nodes[node]
          // Unowned, as below: this execution holds the tokens and the cells that keep these
          // closures, so a strong capture would keep every script's graph alive.
          tokens[id] = observe { [unowned self] in log.append("o\(id)=\(computed.value)") }
        case .track(let id, let node):
          let computed = nodes[node]
          ReactiveState.withObservationTracking {
            _ = computed.value
          } onChange: { [unowned self] in
            log.append("fired t\(id)")
          }
        case .cancel(let id): tokens[id]?.cancel()
        }
        defer { log = [] }
        return log.sorted()
      }
    }
  }

  @Test func randomDerivedGraphsMatchTheReferenceModel() {
    let scripts = Fuzz.scriptCount
    var divergent = 0
    var steps = 0
    for seed in 0..<UInt64(scripts) {
      let script = Self.generate(seed: seed)
      let expected = Reference.run(script)
      let actual = Execution(script.nodes).run(script.steps)
      steps += script.steps.count
      if expected != actual {
        divergent += 1
        if divergent == 1 {
          print("derived fuzz graph, seed \(seed): \(script)")
          print(
            Fuzz.report(
              "derived fuzz", seed: seed, script: script.steps, expectedName: "Reference",
              expected: { Reference.run(Script(nodes: script.nodes, steps: $0)) },
              actual: { Execution(script.nodes).run($0) }))
        }
      }
    }
    print("fuzz derived: \(scripts) scripts, \(steps) steps compared, \(divergent) divergent")
    #expect(divergent == 0)
  }
}
