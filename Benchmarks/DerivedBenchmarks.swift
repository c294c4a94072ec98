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
  harness.add(
    BenchmarkRow(
      group: "derived", name: "1000-deep chain of Computed + observer (per node)", ours: perNode,
      baseline: nil, goal: "≤ 50 ns", verdict: perNode <= 50))
  withExtendedLifetime((chain, token)) {}
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
  harness.add(
    BenchmarkRow(
      group: "derived", name: "1 write → 1000 Computed → 1000 observers (per effect)",
      ours: perEffect,
      baseline: nil, goal: "≤ 50 ns", verdict: perEffect <= 50))
  withExtendedLifetime((nodes, tokens)) {}
}
