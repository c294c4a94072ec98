import Observation
import ReactiveState
import ReactiveStateMacrosFree

/// `@Tracked`'s form of the benchmark counter.
final class TrackedCounter: TrackedObservable, @unchecked Sendable {
  let observationRegistrar = ReactiveState.ObservationRegistrar()
  @Tracked var count = 0
}

/// `@Tracked`'s form of the main-actor benchmark counter.
@MainActor final class MainActorTrackedCounter: MainActorTrackedObservable {
  let observationRegistrar = MainActorObservationRegistrar()
  @Tracked var count = 0
}

/// ``CountingModel`` for the main-actor models (either authoring form).
@MainActor protocol MainActorCountingModel: AnyObject {
  var count: Int { get set }
}

extension MainActorCounter: MainActorCountingModel {}
extension MainActorTrackedCounter: MainActorCountingModel {}

/// A model with one observable property per subscript index (the fine-grained side of the
/// fan-out comparison).
final class WideModel: ReactiveState.Observable, @unchecked Sendable {
  private let registrar = ReactiveState.ObservationRegistrar()
  private var values: [Int]
  init(width: Int) { values = [Int](repeating: 0, count: width) }
  subscript(index: Int) -> Int {
    get {
      registrar.access(self, keyPath: \.[index])
      return values[index]
    }
    set { registrar.withMutation(of: self, keyPath: \.[index]) { values[index] = newValue } }
  }
}

/// `@Derived`'s form of a derived value, beside the `Computed` it wraps.
final class DerivedCounter: TrackedObservable, @unchecked Sendable {
  let observationRegistrar = ReactiveState.ObservationRegistrar()
  @Tracked var count = 0
  @Derived({ (counter: DerivedCounter) in counter.count * 2 }) var doubled: Int
}

/// The coarse side: one `ObservableObject` whose every change notifies every subscriber.
final class CoarseModel: ObservableObject, @unchecked Sendable {
  @Published var values: [Int]
  init(width: Int) { values = [Int](repeating: 0, count: width) }
}

/// Rows of the authoring issue: `@Tracked` against the hand-written form and Observation's
/// macro; fine-grained against `ObservableObject` fan-out.
func runAuthoringBenchmarks(_ harness: BenchmarkHarness) {
  benchmarkTrackedAccessors(harness)
  benchmarkFineVersusCoarse(harness)
}

private func benchmarkTrackedAccessors(_ harness: BenchmarkHarness) {
  let n = harness.iterations(2_000_000)
  // Escaped models (see `opaque(_:)`), so no loop folds to a constant.
  let tracked = opaque(TrackedCounter())
  let hand = opaque(HandWrittenCounter())
  let theirs = opaque(ObservationCounter())
  func perOp(_ body: () -> Void) -> Double { harness.time(operations: 1, body) / Double(n) }
  func add(_ name: String, tracked: Double, hand: Double, theirs: Double) {
    harness.add(
      BenchmarkRow(
        group: "authoring", name: "@Tracked \(name) (hand-written \(harness.format(hand)) ns)",
        ours: tracked,
        baseline: theirs, goal: "≤ 1.5× hand-written", verdict: tracked <= 1.5 * hand + 0.5))
  }
  add(
    "read",
    tracked: perOp {
      var sum = 0
      for _ in 0..<n { sum &+= tracked.count }
      consume(sum)
    },
    hand: perOp {
      var sum = 0
      for _ in 0..<n { sum &+= hand.count }
      consume(sum)
    },
    theirs: perOp {
      var sum = 0
      for _ in 0..<n { sum &+= theirs.count }
      consume(sum)
    })
  let scopes = n / 100
  func trackedRead(_ read: @escaping () -> Int, observation: Bool = false) -> Double {
    harness.time(operations: 1) {
      for _ in 0..<scopes {
        let body = {
          var sum = 0
          for _ in 0..<100 { sum &+= read() }
          consume(sum)
        }
        if observation {
          Observation.withObservationTracking(body, onChange: {})
        } else {
          ReactiveState.withObservationTracking(body, onChange: {})
        }
      }
    } / Double(scopes * 100)
  }
  add(
    "tracked read", tracked: trackedRead({ tracked.count }), hand: trackedRead({ hand.count }),
    theirs: trackedRead({ theirs.count }, observation: true))
  add(
    "write", tracked: perOp { for i in 0..<n { tracked.count = i } },
    hand: perOp { for i in 0..<n { hand.count = i } },
    theirs: perOp { for i in 0..<n { theirs.count = i } })
  add(
    "+= 1 (in place)", tracked: perOp { for _ in 0..<n { tracked.count += 1 } },
    hand: perOp { for _ in 0..<n { hand.count += 1 } },
    theirs: perOp { for _ in 0..<n { theirs.count += 1 } })

  // A current @Derived value against the Computed it wraps (read directly), and against
  // Observation's computed property, which recomputes on every read.
  let derived = DerivedCounter()
  let computed = derived.$doubled
  let wrapped = perOp {
    var sum = 0
    for _ in 0..<n { sum &+= derived.doubled }
    consume(sum)
  }
  let direct = perOp {
    var sum = 0
    for _ in 0..<n { sum &+= computed.value }
    consume(sum)
  }
  let recomputed = perOp {
    var sum = 0
    for _ in 0..<n { sum &+= theirs.doubled }
    consume(sum)
  }
  harness.add(
    BenchmarkRow(
      group: "authoring",
      name: "@Derived read, current (Computed read \(harness.format(direct)) ns)",
      ours: wrapped, baseline: recomputed, goal: "≤ 1.5× Computed read",
      verdict: wrapped <= 1.5 * direct + 0.5))
}

