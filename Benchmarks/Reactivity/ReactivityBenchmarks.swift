#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The "reactivity" group: milomg/js-reactivity-benchmark's scenarios, each run with
/// ReactiveState's adapter and with the Observation baseline, one row per scenario.
///
/// Work sizes follow the JS suite. Where the Observation baseline would take too long, its work
/// is divided by the scenario's `baselineDivisor` and the row says so ("Obs ÷N"); both columns
/// are per-iteration times, so the ratio stays like for like.
func runReactivityBenchmarks(_ harness: BenchmarkHarness) {
  // Deep graphs (cellx 2500, the 500-layer dynamic graph) recurse deeply in the reference
  // engine and in nested `withObservationTracking` calls; give them room.
  runOnLargeStack {
    runKairoScenarios(harness)
    runScenario(CellxScenario(layers: 1000), harness)
    runScenario(CellxScenario(layers: 2500), harness)
    runScenario(SBenchScenario(group: .createSignals), harness)
    runScenario(SBenchScenario(group: .createComputations), harness)
    runScenario(SBenchScenario(group: .updateSignals), harness)
    // Observation takes 30 µs to 0.7 s per iteration of these graphs (the 500-layer one is
    // quadratic: nested trackings merge their accesses into every enclosing one).
    let divisors = [20, 20, 50, 100, 250, 20]
    for (config, divisor) in zip(DynamicGraphConfig.suite, divisors) {
      runScenario(DynamicGraphScenario(config: config, baselineDivisor: divisor), harness)
    }
  }
}

/// The kairo cases, each called with its concrete type so every run is fully specialised.
private func runKairoScenarios(_ harness: BenchmarkHarness) {
  runScenario(KairoScenario(AvoidablePropagation()), harness)
  runScenario(KairoScenario(BroadPropagation()), harness)
  runScenario(KairoScenario(DeepPropagation()), harness)
  runScenario(KairoScenario(Diamond()), harness)
  runScenario(KairoScenario(Mux()), harness)
  runScenario(KairoScenario(RepeatedObservers()), harness)
  runScenario(KairoScenario(Triangle()), harness)
  runScenario(KairoScenario(Unstable()), harness)
  runScenario(KairoScenario(MolBench()), harness)
  runScenario(KairoScenario(MolBench(fibArgument: 0)), harness)
}

/// Runs `scenario` with both adapters, reports their checks and adds the row.
private func runScenario<S: ReactivityScenario>(_ scenario: S, _ harness: BenchmarkHarness) {
  let primary = ReactiveStateBenchmarkFramework()
  let primaryChecker = ResultChecker()
  let ours = scenario.run(
    primary,
    context: ScenarioContext(
      harness: harness, checker: primaryChecker, divisor: 1))
  primaryChecker.report(to: harness, scenario: scenario.name, adapter: primary.name)

  let baseline = ObservationFramework()
  let baselineChecker = ResultChecker()
  let divisor = scenario.baselineDivisor
  let base = scenario.run(
    baseline,
    context: ScenarioContext(
      harness: harness, checker: baselineChecker, divisor: divisor))
  baselineChecker.report(to: harness, scenario: scenario.name, adapter: baseline.name)

  var notes: [String] = []
  if reactiveStateAdapterIsReference { notes.append("reference impl") }
  if divisor > 1 { notes.append("Obs ÷\(divisor)") }
  let suffix = notes.isEmpty ? "" : " (" + notes.joined(separator: "; ") + ")"
  harness.add(
    BenchmarkRow(
      group: "reactivity", name: scenario.name + suffix, ours: ours, baseline: base,
      unit: scenario.unit, goal: "≥ 20×", requiredRatio: 20))
}

/// Runs `body` on a thread with a 512 MiB stack and waits for it.
func runOnLargeStack(_ body: () -> Void) {
  final class Job {
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
  }
  withoutActuallyEscaping(body) { escapable in
    let job = Unmanaged.passRetained(Job(escapable)).toOpaque()
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    pthread_attr_setstacksize(&attributes, 512 << 20)
    var thread = pthread_t()
    let status = pthread_create(
      &thread, &attributes,
      { raw in
        Unmanaged<Job>.fromOpaque(raw!).takeRetainedValue().body()
        return nil
      }, job)
    pthread_attr_destroy(&attributes)
    if status == 0 {
      pthread_join(thread, nil)
    } else {
      Unmanaged<Job>.fromOpaque(job).takeRetainedValue().body()
    }
  }
}
