import Observation
import ReactiveState
import ReactiveStateMacrosFree

final class DerivedProfileModel: TrackedObservable, @unchecked Sendable {
  let observationRegistrar = ReactiveState.ObservationRegistrar()
  @Tracked var value = 0
  @Derived({ (model: DerivedProfileModel) in model.value }) var derived: Int
}

/// `--profile NAME COUNT [WIDTH]`: runs one ReactiveState operation COUNT times and nothing
/// else, for instruction counting under `valgrind --tool=callgrind` (compare two COUNTs to
/// cancel the start-up cost). WIDTH sets the number of derived values of `broad` (100), e.g.
/// 1000 for a graph larger than a core's L2 cache.
enum ProfileLoops {
  static func run(_ name: String, count: Int, width: Int? = nil) {
    let model = HandWrittenCounter()
    switch name {
    case "continuous":
      let token = observe { _ = model.count }
      for i in 0..<count { model.count = i + 1 }
      withExtendedLifetime(token) {}
    case "continuous-mainactor":
      MainActor.assumeIsolated {
        let counter = MainActorCounter()
        let token = observe { @MainActor in _ = counter.count }
        for i in 0..<count { counter.count = i + 1 }
        withExtendedLifetime(token) {}
      }
    case "roundtrip":
      // As the benchmark row: the callback captures a counter (a closure context per arm).
      let fired = FireCounter()
      for i in 0..<count {
        ReactiveState.withObservationTracking({ _ = model.count }, onChange: { fired.value += 1 })
        model.count = i + 1
      }
      consume(fired.value)
    case "roundtrip-mainactor":
      MainActor.assumeIsolated { mainActorRoundTrips(MainActorCounter(), count: count) }
    case "roundtrip-tracked-mainactor":
      MainActor.assumeIsolated { mainActorRoundTrips(MainActorTrackedCounter(), count: count) }
    case "unread":
      ReactiveState.withObservationTracking({ _ = model.other }, onChange: {})
      for i in 0..<count { model.count = i + 1 }
    case "roundtrip-observation":
      let theirs = ObservationCounter()
      for i in 0..<count {
        Observation.withObservationTracking({ _ = theirs.count }, onChange: {})
        theirs.count = i + 1
      }
    case "continuous-observation":
      let theirs = ObservationRearmingObserver(model: ObservationCounter())
      theirs.arm()
      for i in 0..<count { theirs.model.count = i + 1 }
    case "chain":
      let head = BenchCell(0)
      var previous = Computed { head.value }
      var chain = [previous]
      for _ in 1..<100 {
        let upstream = previous
        previous = Computed { upstream.value + 1 }
        chain.append(previous)
      }
      let last = previous
      let token = observe { _ = last.value }
      for i in 0..<count { head.value = i + 1 }
      withExtendedLifetime((chain, token)) {}
    case "broad":
      let head = BenchCell(0)
      let nodes = (0..<(width ?? 100)).map { offset in Computed { head.value + offset } }
      let tokens = nodes.map { node in observe { _ = node.value } }
      for i in 0..<count { head.value = i + 1 }
      withExtendedLifetime((nodes, tokens)) {}
    case "batched-writes":
      // S-bench update1to1's step: one observer, many writes to its property in one transaction.
      let token = observe { _ = model.count }
      withTransaction { for i in 0..<count { model.count = i + 1 } }
      withExtendedLifetime(token) {}
    case "viewgraph-reeval":
      // 1,000 mounted rows, all dirtied and flushed `count` times.
      MainActor.assumeIsolated { reevaluateRows(count: count, in: BenchList.init) }
    case "viewgraph-mount":
      MainActor.assumeIsolated {
        for _ in 0..<count {
          let models = (0..<1_000).map(BenchRowModel.init)
          consume(ViewHost(BenchList(models: models), mode: .manual).nodeCount)
        }
      }
    case "viewgraph-insert":
      // 1,000 keyed rows; a row inserted in the middle and removed again, `count` times each.
      MainActor.assumeIsolated {
        let store = BenchCoarseStore(count: 1_000)
        let host = ViewHost(BenchKeyedList(store: store), mode: .manual)
        for _ in 0..<count {
          store.values.insert(-1, at: 500)
          host.flush()
          store.values.remove(at: 500)
          host.flush()
        }
      }
    case "viewgraph-state-reeval":
      // As viewgraph-reeval, with a `@State` property in every row.
      MainActor.assumeIsolated { reevaluateRows(count: count, in: BenchStateList.init) }
    case "viewgraph-item-parent-reeval":
      // 1,000 rows holding a non-Equatable value, the parent re-evaluated `count` times.
      MainActor.assumeIsolated {
        reevaluateParent(count: count) { header, models in
          BenchHeaderList(header: header, models: models) { model, index in
            BenchItemRow(
              item: BenchItem(
                title: "a row title longer than fifteen bytes", count: index, model: model))
          }
        }
      }
    case "viewgraph-parent-reeval":
      // 1,000 rows under a parent re-evaluated `count` times; every row compares equal.
      MainActor.assumeIsolated {
        reevaluateParent(count: count) { header, models in
          BenchHeaderList(header: header, models: models) {
            BenchLabeledRow(model: $0, title: "row", index: $1)
          }
        }
      }
    case "viewgraph-state-parent-reeval":
      // As viewgraph-parent-reeval, with a `@State` property in every row.
      MainActor.assumeIsolated {
        reevaluateParent(count: count) { header, models in
          BenchHeaderList(header: header, models: models) { model, _ in
            BenchStateRow(model: model)
          }
        }
      }
    case "viewgraph-binding-parent-reeval":
      // 1,000 rows bound to their parent's state, the parent re-evaluated `count` times.
      MainActor.assumeIsolated { reevaluateParent(count: count, in: BenchBindingList.init) }
    case "tracked-continuous":
      let tracked = TrackedCounter()
      let token = observe { _ = tracked.count }
      for i in 0..<count { tracked.count = i + 1 }
      withExtendedLifetime(token) {}
    case "tracked-read":
      let tracked = TrackedCounter()
      for _ in 0..<count {
        ReactiveState.withObservationTracking(
          {
            var sum = 0
            for _ in 0..<100 { sum &+= tracked.count }
            consume(sum)
          }, onChange: {})
      }
    case "tracked-write":
      let tracked = TrackedCounter()
      ReactiveState.withObservationTracking({ _ = tracked.count }, onChange: {})
      for i in 0..<count { tracked.count = i + 1 }
    case "tracked-modify":
      let tracked = TrackedCounter()
      ReactiveState.withObservationTracking({ _ = tracked.count }, onChange: {})
      tracked.count += 1
      for _ in 0..<count { tracked.count += 1 }
    case "hand-modify":
      let hand = HandWrittenCounter()
      ReactiveState.withObservationTracking({ _ = hand.count }, onChange: {})
      hand.count += 1
      for _ in 0..<count { hand.count += 1 }
    case "async":
      let done = BenchmarkSemaphore()
      Task.detached {
        var iterator = ObservedValues { model.count }.makeAsyncIterator()
        _ = await iterator.next()
        for i in 0..<count {
          model.count = i + 1
          _ = await iterator.next()
        }
        done.signal()
      }
      done.wait()
    case "create-observers":
      let cells = (0..<count).map { _ in HandWrittenCounter() }
      var tokens: [ObservationToken] = []
      tokens.reserveCapacity(count)
      for cell in cells { tokens.append(observe { _ = cell.count }) }
      for token in tokens { token.cancel() }
      tokens.removeAll()
    case "create-computeds":
      // The life of an observed `Computed`: created, computed and linked by an observer, then
      // unobserved and freed (S-bench createComputations' unit of work).
      let head = BenchCell(0)
      var nodes: [Computed<Int>] = []
      var tokens: [ObservationToken] = []
      nodes.reserveCapacity(count)
      tokens.reserveCapacity(count)
      for offset in 0..<count {
        let node = Computed { head.value + offset }
        nodes.append(node)
        tokens.append(observe { _ = node.value })
      }
      for token in tokens { token.cancel() }
      tokens.removeAll()
      nodes.removeAll()
    case "arm", "arm-fire", "arm-modify":
      // Arms and fires a one-shot on each of `count` models, through the setter and in place
      // (so every call site is known), re-arms them all, then (arm-fire, arm-modify) mutates
      // each once more: the difference between two profiles is the steady cost of a
      // mutation that fires one observer.
      let models = (0..<count).map { _ in HandWrittenCounter() }
      for model in models {
        ReactiveState.withObservationTracking({ _ = model.count }, onChange: {})
        model.count = 1
        ReactiveState.withObservationTracking({ _ = model.count }, onChange: {})
        model.count &+= 1
        ReactiveState.withObservationTracking({ _ = model.count }, onChange: {})
      }
      if name == "arm-fire" { for model in models { model.count = 2 } }
      // The N-instances row's mutation: in place, through `_modify`.
      if name == "arm-modify" { for model in models { model.count &+= 1 } }
      withExtendedLifetime(models) {}
    case "cellx":
      // One 1000-layer grid, updated `count` times (alternating two sets of source values).
      let framework = ReactiveStateFramework()
      let (sources, ends) = CellxScenario(layers: 1000).build(framework)
      for round in 0..<count {
        framework.withBatch {
          for (index, source) in sources.enumerated() {
            source.write(Double(round % 2 == 0 ? 4 - index : index + 1))
          }
        }
        for end in ends { consume(end.read()) }
      }
      framework.cleanup()
    case "recompute-plain", "recompute-of":
      let head = BenchCell(0)
      let derived =
        name == "recompute-of" ? Computed(of: head) { $0.value } : Computed { head.value }
      let token = observe { _ = derived.value }
      for i in 0..<count { head.value = i + 1 }
      withExtendedLifetime((derived, token)) {}
    case "recompute-derived":
      let model = DerivedProfileModel()
      let token = observe { _ = model.derived }
      for i in 0..<count { model.value = i + 1 }
      withExtendedLifetime(token) {}
    case "derived-read", "computed-read":
      let model = DerivedProfileModel()
      let computed = model.$derived
      var sum = 0
      if name == "derived-read" {
        for _ in 0..<count { sum &+= model.derived }
      } else {
        for _ in 0..<count { sum &+= computed.value }
      }
      consume(sum)
    case "kairo-broad": runKairo(BroadPropagation(), count: count)
    case "kairo-repeated": runKairo(RepeatedObservers(), count: count)
    case "kairo-unstable": runKairo(Unstable(), count: count)
    case "kairo-diamond": runKairo(Diamond(), count: count)
    case "kairo-mol0": runKairo(MolBench(fibArgument: 0), count: count)
    default:
      print("unknown profile \(name)")
    }
  }

