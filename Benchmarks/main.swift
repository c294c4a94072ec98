#if canImport(Glibc)
  import Glibc
#endif

let arguments = CommandLine.arguments.dropFirst()
if let index = arguments.firstIndex(of: "--memory-probe"),
  arguments.index(after: index) < arguments.endIndex
{
  MemoryProbe.runChild(kind: arguments[arguments.index(after: index)])
  exit(0)
}
let quick = arguments.contains("--quick")
var jsonPath: String?
if let index = arguments.firstIndex(of: "--json"),
  arguments.index(after: index) < arguments.endIndex
{
  jsonPath = arguments[arguments.index(after: index)]
}
if let index = arguments.firstIndex(of: "--profile"),
  arguments.index(index, offsetBy: 2) < arguments.endIndex
{
  ProfileLoops.run(
    arguments[arguments.index(after: index)],
    count: Int(arguments[arguments.index(index, offsetBy: 2)]) ?? 1)
  exit(0)
}
let filter = arguments.firstIndex(of: "--filter").flatMap { index -> String? in
  let next = arguments.index(after: index)
  return next < arguments.endIndex ? arguments[next] : nil
}

let harness = BenchmarkHarness(quick: quick)
harness.printHeader()

/// Every benchmark group, in print order. Each group adds its rows to the harness.
let groups: [(name: String, run: (BenchmarkHarness) -> Void)] = [
  ("core", runCoreBenchmarks),
  ("observing", runObservingBenchmarks),
  ("derived", runDerivedBenchmarks),
  ("authoring", runAuthoringBenchmarks),
  ("viewgraph", runViewGraphBenchmarks),
]
for group in groups where filter == nil || group.name.contains(filter!) {
  group.run(harness)
}

if let jsonPath {
  let text = harness.json()
  if let file = fopen(jsonPath, "w") {
    fputs(text, file)
    fclose(file)
  }
}
if !harness.failures.isEmpty {
  print("\(harness.failures.count) benchmark result check(s) failed")
  exit(1)
}
