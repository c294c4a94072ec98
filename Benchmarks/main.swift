#if canImport(Glibc)
  import Glibc
#endif

// Rows appear as they are measured, even through a pipe (Swift 6 forbids naming `stdout`).
if let symbol = dlsym(nil, "stdout") {
  setvbuf(symbol.assumingMemoryBound(to: UnsafeMutablePointer<FILE>?.self).pointee, nil, _IOLBF, 0)
}
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
var reportPath: String?
if let index = arguments.firstIndex(of: "--report"),
  arguments.index(after: index) < arguments.endIndex
{
  reportPath = arguments[arguments.index(after: index)]
}
if let index = arguments.firstIndex(of: "--profile"),
  arguments.index(index, offsetBy: 2) < arguments.endIndex
{
  let widthIndex = arguments.index(index, offsetBy: 3)
  ProfileLoops.run(
    arguments[arguments.index(after: index)],
    count: Int(arguments[arguments.index(index, offsetBy: 2)]) ?? 1,
    width: widthIndex < arguments.endIndex ? Int(arguments[widthIndex]) : nil)
  exit(0)
}
if let index = arguments.firstIndex(of: "--stress"),
  arguments.index(index, offsetBy: 2) < arguments.endIndex
{
  let failure = StressChecks.run(
    arguments[arguments.index(after: index)],
    rounds: Int(arguments[arguments.index(index, offsetBy: 2)]) ?? 1)
  if let failure { print("stress check failed: \(failure)") }
  exit(failure == nil ? 0 : 1)
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
  ("reactivity", runReactivityBenchmarks),
  ("authoring", runAuthoringBenchmarks),
  ("viewgraph", runViewGraphBenchmarks),
]
/// `--filter a,b`: the groups whose names contain any of the comma-separated parts.
let filterParts = filter.map { $0.split(separator: ",").map(String.init) }
for group in groups where filterParts?.contains(where: { group.name.contains($0) }) ?? true {
  group.run(harness)
}

if let jsonPath {
  let text = harness.json()
  if let file = fopen(jsonPath, "w") {
    fputs(text, file)
    fclose(file)
  }
}
if let reportPath {
  let text = BenchmarkReport.markdown(harness: harness, arguments: Array(arguments))
  if BenchmarkReport.write(text, to: reportPath) {
    print("report written to \(reportPath)")
  } else {
    print("could not write the report to \(reportPath)")
    exit(1)
  }
}
if !harness.failures.isEmpty {
  print("\(harness.failures.count) benchmark result check(s) failed")
  exit(1)
}
