#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Monotonic clock in nanoseconds.
@inline(__always) func nowNanoseconds() -> UInt64 {
  var ts = timespec()
  clock_gettime(CLOCK_MONOTONIC, &ts)
  return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
}

/// Defeats dead-code elimination of benchmark results.
///
/// Not optimised, so the caller must compute and pass `value`: an optimised generic body that
/// only looked at the value's address let the specialiser drop the argument (the old form
/// compiled to an empty function, so no caller's result was kept alive by it).
@inline(never) @_optimize(none) func consume<T>(_ value: T) {
  _ = value
}
@inline(never) func opaqueInt(_ value: Int) -> Int { value }

/// Where `opaque(_:)` parks objects (benchmarks run their loops on one thread at a time).
nonisolated(unsafe) var benchmarkObjectSink: AnyObject?

/// Returns `object` after letting it escape, so a benchmark loop treats it as any model
/// reached through a reference: not promoted to the stack, and stores to it not sunk out of
/// the loop or deleted as dead.
@inline(never) func opaque<T: AnyObject>(_ object: T) -> T {
  benchmarkObjectSink = object
  return object
}

/// One printed line of the comparison table.
struct BenchmarkRow: Sendable {
  var group: String
  var name: String
  /// ReactiveState, in `unit` (lower is better unless `higherIsBetter`).
  var ours: Double
  /// The toolchain's Observation (or another named baseline), same unit; nil when not applicable.
  var baseline: Double?
  var unit: String = "ns/op"
  /// The goal in words, e.g. "≥ 20×".
  var goal: String = ""
  /// Minimum baseline/ours ratio the goal asks for; nil when the goal is not a ratio.
  var requiredRatio: Double? = nil

  var ratio: Double? { baseline.map { $0 / max(ours, 0.000_1) } }
  /// Set when the goal is not a ratio against the baseline but was checked by the group.
  var verdict: Bool? = nil

  var goalMet: Bool? {
    if let verdict { return verdict }
    guard let requiredRatio, let ratio else { return nil }
    return ratio >= requiredRatio
  }
}

/// Collects rows, runs measurements, prints the table and optionally writes JSON.
final class BenchmarkHarness: @unchecked Sendable {
  let quick: Bool
  private(set) var rows: [BenchmarkRow] = []
  private(set) var failures: [String] = []

  /// What one `nowNanoseconds()` pair costs (median of back-to-back reads): subtracted by
  /// samples that time only a few operations between two clock reads, for both engines.
  let clockReadCost: UInt64

  init(quick: Bool) {
    self.quick = quick
    var costs: [UInt64] = []
    for _ in 0..<1_001 {
      let start = nowNanoseconds()
      costs.append(nowNanoseconds() - start)
    }
    costs.sort()
    clockReadCost = costs[costs.count / 2]
  }

  /// Nanoseconds since `start`, less the cost of reading the clock.
  func elapsed(since start: UInt64) -> UInt64 {
    let total = nowNanoseconds() - start
    return total > clockReadCost ? total - clockReadCost : 0
  }

  /// Number of samples per measurement (the fastest is reported).
  var samples: Int { quick ? 3 : 9 }

  /// Scales an iteration count down in `--quick` mode.
  func iterations(_ full: Int) -> Int { quick ? max(1, full / 50) : full }

  /// Runs `body` `warmUps` times untimed, then `samples` times (the harness's default when
  /// nil); `body` returns (elapsed nanoseconds, operations). Returns the fastest sample's
  /// nanoseconds per operation, as js-reactivity-benchmark does: on a shared machine,
  /// interference only ever adds time, so the fastest sample is the steadiest estimate of each
  /// engine's own cost (both engines are measured the same way).
  func measure(samples: Int? = nil, warmUps: Int = 1, _ body: () -> (UInt64, Int)) -> Double {
    for _ in 0..<warmUps { _ = body() }
    var fastest = Double.infinity
    for _ in 0..<(samples ?? self.samples) {
      let (elapsed, ops) = body()
      fastest = min(fastest, Double(elapsed) / Double(max(ops, 1)))
    }
    return fastest
  }

  /// Times `operations` calls of `body` per sample; the fastest sample's ns per call.
  func time(operations: Int, _ body: () -> Void) -> Double {
    measure {
      let start = nowNanoseconds()
      for _ in 0..<operations { body() }
      return (nowNanoseconds() - start, operations)
    }
  }

  func add(_ row: BenchmarkRow) {
    rows.append(row)
    printRow(row)
  }

  /// Records a correctness failure (a benchmark whose result was wrong); makes the run fail.
  func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition {
      failures.append(message())
      print("CHECK FAILED: \(message())")
    }
  }

  func printHeader() {
    print(
      pad("group", 14) + pad("scenario", 58) + pad("ReactiveState", 16, right: true)
        + pad("Observation", 16, right: true) + pad("ratio", 10, right: true) + "  goal")
  }

  private func printRow(_ row: BenchmarkRow) {
    let ours = format(row.ours) + " " + shortUnit(row.unit)
    let base = row.baseline.map { format($0) + " " + shortUnit(row.unit) } ?? "—"
    let ratio = row.ratio.map { format($0) + "×" } ?? "—"
    let verdict = row.goalMet.map { $0 ? "  ✓" : "  ✗" } ?? ""
    print(
      pad(row.group, 14) + pad(row.name, 58) + pad(ours, 16, right: true)
        + pad(base, 16, right: true) + pad(ratio, 10, right: true) + "  " + row.goal + verdict)
  }

  private func shortUnit(_ unit: String) -> String { unit == "ns/op" ? "ns" : unit }

  func format(_ value: Double) -> String {
    if value >= 1000 { return String(Int(value.rounded())) }
    if value >= 100 { return String(Double(Int(value * 10)) / 10) }
    return String(Double(Int(value * 100)) / 100)
  }

  private func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
    let count = text.count
    if count >= width { return text + " " }
    let spaces = String(repeating: " ", count: width - count)
    return right ? spaces + text : text + spaces
  }

  /// The rows as a JSON array (hand-written: the benchmark has no Foundation dependency).
  func json() -> String {
    func str(_ s: String) -> String {
      "\""
        + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(
          of: "\"", with: "\\\"")
        + "\""
    }
    func num(_ d: Double?) -> String { d.map { String($0) } ?? "null" }
    let items = rows.map { row in
      "{\"group\":\(str(row.group)),\"name\":\(str(row.name)),\"unit\":\(str(row.unit)),"
        + "\"reactiveState\":\(num(row.ours)),\"observation\":\(num(row.baseline)),"
        + "\"ratio\":\(num(row.ratio)),\"goal\":\(str(row.goal)),"
        + "\"goalMet\":\(row.goalMet.map { String($0) } ?? "null")}"
    }
    return "[\n  " + items.joined(separator: ",\n  ") + "\n]\n"
  }
}

extension String {
  fileprivate func replacingOccurrences(of target: String, with replacement: String) -> String {
    split(separator: Character(target), omittingEmptySubsequences: false).joined(
      separator: replacement)
  }
}

/// A counting semaphore for waiting on benchmark tasks from synchronous code.
final class BenchmarkSemaphore: @unchecked Sendable {
  private var semaphore = sem_t()
  init() { sem_init(&semaphore, 0, 0) }
  func signal() { sem_post(&semaphore) }
  func wait() { sem_wait(&semaphore) }
}

/// Carries a non-Sendable value (typically a closure) into an `observe` body: the benchmarks
/// run their observers on one thread.
final class UncheckedBox<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}
