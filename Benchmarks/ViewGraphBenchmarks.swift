import ReactiveState
import ReactiveStateMacrosFree

/// Rows of the view-graph issue: fine-grained row updates, flat update cost as the list grows,
/// mount cost, and a coarse closure-built list for comparison.
///
/// The view graph is `@MainActor`; `main.swift`'s top-level code runs on the main thread, so the
/// group assumes main-actor isolation.
func runViewGraphBenchmarks(_ harness: BenchmarkHarness) {
  MainActor.assumeIsolated { ViewGraphBenchmarks(harness: harness).run() }
}

/// One row's model, written as the `@Observable` macro's expansion.
final class BenchRowModel: ReactiveState.Observable {
  private let registrar = ReactiveState.ObservationRegistrar()
  private var _value: Int
  init(_ value: Int) { _value = value }

  var value: Int {
    get {
      registrar.access(self, keyPath: \.value)
      return _value
    }
    set {
      registrar.withMutation(of: self, keyPath: \.value, replacing: _value, with: newValue) {
        _value = newValue
      }
    }
  }
}

/// A row reading only its own model.
struct BenchRow: View {
  let model: BenchRowModel
  var body: some View { Text("row \(model.value)") }
}

/// A row holding a closure: never known equal to its previous value, so re-evaluated whenever
/// its parent is (the coarse, object-level stand-in).
struct BenchClosureRow: View {
  let title: () -> String
  var body: some View { Text(title()) }
}

struct BenchList: View {
  let models: [BenchRowModel]
  var body: some View {
    List(models.indices, id: \.self) { index in BenchRow(model: models[index]) }
  }
}

/// All values in one observable array read by the parent; rows get closures.
final class BenchCoarseStore: ReactiveState.Observable {
  private let registrar = ReactiveState.ObservationRegistrar()
  private var _values: [Int]
  init(count: Int) { _values = Array(0..<count) }

  var values: [Int] {
    get {
      registrar.access(self, keyPath: \.values)
      return _values
    }
    set {
      registrar.withMutation(of: self, keyPath: \.values) { _values = newValue }
    }
  }
}

struct BenchCoarseList: View {
  let store: BenchCoarseStore
  var body: some View {
    let values = store.values
    List(values.indices, id: \.self) { index in
      BenchClosureRow(title: { "row \(values[index])" })
    }
  }
}

/// A list keyed by the store's values: inserting or removing a value is a structural change.
struct BenchKeyedList: View {
  let store: BenchCoarseStore
  var body: some View { List(store.values, id: \.self) { BenchValueRow(value: $0) } }
}

/// The legacy model: every row's value in one `ObservableObject`, observed by the parent.
final class LegacyBenchStore: ObservableObject, @unchecked Sendable {
  @Published var values: [Int]
  init(count: Int) { values = Array(0..<count) }
}

struct BenchValueRow: View {
  let value: Int
  var body: some View { Text("row \(value)") }
}

struct LegacyBenchList: View {
  @ObservedObject var store: LegacyBenchStore
  var body: some View {
    List(store.values.indices, id: \.self) { index in BenchValueRow(value: store.values[index]) }
  }
}

@MainActor
struct ViewGraphBenchmarks {
  let harness: BenchmarkHarness

  func run() {
    fineGrainedUpdateIsOneEvaluation()
    for n in harness.quick ? [100, 1_000, 10_000] : [100, 10_000, 100_000] {
      updatePass(rows: n)
    }
    mountCost()
    structuralChangeCost()
    reEvaluationCost(of: "body", BenchList.init)
    reEvaluationCost(of: "body with a @State", BenchStateList.init)
    coarseClosureList()
    legacyObservableObjectList()
  }

  private func makeHost<Root: View>(
    rows: Int, _ makeRoot: ([BenchRowModel]) -> Root
  ) -> (ViewHost, [BenchRowModel]) {
    let models = (0..<rows).map(BenchRowModel.init)
    return (ViewHost(makeRoot(models), mode: .manual), models)
  }

  private func fineGrainedUpdateIsOneEvaluation() {
    let (host, models) = makeHost(rows: 10_000, BenchList.init)
    let before = host.totalBodyEvaluations
    models[4_321].value += 1
    host.flush()
    let evaluations = host.totalBodyEvaluations - before
    harness.check(
      evaluations == 1,
      "viewgraph: mutating one of 10,000 row models evaluated \(evaluations) bodies, expected 1")
    harness.add(
      BenchmarkRow(
        group: "viewgraph", name: "10,000 rows, mutate one: body evaluations",
        ours: Double(evaluations), baseline: nil, unit: "bodies", goal: "exactly 1"))
  }

  private func updatePass(rows: Int) {
    let (host, models) = makeHost(rows: rows, BenchList.init)
    let updates = 200
    var next = 0
    let perUpdate = harness.measure {
      let start = nowNanoseconds()
      for _ in 0..<updates {
        next = (next &+ 7_919) % rows
        models[next].value &+= 1
        host.flush()
      }
      return (nowNanoseconds() - start, updates)
    }
    harness.add(
      BenchmarkRow(
        group: "viewgraph", name: "update pass (mutate one row + flush), N = \(rows)",
        ours: perUpdate, baseline: nil, goal: "flat in N"))
  }

