/// Shared by the fuzzers: shrinking a divergent script to a minimal one and printing it.
enum Fuzz {
  /// The number of scripts a fuzz test runs: `REACTIVESTATE_FUZZ_SCRIPTS` (default 300; a
  /// third of it under a sanitizer).
  static var scriptCount: Int {
    Reliability.count("REACTIVESTATE_FUZZ_SCRIPTS", default: 300, sanitizedDivisor: 3)
  }

  /// Drops steps one at a time, keeping each removal after which `diverges` still holds,
  /// until no single step can go.
  static func shrink<Step>(_ script: [Step], diverges: ([Step]) -> Bool) -> [Step] {
    var current = script
    var changed = true
    while changed {
      changed = false
      var index = 0
      while index < current.count {
        var candidate = current
        candidate.remove(at: index)
        if diverges(candidate) {
          current = candidate
          changed = true
        } else {
          index += 1
        }
      }
    }
    return current
  }

  /// Shrinks `script` and renders it: the seed, every step, and under each step whose logs
  /// differ, both logs.
  static func report<Step: CustomStringConvertible>(
    _ title: String, seed: UInt64, script: [Step], expectedName: String,
    expected: ([Step]) -> [[String]], actual: ([Step]) -> [[String]]
  ) -> String {
    let minimal = shrink(script) { expected($0) != actual($0) }
    let wanted = expected(minimal)
    let got = actual(minimal)
    var lines = ["\(title) divergence, seed \(seed); minimal script (\(minimal.count) steps):"]
    for (index, step) in minimal.enumerated() {
      lines.append("  \(step)")
      if wanted[index] != got[index] {
        lines.append("    \(expectedName): \(wanted[index])")
        lines.append("    ReactiveState: \(got[index])")
      }
    }
    return lines.joined(separator: "\n")
  }
}
