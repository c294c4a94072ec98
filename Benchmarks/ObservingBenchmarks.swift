import Observation
import ReactiveState

/// Rows of the observation-beyond-one-shot issue: continuous re-runs, fan-out to continuous
/// observers, and the async sequence.
func runObservingBenchmarks(_ harness: BenchmarkHarness) {
  benchmarkContinuousRerun(harness)
  benchmarkContinuousFanOut(harness)
  benchmarkAsyncSequence(harness)
}

/// Re-arms Observation's one-shot tracking from `onChange` forever: the baseline for a
/// continuous observer.
final class ObservationRearmingObserver: @unchecked Sendable {
  let model: ObservationCounter
  var runs = 0
  init(model: ObservationCounter) { self.model = model }
  func arm() {
    runs += 1
    Observation.withObservationTracking({ _ = model.count }, onChange: { [self] in arm() })
  }
}

private func benchmarkContinuousRerun(_ harness: BenchmarkHarness) {
  let m = harness.iterations(200_000)
  let theirsModel = ObservationCounter()
  let theirs = ObservationRearmingObserver(model: theirsModel)
  theirs.arm()
  let baseline =
    harness.time(operations: 1) { for i in 0..<m { theirsModel.count = i + 1 } } / Double(m)
  /// Reads and writes the model directly, as the baseline does (a generic loop, specialised
  /// per model: no closure between the loop and the accessors).
  func reruns<Model: CountingModel & Sendable>(_ model: Model) -> (nanoseconds: Double, runs: Int) {
    let runs = FireCounter()
    let token = observe {
      runs.value += 1
      _ = model.count
    }
    runs.value = 0
    let elapsed = harness.time(operations: 1) { for i in 0..<m { model.count = i + 1 } }
    withExtendedLifetime(token) {}
    return (elapsed / Double(m), runs.value)
  }
  let forms: [(name: String, goal: Double, result: (nanoseconds: Double, runs: Int))] = [
    ("continuous re-run, 1 dependency (mutate → re-run)", 10, reruns(HandWrittenCounter())),
    ("  same, @Tracked model", 30, reruns(TrackedCounter())),
  ]
  for form in forms {
    harness.check(
      form.result.runs == theirs.runs - 1,
      "continuous runs \(form.result.runs) vs re-armed \(theirs.runs)")
    harness.add(
      BenchmarkRow(
        group: "observing", name: form.name, ours: form.result.nanoseconds, baseline: baseline,
        goal: "≥ \(Int(form.goal))×", requiredRatio: form.goal))
  }
  // Main-actor code observing a main-actor model: writes on the main thread (this one) re-run
  // `observe { @MainActor in … }` inline, so every run has happened when the loop ends.
  let mainActor = MainActor.assumeIsolated {
    let model = MainActorCounter()
    let runs = FireCounter()
    let token = observe { @MainActor in
      runs.value += 1
      _ = model.count
    }
    runs.value = 0
    let elapsed = harness.time(operations: 1) { for i in 0..<m { model.count = i + 1 } }
    withExtendedLifetime(token) {}
    return (nanoseconds: elapsed / Double(m), runs: runs.value)
  }
  harness.check(
    mainActor.runs == theirs.runs - 1,
    "observe { @MainActor in } ran \(mainActor.runs) times inline vs re-armed \(theirs.runs)")
  harness.add(
    BenchmarkRow(
      group: "observing", name: "  same, main-actor model, observe { @MainActor in … }",
      ours: mainActor.nanoseconds, baseline: baseline))
}

private func benchmarkContinuousFanOut(_ harness: BenchmarkHarness) {
  let observers = 1_000
  let m = harness.iterations(2_000)
  let ours = HandWrittenCounter()
  let runs = FireCounter()
  let tokens = (0..<observers).map { _ in
    observe {
      runs.value += 1
      _ = ours.count
    }
  }
  let a =
    harness.time(operations: 1) { for i in 0..<m { ours.count = i + 1 } } / Double(m * observers)
  let theirsModel = ObservationCounter()
  let theirs = (0..<observers).map { _ in ObservationRearmingObserver(model: theirsModel) }
  for observer in theirs { observer.arm() }
  let b =
    harness.time(operations: 1) { for i in 0..<m { theirsModel.count = i + 1 } }
    / Double(m * observers)
  harness.check(runs.value == theirs.reduce(0) { $0 + $1.runs }, "fan-out runs differ")
  harness.add(
    BenchmarkRow(
      group: "observing", name: "1 write → 1,000 continuous observers (per observer)", ours: a,
      baseline: b, goal: "≤ 100 ns", verdict: a <= 100))
  withExtendedLifetime(tokens) {}
}

private func benchmarkAsyncSequence(_ harness: BenchmarkHarness) {
  let m = harness.iterations(100_000)
  let semaphore = BenchmarkSemaphore()
  let results = AsyncResults()
  Task.detached {
    let ours = HandWrittenCounter()
    var iterator = ObservedValues { ours.count }.makeAsyncIterator()
    _ = await iterator.next()
    var last = 0
    let oursTime =
      await asyncMeasure(harness) {
        for i in 0..<m {
          ours.count = i + 1
          last = await iterator.next() ?? -1
        }
      } / Double(m)
    let theirsModel = ObservationCounter()
    var theirs = Observations { theirsModel.count }.makeAsyncIterator()
    _ = await theirs.next()
    var theirsLast = 0
    let theirsTime =
      await asyncMeasure(harness) {
        for i in 0..<m {
          theirsModel.count = i + 1
          theirsLast = await theirs.next() ?? -1
        }
      } / Double(m)
    results.set(ours: oursTime, theirs: theirsTime, correct: last == m && theirsLast == m)
    semaphore.signal()
  }
  semaphore.wait()
  harness.check(results.correct, "async sequences did not end on the last value")
  harness.add(
    BenchmarkRow(
      group: "observing", name: "async sequence: mutate + await next()", ours: results.ours,
      baseline: results.theirs, goal: "≥ 10×", requiredRatio: 10))
}

/// The fastest sample of an async body's duration (ns), as ``BenchmarkHarness/measure(samples:warmUps:_:)``.
private func asyncMeasure(_ harness: BenchmarkHarness, _ body: () async -> Void) async -> Double {
  await body()
  var fastest = Double.infinity
  for _ in 0..<harness.samples {
    let start = nowNanoseconds()
    await body()
    fastest = min(fastest, Double(nowNanoseconds() - start))
  }
  return fastest
}

/// Results handed from the benchmark task to the synchronous harness.
final class AsyncResults: @unchecked Sendable {
  var ours = 0.0
  var theirs = 0.0
  var correct = false
  func set(ours: Double, theirs: Double, correct: Bool) {
    self.ours = ours
    self.theirs = theirs
    self.correct = correct
  }
}
