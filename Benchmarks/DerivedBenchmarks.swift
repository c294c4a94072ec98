import ReactiveState
import ReactiveStateMacrosFree

/// A one-property observable: the benchmarks' "signal". Not generic on purpose: a key-path
/// literal in a generic class carries generic arguments, so it is instantiated on every use.
final class BenchCell: ReactiveState.Observable, @unchecked Sendable {
  private let registrar = ReactiveState.ObservationRegistrar()
  private var stored: Int
  init(_ value: Int) { stored = value }
  var value: Int {
    get {
      registrar.access(self, keyPath: \.value)
      return stored
    }
    set {
      registrar.withMutation(of: self, keyPath: \.value, replacing: stored, with: newValue) {
        stored = newValue
      }
    }
  }
}

/// Rows of the derived-state issue that are not ports of the js-reactivity-benchmark
/// scenarios: the per-node and per-effect goals.
///
/// The Observation column drives the same graph through the scenario suite's baseline adapter
/// (`ObservationFramework`: cached values invalidated by re-armed one-shot tracking, effects
/// re-tracked after each write). Its nested trackings merge their accesses into every
/// enclosing one, so the chain costs it time quadratic in the depth (about two seconds a
/// write): it runs fewer writes (one per sample for the chain, a twentieth for the broad
/// graph; each row's time is per node or per effect, so the ratio stays like for like), on a
/// large stack (its invalidations recurse through `onChange` callbacks).
func runDerivedBenchmarks(_ harness: BenchmarkHarness) {
  benchmarkDeepChain(harness)
  benchmarkBroadPropagation(harness)
}

private func benchmarkDeepChain(_ harness: BenchmarkHarness) {
  let depth = 1_000
  let head = BenchCell(0)
  var chain: [Computed<Int>] = []
  var previous = Computed { head.value }
  chain.append(previous)
  for _ in 1..<depth {
    let upstream = previous
    previous = Computed { upstream.value + 1 }
    chain.append(previous)
  }
  let last = previous
  let seen = FireCounter()
  let token = observe { seen.value = last.value }
  let writes = harness.iterations(1_000)
  var next = 1
  let perNode =
    harness.time(operations: 1) {
      for _ in 0..<writes {
        head.value = next
        next += 1
      }
    } / Double(writes * depth)
  harness.check(seen.value == next - 1 + depth - 1, "deep chain ended at \(seen.value)")
  withExtendedLifetime((chain, token)) {}
  var theirs = 0.0
  runOnLargeStack {
    theirs = observationDeepChain(depth: depth, writes: 1, harness)
  }
  harness.add(
    BenchmarkRow(
      group: "derived", name: "1000-deep chain of Computed + observer (per node)", ours: perNode,
      baseline: theirs, goal: "≤ 50 ns", verdict: perNode <= 50))
}

/// The deep chain driven by Observation (see ``runDerivedBenchmarks(_:)``); time per node.
private func observationDeepChain(depth: Int, writes: Int, _ harness: BenchmarkHarness) -> Double {
  let framework = ObservationFramework()
  let head = framework.signal(0)
  var previous = framework.computed { head.read() }
  for _ in 1..<depth {
    let upstream = previous
    previous = framework.computed { upstream.read() + 1 }
  }
  let last = previous
  let seen = FireCounter()
  framework.effect { seen.value = last.read() }
  var next = 1
  // About two seconds a write: three samples, no warm-up (the effect's first run was one).
  let perNode =
    harness.measure(samples: 3, warmUps: 0) {
      let start = nowNanoseconds()
      for _ in 0..<writes {
        head.write(next)
        next += 1
      }
      return (nowNanoseconds() - start, 1)
    } / Double(writes * depth)
  harness.check(seen.value == next - 1 + depth - 1, "Observation deep chain ended at \(seen.value)")
  framework.cleanup()
  return perNode
}

private func benchmarkBroadPropagation(_ harness: BenchmarkHarness) {
  let width = 1_000
  let head = BenchCell(0)
  let runs = FireCounter()
  var nodes: [Computed<Int>] = []
  var tokens: [ObservationToken] = []
  for i in 0..<width {
    let node = Computed { head.value + i }
    nodes.append(node)
    tokens.append(
      observe {
        runs.value += 1
        _ = node.value
      })
  }
  let writes = harness.iterations(2_000)
  var next = 1
  runs.value = 0
  let perEffect =
    harness.time(operations: 1) {
      for _ in 0..<writes {
        head.value = next
        next += 1
      }
    } / Double(writes * width)
  harness.check(
    runs.value == (harness.samples + 1) * writes * width,
    "broad propagation ran \(runs.value) effects")
  withExtendedLifetime((nodes, tokens)) {}
  var theirs = 0.0
  runOnLargeStack {
    theirs = observationBroadPropagation(width: width, writes: max(1, writes / 20), harness)
  }
  harness.add(
    BenchmarkRow(
      group: "derived", name: "1 write → 1000 Computed → 1000 observers (per effect)",
      ours: perEffect,
      baseline: theirs, goal: "≤ 50 ns", verdict: perEffect <= 50))
}

/// Broad propagation driven by Observation (see ``runDerivedBenchmarks(_:)``); time per effect.
private func observationBroadPropagation(width: Int, writes: Int, _ harness: BenchmarkHarness)
  -> Double
{
  let framework = ObservationFramework()
  let head = framework.signal(0)
  let runs = FireCounter()
  let sum = FireCounter()
  for i in 0..<width {
    let node = framework.computed { head.read() + i }
    framework.effect {
      runs.value += 1
      sum.value += node.read()
    }
  }
  var next = 1
  runs.value = 0
  sum.value = 0
  let perEffect =
    harness.time(operations: 1) {
      for _ in 0..<writes {
        head.write(next)
        next += 1
      }
    } / Double(writes * width)
  let expectedRuns = (harness.samples + 1) * writes * width
  harness.check(
    runs.value == expectedRuns, "Observation broad propagation ran \(runs.value) effects")
  // Each write of v re-runs every effect, which reads v + i.
  let writesSum = (1..<next).reduce(0, +)
  harness.check(
    sum.value == writesSum * width + (next - 1) * (width * (width - 1) / 2),
    "Observation broad propagation summed \(sum.value)")
  framework.cleanup()
  return perEffect
}
