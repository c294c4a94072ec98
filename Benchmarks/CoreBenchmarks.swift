import Observation
import ReactiveState

/// Rows of the core-engine issue: reads, writes, one-shot round trips, fan-out and memory.
func runCoreBenchmarks(_ harness: BenchmarkHarness) {
  benchmarkReads(harness)
  benchmarkWrites(harness)
  benchmarkRoundTrips(harness)
  benchmarkFanOut(harness)
  benchmarkMemory(harness)
}

/// Counts `onChange` calls from `@Sendable` closures without locking (benchmarks are
/// single-threaded).
final class FireCounter: @unchecked Sendable {
  var value = 0
}

private func row(
  _ harness: BenchmarkHarness, _ name: String, ours: Double, theirs: Double, ratio: Double,
  unit: String = "ns/op"
) {
  harness.add(
    BenchmarkRow(
      group: "core", name: name, ours: ours, baseline: theirs, unit: unit,
      goal: "≥ \(harness.format(ratio))×", requiredRatio: ratio))
}

private func benchmarkReads(_ harness: BenchmarkHarness) {
  let n = harness.iterations(2_000_000)
  // Escaped models: a local one is promoted to the stack, its stored value known (so the
  // summed reads fold to a constant) and its stores sinkable out of the loop.
  let ours = opaque(HandWrittenCounter())
  let theirs = opaque(ObservationCounter())
  let a = harness.time(operations: 1) {
    var sum = 0
    for _ in 0..<n { sum &+= ours.count }
    consume(sum)
  }
  let b = harness.time(operations: 1) {
    var sum = 0
    for _ in 0..<n { sum &+= theirs.count }
    consume(sum)
  }
  row(harness, "untracked read", ours: a / Double(n), theirs: b / Double(n), ratio: 15)

  let scopes = harness.iterations(20_000)
  let reads = 100
  // Generic, so each model gets its own specialised loop with the reads inlined, as in the
  // untracked row above and in a view body: a closure call per read would time the harness.
  func trackedReads<Model: CountingModel>(_ model: Model, observation: Bool) -> Double {
    harness.time(operations: 1) {
      for _ in 0..<scopes {
        let sum =
          observation
          ? Observation.withObservationTracking(
            {
              var sum = 0
              for _ in 0..<reads { sum &+= model.count }
              return sum
            }, onChange: {})
          : ReactiveState.withObservationTracking(
            {
              var sum = 0
              for _ in 0..<reads { sum &+= model.count }
              return sum
            }, onChange: {})
        consume(sum)
        model.count &+= 1
      }
    } / Double(scopes * reads)
  }
  let oursTracked = trackedReads(ours, observation: false)
  let theirsTracked = trackedReads(theirs, observation: true)
  row(
    harness, "tracked read (100 repeated reads per scope)", ours: oursTracked,
    theirs: theirsTracked, ratio: 20)
}

private func benchmarkWrites(_ harness: BenchmarkHarness) {
  let n = harness.iterations(2_000_000)
  let ours = opaque(HandWrittenCounter())
  let theirs = opaque(ObservationCounter())
  let plain = opaque(PlainCounter())
  let a = harness.time(operations: 1) { for i in 0..<n { ours.count = i } }
  let b = harness.time(operations: 1) { for i in 0..<n { theirs.count = i } }
  let p = harness.time(operations: 1) { for i in 0..<n { plain.count = opaqueInt(i) } }
  row(
    harness, "mutation, never-observed object", ours: a / Double(n), theirs: b / Double(n),
    ratio: 20)
  harness.add(
    BenchmarkRow(
      group: "core", name: "  (plain stored write with an opaque value, for scale)",
      ours: p / Double(n),
      baseline: nil))

  let observedOurs = HandWrittenCounter()
  let observedTheirs = ObservationCounter()
  ReactiveState.withObservationTracking({ _ = observedOurs.other }, onChange: {})
  Observation.withObservationTracking({ _ = observedTheirs.other }, onChange: {})
  let m = harness.iterations(1_000_000)
  let c = harness.time(operations: 1) { for i in 0..<m { observedOurs.count = i } }
  let d = harness.time(operations: 1) { for i in 0..<m { observedTheirs.count = i } }
  row(
    harness, "mutation of an unread property of an observed object", ours: c / Double(m),
    theirs: d / Double(m), ratio: 10)
}