private func benchmarkFineVersusCoarse(_ harness: BenchmarkHarness) {
  for width in harness.quick ? [10, 1_000] : [10, 1_000, 100_000] {
    let fine = WideModel(width: width)
    let fineRuns = FireCounter()
    let tokens = (0..<width).map { index in
      observe {
        fineRuns.value += 1
        _ = fine[index]
      }
    }
    let coarse = CoarseModel(width: width)
    let coarseRuns = FireCounter()
    var bag = Set<AnyCancellable>()
    for _ in 0..<width {
      coarse.objectWillChange.sink { coarseRuns.value += 1 }.store(in: &bag)
    }
    let mutations = harness.iterations(1_000)
    fineRuns.value = 0
    let fineTime =
      harness.time(operations: 1) { for i in 0..<mutations { fine[width / 2] = i + 1 } }
      / Double(mutations)
    let finePerMutation = fineRuns.value / ((harness.samples + 1) * mutations)
    coarseRuns.value = 0
    let coarseTime =
      harness.time(operations: 1) { for i in 0..<mutations { coarse.values[width / 2] = i + 1 } }
      / Double(mutations)
    let coarsePerMutation = coarseRuns.value / ((harness.samples + 1) * mutations)
    harness.check(finePerMutation == 1, "fine fan-out notified \(finePerMutation) observers")
    harness.check(
      coarsePerMutation == width, "coarse fan-out notified \(coarsePerMutation) subscribers")
    harness.add(
      BenchmarkRow(
        group: "authoring",
        name: "K=\(width) props × 1 observer each, mutate one: notified 1 vs \(coarsePerMutation)",
        ours: fineTime, baseline: coarseTime, goal: "ObservableObject as baseline"))
    withExtendedLifetime((tokens, bag)) {}
  }

  let rows = harness.quick ? 1_000 : 10_000
  let models = (0..<rows).map { _ in HandWrittenCounter() }
  let runs = FireCounter()
  let tokens = models.map { model in
    observe {
      runs.value += 1
      _ = model.count
    }
  }
  runs.value = 0
  let mutations = harness.iterations(10_000)
  let time =
    harness.time(operations: 1) { for i in 0..<mutations { models[i % rows].count += 1 } }
    / Double(mutations)
  let perMutation = Double(runs.value) / Double((harness.samples + 1) * mutations)
  harness.check(perMutation == 1, "row list notified \(perMutation) observers per mutation")
  harness.add(
    BenchmarkRow(
      group: "authoring", name: "\(rows) row models × 1 observer, mutate one row: 1 notification",
      ours: time,
      baseline: nil, goal: "1 notification", verdict: perMutation == 1))
  withExtendedLifetime(tokens) {}
}
