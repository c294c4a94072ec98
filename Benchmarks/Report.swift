#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The `--report PATH` output: every measured row as Markdown tables, one per group in run
/// order, with a description of the machine, so anyone can compare their numbers with ours.
enum BenchmarkReport {
  /// The whole report as Markdown. `arguments` are the command-line arguments of this run.
  static func markdown(harness: BenchmarkHarness, arguments: [String]) -> String {
    var lines: [String] = []
    lines.append("# ReactiveState benchmark report")
    lines.append("")
    let command = (["swift run -c release ReactiveStateBenchmarks"] + arguments).joined(
      separator: " ")
    lines.append("Written by `\(command)` on \(utcDate()).")
    lines.append("")
    lines.append(
      "Each figure is the fastest of \(harness.samples) samples (of \(ScenarioContext.samples(quick: harness.quick)) for "
        + "both engines in the js-reactivity-benchmark scenarios, where one sample is a whole "
        + "graph run), in nanoseconds per operation unless "
        + "the row names another unit. The Observation column is the toolchain's Observation "
        + "measured in the same process; ratio = Observation ÷ ReactiveState (higher is better "
        + "for ReactiveState). The goal column is the project's target for the row (✓ met, ✗ missed)."
    )
    if harness.quick {
      lines.append("")
      lines.append(
        "**This is a `--quick` run** (fewer iterations and samples): it checks results, its "
          + "timings are rough.")
    }
    lines.append("")
    lines.append("## Machine")
    lines.append("")
    lines.append("| | |")
    lines.append("|---|---|")
    for (name, value) in machineDescription(harness: harness) {
      lines.append("| \(name) | \(cell(value)) |")
    }
    var groups: [String] = []
    for row in harness.rows where !groups.contains(row.group) { groups.append(row.group) }
    for group in groups {
      lines.append("")
      lines.append("## \(group)")
      lines.append("")
      lines.append("| scenario | ReactiveState | Observation | ratio | goal |")
      lines.append("|---|---:|---:|---:|---|")
      for row in harness.rows where row.group == group {
        let unit = row.unit == "ns/op" ? "ns" : row.unit
        let ours = harness.format(row.ours) + " " + unit
        let base = row.baseline.map { harness.format($0) + " " + unit } ?? "—"
        let ratio = row.ratio.map { harness.format($0) + "×" } ?? "—"
        let verdict = row.goalMet.map { $0 ? " ✓" : " ✗" } ?? ""
        lines.append(
          "| \(cell(row.name)) | \(ours) | \(base) | \(ratio) | \(cell(row.goal + verdict)) |")
      }
    }
    if groups.isEmpty {
      lines.append("")
      lines.append("No rows: the filter matched no group.")
    }
    lines.append("")
    lines.append("## Result checks")
    lines.append("")
    if harness.rows.isEmpty && harness.failures.isEmpty {
      lines.append("No scenario ran.")
    } else if harness.failures.isEmpty {
      lines.append("Every scenario's expected result was checked and matched.")
    } else {
      for failure in harness.failures { lines.append("- FAILED: \(cell(failure))") }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// Name/value pairs describing where and how the numbers were measured.
  static func machineDescription(harness: BenchmarkHarness) -> [(String, String)] {
    let cpuinfo = readTextFile("/proc/cpuinfo") ?? ""
    let cpu = field("model name", in: cpuinfo) ?? field("Hardware", in: cpuinfo) ?? "unknown"
    let cores = sysconf(Int32(_SC_NPROCESSORS_ONLN))
    var memory = "unknown"
    if let total = field("MemTotal", in: readTextFile("/proc/meminfo") ?? ""),
      let kilobytes = Double(total.split(separator: " ").first ?? "")
    {
      memory = harness.format(kilobytes / 1_048_576) + " GiB"
    }
    var system = utsname()
    uname(&system)
    let kernel = withUnsafeBytes(of: &system.release) {
      String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
    }
    let machine = withUnsafeBytes(of: &system.machine) {
      String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
    }
    let release = readTextFile("/etc/os-release").flatMap {
      field("PRETTY_NAME", in: $0, separator: "=")
    }
    let os = (release.map { $0.replacingQuotes() } ?? "unknown") + ", kernel \(kernel), \(machine)"
    #if DEBUG
      let configuration = "debug (numbers are not representative: use `-c release`)"
    #else
      let configuration = "release"
    #endif
    return [
      ("CPU", cpu),
      ("Cores", String(cores)),
      ("Memory", memory),
      ("OS", os),
      ("Swift", swiftVersion()),
      ("Build configuration", configuration),
      (
        "Mode",
        harness.quick ? "--quick (\(harness.samples) samples)" : "full (\(harness.samples) samples)"
      ),
      ("Date", utcDate()),
    ]
  }

  /// The compiler that `swift` on the PATH reports (the one `swift run` used), else the
  /// language version this binary was compiled with.
  static func swiftVersion() -> String {
    if let pipe = popen("swift --version 2>/dev/null", "r") {
      var output: [UInt8] = []
      var buffer = [UInt8](repeating: 0, count: 512)
      while true {
        let count = fread(&buffer, 1, buffer.count, pipe)
        if count <= 0 { break }
        output += buffer[0..<count]
      }
      pclose(pipe)
      let text = String(decoding: output, as: UTF8.self)
      if let line = text.split(separator: "\n").first(where: { $0.contains("Swift version") }) {
        return String(line)
      }
    }
    #if compiler(>=6.4)
      return "compiled with Swift 6.4 or later"
    #elseif compiler(>=6.3)
      return "compiled with Swift 6.3"
    #else
      return "compiled with Swift before 6.3"
    #endif
  }

  /// The current time as `YYYY-MM-DD HH:MM UTC`.
  static func utcDate() -> String {
    var now = time(nil)
    var parts = tm()
    gmtime_r(&now, &parts)
    var buffer = [CChar](repeating: 0, count: 64)
    let count = strftime(&buffer, buffer.count, "%Y-%m-%d %H:%M UTC", &parts)
    return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// The whole content of a text file, or nil when it cannot be read.
  static func readTextFile(_ path: String) -> String? {
    guard let file = fopen(path, "r") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = fread(&buffer, 1, buffer.count, file)
      if count <= 0 { break }
      bytes += buffer[0..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The value of the first `name: value` (or `name=value`) line of `text`.
  static func field(_ name: String, in text: String, separator: Character = ":") -> String? {
    for line in text.split(separator: "\n") {
      guard let index = line.firstIndex(of: separator) else { continue }
      let key = line[..<index].trimmingWhitespace()
      if key == name { return String(line[line.index(after: index)...].trimmingWhitespace()) }
    }
    return nil
  }

  /// `text` made safe for a Markdown table cell.
  static func cell(_ text: String) -> String {
    String(text.flatMap { $0 == "|" ? ["\\", "|"] : $0 == "\n" ? [" "] : [$0] })
  }

  /// Writes the report; returns false when the file cannot be written.
  static func write(_ text: String, to path: String) -> Bool {
    guard let file = fopen(path, "w") else { return false }
    fputs(text, file)
    return fclose(file) == 0
  }
}

extension Substring {
  fileprivate func trimmingWhitespace() -> Substring {
    var text = self
    while let first = text.first, first.isWhitespace { text.removeFirst() }
    while let last = text.last, last.isWhitespace { text.removeLast() }
    return text
  }
}

extension String {
  fileprivate func replacingQuotes() -> String { filter { $0 != "\"" } }
}