private func benchmarkRoundTrips(_ harness: BenchmarkHarness) {
  let m = harness.iterations(200_000)
  let counter = FireCounter()
  /// Arm a one-shot on `count`, then write it, `m` times; ns per round trip and what fired.
  func roundTrips<Model: CountingModel>(_ model: Model) -> (nanoseconds: Double, fired: Int) {
    counter.value = 0
    let elapsed = harness.time(operations: 1) {
      for i in 0..<m {
        ReactiveState.withObservationTracking(
          { _ = model.count }, onChange: { counter.value += 1 })
        model.count = i + 1
      }
    }
    return (elapsed / Double(m), counter.value)
  }
  /// `roundTrips` on the main actor, for the main-actor models.
  func mainActorRoundTrips<Model: MainActorCountingModel>(
    _ makeModel: @MainActor () -> Model
  ) -> (nanoseconds: Double, fired: Int) {
    counter.value = 0
    let elapsed = harness.time(operations: 1) {
      MainActor.assumeIsolated {
        let model = makeModel()
        for i in 0..<m {
          ReactiveState.withObservationTracking(
            { _ = model.count }, onChange: { counter.value += 1 })
          model.count = i + 1
        }
      }
    }
    return (elapsed / Double(m), counter.value)
  }
  let hand = roundTrips(HandWrittenCounter())
  let tracked = roundTrips(TrackedCounter())
  let mainActorTracked = mainActorRoundTrips { MainActorTrackedCounter() }
  let mainActor = mainActorRoundTrips { MainActorCounter() }
  counter.value = 0
  let theirs = ObservationCounter()
  let b = harness.time(operations: 1) {
    for i in 0..<m {
      Observation.withObservationTracking({ _ = theirs.count }, onChange: { counter.value += 1 })
      theirs.count = i + 1
    }
  }
  harness.check(hand.fired == counter.value, "round trip fired \(hand.fired) vs \(counter.value)")
  harness.check(tracked.fired == counter.value, "@Tracked round trip fired \(tracked.fired)")
  harness.check(
    mainActor.fired == counter.value, "main-actor round trip fired \(mainActor.fired)")
  harness.check(
    mainActorTracked.fired == counter.value,
    "@Tracked main-actor round trip fired \(mainActorTracked.fired)")
  row(
    harness, "track 1 property + mutate + onChange", ours: hand.nanoseconds,
    theirs: b / Double(m), ratio: 5)
  row(
    harness, "  same, @Tracked model", ours: tracked.nanoseconds, theirs: b / Double(m), ratio: 5)
  row(
    harness, "  same, main-actor model",
    ours: mainActor.nanoseconds, theirs: b / Double(m), ratio: 20)
  row(
    harness, "  same, @Tracked main-actor model",
    ours: mainActorTracked.nanoseconds, theirs: b / Double(m), ratio: 20)
}

private func benchmarkFanOut(_ harness: BenchmarkHarness) {
  let observers = harness.quick ? 2_000 : 100_000
  let counter = FireCounter()
  let ours = HandWrittenCounter()
  let theirs = ObservationCounter()
  let a = harness.measure {
    let start = nowNanoseconds()
    for _ in 0..<observers {
      ReactiveState.withObservationTracking({ _ = ours.count }, onChange: { counter.value += 1 })
    }
    ours.count &+= 1
    return (nowNanoseconds() - start, observers)
  }
  let firedOurs = counter.value
  counter.value = 0
  let b = harness.measure {
    let start = nowNanoseconds()
    for _ in 0..<observers {
      Observation.withObservationTracking({ _ = theirs.count }, onChange: { counter.value += 1 })
    }
    theirs.count &+= 1
    return (nowNanoseconds() - start, observers)
  }
  harness.check(
    firedOurs == counter.value && firedOurs > 0, "fan-out fired \(firedOurs) vs \(counter.value)")
  row(
    harness, "arm \(observers) one-shots on 1 property, 1 mutation fires all (per observer)",
    ours: a,
    theirs: b, ratio: 20)

  for n in harness.quick ? [10, 1_000] : [10, 1_000, 100_000] {
    let oursModels = (0..<n).map { _ in HandWrittenCounter() }
    let theirsModels = (0..<n).map { _ in ObservationCounter() }
    for model in oursModels {
      ReactiveState.withObservationTracking({ _ = model.count }, onChange: {})
    }
    for model in theirsModels {
      Observation.withObservationTracking({ _ = model.count }, onChange: {})
    }
    let mutations = min(n, 1_000)
    // Each sample re-arms the instances it fires, so every timed mutation fires exactly one.
    func sample<M: AnyObject>(_ models: [M], mutate: (M) -> Void, arm: (M) -> Void) -> (UInt64, Int)
    {
      let start = nowNanoseconds()
      for model in models.prefix(mutations) { mutate(model) }
      // Ten mutations per sample at N = 10: the clock's own cost would dominate otherwise.
      let elapsed = harness.elapsed(since: start)
      for model in models.prefix(mutations) { arm(model) }
      return (elapsed, mutations)
    }
    let c = harness.measure {
      sample(oursModels, mutate: { $0.count &+= 1 }) { model in
        ReactiveState.withObservationTracking({ _ = model.count }, onChange: {})
      }
    }
    let d = harness.measure {
      sample(theirsModels, mutate: { $0.count &+= 1 }) { model in
        Observation.withObservationTracking({ _ = model.count }, onChange: {})
      }
    }
    row(harness, "N=\(n) observed instances, mutate one (fires 1)", ours: c, theirs: d, ratio: 10)
    withExtendedLifetime((oursModels, theirsModels)) {}
  }
}

private func benchmarkMemory(_ harness: BenchmarkHarness) {
  let plain = MemoryProbe.measure("plain")
  let oursInstance = MemoryProbe.measure("ours-instance") - plain
  let theirsInstance = MemoryProbe.measure("observation-instance") - plain
  harness.add(
    BenchmarkRow(
      group: "core", name: "memory per observable instance before observation", ours: oursInstance,
      // Allocations come in 16-byte steps; the fraction is the process's own noise over 1M
      // instances, so the verdict uses whole bytes.
      baseline: theirsInstance, unit: "B", goal: "≤ 32 B", verdict: oursInstance.rounded() <= 32))
  let oursRegistration = MemoryProbe.measure("ours-registration")
  let theirsRegistration = MemoryProbe.measure("observation-registration")
  harness.add(
    BenchmarkRow(
      group: "core", name: "memory per pending registration", ours: oursRegistration,
      baseline: theirsRegistration, unit: "B", goal: "≤ 150 B", verdict: oursRegistration <= 150))
}
