import Foundation
import Observation
import ReactiveState

/// Memory rows measured in child processes (fresh heaps): the growth of resident memory while
/// 1,000,000 objects or registrations are alive (enough that the allocator's page-granular
/// growth is below 0.2 B per item), divided by the count.
enum MemoryProbe {
  static let count = 1_000_000

  /// Child side: `--memory-probe KIND` allocates and prints bytes per item.
  static func runChild(kind: String) {
    var keep: [AnyObject] = []
    keep.reserveCapacity(count + 1)
    let baselineArray = residentBytes()
    switch kind {
    case "plain":
      for _ in 0..<count { keep.append(PlainPair()) }
    case "observation-instance":
      for _ in 0..<count { keep.append(ObservationCounter()) }
    case "ours-instance":
      for _ in 0..<count { keep.append(HandWrittenCounter()) }
    case "observation-registration":
      let model = ObservationCounter()
      printRegistrationCost {
        Observation.withObservationTracking({ _ = model.count }, onChange: {})
      }
      return
    case "ours-registration":
      let model = HandWrittenCounter()
      printRegistrationCost {
        ReactiveState.withObservationTracking({ _ = model.count }, onChange: {})
      }
      return
    default:
      print("nan")
      return
    }
    print(Double(residentBytes() - baselineArray) / Double(count))
    withExtendedLifetime(keep) {}
  }

  /// Arms one registration (warming up the property's bookkeeping), then `count` more, and
  /// prints the resident growth per registration.
  private static func printRegistrationCost(_ arm: () -> Void) {
    arm()
    let start = residentBytes()
    for _ in 0..<count { arm() }
    print(Double(residentBytes() - start) / Double(count))
  }

  /// Parent side: runs the child and parses its number.
  static func measure(_ kind: String) -> Double {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    process.arguments = ["--memory-probe", kind]
    let pipe = Pipe()
    process.standardOutput = pipe
    do { try process.run() } catch { return .nan }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    return Double(text) ?? .nan
  }

  static func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else {
      return 0
    }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
  }
}