  /// The main-actor round trip of the benchmark row, on `model`.
  @MainActor private static func mainActorRoundTrips(
    _ model: some MainActorCountingModel, count: Int
  ) {
    let fired = FireCounter()
    for i in 0..<count {
      ReactiveState.withObservationTracking({ _ = model.count }, onChange: { fired.value += 1 })
      model.count = i + 1
    }
    consume(fired.value)
  }

  /// Mounts 1,000 rows under `makeRoot`'s view, then dirties every row and flushes, `count`
  /// times.
  @MainActor
  private static func reevaluateRows<Root: View>(
    count: Int, in makeRoot: ([BenchRowModel]) -> Root
  ) {
    let models = (0..<1_000).map(BenchRowModel.init)
    let host = ViewHost(makeRoot(models), mode: .manual)
    for _ in 0..<count {
      for model in models { model.value &+= 1 }
      host.flush()
    }
  }

  /// Mounts 1,000 rows under `makeRoot`'s view, which also shows a header model, then changes
  /// the header and flushes, `count` times: the parent is re-evaluated, the rows compared.
  @MainActor
  private static func reevaluateParent<Root: View>(
    count: Int, in makeRoot: (BenchRowModel, [BenchRowModel]) -> Root
  ) {
    let header = BenchRowModel(0)
    let models = (0..<1_000).map(BenchRowModel.init)
    let host = ViewHost(makeRoot(header, models), mode: .manual)
    for _ in 0..<count {
      header.value &+= 1
      host.flush()
    }
  }

  /// Builds a kairo case with ReactiveState and runs its step `count` times.
  private static func runKairo<Case: KairoCase>(_ kairoCase: Case, count: Int) {
    let framework = ReactiveStateFramework()
    let checker = ResultChecker()
    let iter = kairoCase.build(framework, checker: checker)
    for _ in 0..<count { iter() }
    framework.cleanup()
    if checker.failures > 0 { print("check failed: \(checker.firstFailure ?? "")") }
  }
}