  private func mountCost() {
    let rows = harness.quick ? 1_000 : 10_000
    var nodes = 0
    let perNode = harness.measure {
      let models = (0..<rows).map(BenchRowModel.init)
      let start = nowNanoseconds()
      let host = ViewHost(BenchList(models: models), mode: .manual)
      let elapsed = nowNanoseconds() - start
      nodes = host.nodeCount
      return (elapsed, nodes)
    }
    harness.add(
      BenchmarkRow(
        group: "viewgraph", name: "mount, per node (\(rows) rows, \(nodes) nodes)",
        ours: perNode, baseline: nil))
  }

  /// A row inserted in the middle of a keyed list and removed again, each flushed: the cost
  /// per row of the list (the rows around the change are matched and compared, not re-evaluated).
  private func structuralChangeCost() {
    let rows = harness.quick ? 1_000 : 10_000
    let store = BenchCoarseStore(count: rows)
    let host = ViewHost(BenchKeyedList(store: store), mode: .manual)
    let before = host.totalBodyEvaluations
    let perRow = harness.measure {
      let start = nowNanoseconds()
      store.values.insert(-1, at: rows / 2)
      host.flush()
      store.values.remove(at: rows / 2)
      host.flush()
      return (nowNanoseconds() - start, 2 * rows)
    }
    // Per insertion and removal: the list's body twice and the inserted row's once.
    let evaluations = host.totalBodyEvaluations - before
    harness.check(
      evaluations == 3 * (harness.samples + 1) && host.texts.count == rows,
      "viewgraph: structural changes evaluated \(evaluations) bodies")
    harness.add(
      BenchmarkRow(
        group: "viewgraph",
        name: "structural change, per row (insert or remove 1 of \(rows) keyed rows)",
        ours: perRow, baseline: nil))
  }

  /// Every row of a `makeRoot` list dirty, then one flush: the cost per re-evaluated row.
  private func reEvaluationCost<Root: View>(
    of what: String, _ makeRoot: ([BenchRowModel]) -> Root
  ) {
    let rows = harness.quick ? 1_000 : 10_000
    let (host, models) = makeHost(rows: rows, makeRoot)
    let perBody = harness.measure {
      let before = host.totalBodyEvaluations
      for model in models { model.value &+= 1 }
      let start = nowNanoseconds()
      host.flush()
      let elapsed = nowNanoseconds() - start
      return (elapsed, host.totalBodyEvaluations - before)
    }
    harness.add(
      BenchmarkRow(
        group: "viewgraph", name: "re-evaluated \(what) (all \(rows) rows dirty, one flush)",
        ours: perBody, baseline: nil))
  }

  /// The same list with `ObservableObject` models observed by the parent: any change
  /// re-evaluates the parent and re-expands all rows (object-level invalidation).
  private func legacyObservableObjectList() {
    let rows = harness.quick ? 1_000 : 10_000
    let store = LegacyBenchStore(count: rows)
    coarseListRow(
      rows: rows, host: ViewHost(LegacyBenchList(store: store), mode: .manual),
      mutate: { store.values[$0 % rows] &+= 1 }, expected: nil,
      name: {
        "ObservableObject list, parent observes, mutate one, N = \(rows) (\($0) bodies vs 1)"
      })
  }

  /// A list whose rows are closures (never known equal), re-evaluated with their parent.
  private func coarseClosureList() {
    let rows = harness.quick ? 1_000 : 10_000
    let store = BenchCoarseStore(count: rows)
    coarseListRow(
      rows: rows, host: ViewHost(BenchCoarseList(store: store), mode: .manual),
      mutate: { store.values[$0 % rows] &+= 1 }, expected: rows + 1,
      name: { "coarse stand-in: closure rows, mutate one, N = \(rows) (\($0) bodies)" })
  }

  /// Counts the body evaluations of one mutation (checked against `expected` when given),
  /// then times mutate + flush.
  private func coarseListRow(
    rows: Int, host: ViewHost, mutate: (Int) -> Void, expected: Int?, name: (Int) -> String
  ) {
    let before = host.totalBodyEvaluations
    mutate(4_21)
    host.flush()
    let evaluations = host.totalBodyEvaluations - before
    harness.check(
      evaluations == (expected ?? evaluations) && evaluations >= 2,
      "viewgraph: coarse list re-evaluated \(evaluations) bodies, expected \(expected ?? 2)")
    let updates = 5
    let perUpdate = harness.measure {
      let start = nowNanoseconds()
      for i in 0..<updates {
        mutate(i)
        host.flush()
      }
      return (nowNanoseconds() - start, updates)
    }
    harness.add(
      BenchmarkRow(group: "viewgraph", name: name(evaluations), ours: perUpdate, baseline: nil))
  }

}
