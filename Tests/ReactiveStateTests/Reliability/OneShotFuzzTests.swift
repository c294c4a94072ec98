import Foundation
import Observation
import ReactiveState
import Testing

/// Seeded differential fuzzing of one-shot tracking against the toolchain's Observation.
///
/// Random scripts over three models arm trackers on random property sets (possibly spanning
/// models, possibly with a nested tracker in the middle of the reads, possibly re-arming from
/// `onChange`), assign, assign equal values, mutate in place, write an ignored property and
/// deallocate models. After each step the sorted list of `onChange` calls (with the values
/// they read, old values since it is `willSet`) and the set of trackers whose closure is
/// still alive must be identical for both engines.
///
/// Cancellation is not fuzzed here: `Observation.withObservationTracking` has no cancel
/// handle. It is fuzzed where it exists — `event.cancel()` of the events form and continuous
/// tokens — against reference models (`EventFuzzTests`, `ContinuousFuzzTests`).
///
/// Count: `REACTIVESTATE_FUZZ_SCRIPTS` (default 300). A divergence prints its seed and the
/// shrunk script (steps dropped while it still diverges).
@Suite struct OneShotFuzzTests {
  enum Property: String, CaseIterable { case a, b, c, sum, ignored }

  struct Read: CustomStringConvertible {
    var model: Int
    var property: Property
    var description: String { "m\(model).\(property)" }
  }

  enum Step: CustomStringConvertible {
    case arm(id: Int, reads: [Read], nested: (id: Int, reads: [Read])?, rearms: Bool)
    case assign(Read, Int)
    case addInPlace(Read, Int)
    case release(model: Int)

    var description: String {
      switch self {
      case .arm(let id, let reads, let nested, let rearms):
        let inner = nested.map { " nested t\($0.id) \($0.reads)" } ?? ""
        return "arm t\(id) \(reads)\(inner)\(rearms ? " re-arming" : "")"
      case .assign(let target, let value): return "\(target) = \(value)"
      case .addInPlace(let target, let delta): return "\(target) += \(delta)"
      case .release(let model): return "release m\(model)"
      }
    }
  }

  static let modelCount = 3

  static func generate(seed: UInt64, length: Int = 40) -> [Step] {
    var random = SplitMix64(seed: seed)
    var nextID = 0
    func reads() -> [Read] {
      (0..<(1 + random.below(3))).map { _ in
        Read(model: random.below(modelCount), property: Property.allCases[random.below(5)])
      }
    }
    var steps: [Step] = []
    for _ in 0..<length {
      switch random.below(10) {
      case 0..<4:
        let outer = nextID
        nextID += 1
        var nested: (id: Int, reads: [Read])?
        if random.oneIn(4) {
          nested = (nextID, reads())
          nextID += 1
        }
        steps.append(.arm(id: outer, reads: reads(), nested: nested, rearms: random.oneIn(5)))
      case 4..<7:
        let target = Read(
          model: random.below(modelCount), property: [.a, .b, .c, .ignored][random.below(4)])
        steps.append(.assign(target, random.below(3)))
      case 7..<9:
        let target = Read(model: random.below(modelCount), property: [.a, .b, .c][random.below(3)])
        steps.append(.addInPlace(target, random.below(2)))
      default:
        if random.oneIn(3) { steps.append(.release(model: random.below(modelCount))) }
      }
    }
    return steps
  }

  /// Runs a script on one engine; one log line list per step.
  final class Execution: @unchecked Sendable {
    let engine: Engine
    var strong: [(any ScriptModel)?]
    var weak: [() -> (any ScriptModel)?] = []
    var log: [String] = []
    var canaries: [(id: Int, alive: () -> Bool)] = []

    /// `confined`: ReactiveState models whose registrar is confined to the main thread.
    init(engine: Engine, confined: Bool = false) {
      self.engine = engine
      let models = (0..<OneShotFuzzTests.modelCount).map { _ in
        confined ? HandModel(confinedToMainThread: true) : engine.makeModel()
      }
      strong = models
      weak = models.map { model in { [weak model] in model } }
    }

    func value(_ read: Read) -> String {
      guard let model = weak[read.model]() else { return "gone" }
      switch read.property {
      case .a: return "\(model.a)"
      case .b: return "\(model.b)"
      case .c: return "\(model.c)"
      case .sum: return "\(model.sum)"
      case .ignored: return "\(model.ignored)"
      }
    }

    func handler(id: Int, reads: [Read], rearms: Bool) -> @Sendable () -> Void {
      let canary = Canary()
      canaries.append((id, { [weak canary] in canary != nil }))
      return { [self] in
        _ = canary
        log.append("fire t\(id) " + reads.map { "\($0)=\(value($0))" }.joined(separator: " "))
        if rearms { arm(id: id, reads: reads, nested: nil, rearms: true) }
      }
    }

    func arm(id: Int, reads: [Read], nested: (id: Int, reads: [Read])?, rearms: Bool) {
      let half = reads.count / 2
      engine.track(
        {
          for read in reads.prefix(half) { _ = value(read) }
          if let nested {
            engine.track(
              { for read in nested.reads { _ = value(read) } },
              onChange: handler(id: nested.id, reads: nested.reads, rearms: false))
          }
          for read in reads.dropFirst(half) { _ = value(read) }
        }, onChange: handler(id: id, reads: reads, rearms: rearms))
    }

    func perform(_ step: Step) {
      switch step {
      case .arm(let id, let reads, let nested, let rearms):
        arm(id: id, reads: reads, nested: nested, rearms: rearms)
      case .assign(let target, let value):
        guard let model = strong[target.model] else { return }
        switch target.property {
        case .a: model.a = value
        case .b: model.b = value
        case .c: model.c = value
        default: model.ignored = value
        }
      case .addInPlace(let target, let delta):
        guard let model = strong[target.model] else { return }
        switch target.property {
        case .a: model.a += delta
        case .b: model.b += delta
        default: model.c += delta
        }
      case .release(let model):
        strong[model] = nil
      }
    }

    func run(_ script: [Step]) -> [[String]] {
      var steps: [[String]] = []
      for step in script {
        perform(step)
        let alive = Set(canaries.filter { $0.alive() }.map(\.id)).sorted()
        steps.append(log.sorted() + ["alive \(alive)"])
        log = []
      }
      strong = []
      return steps
    }
  }

  @Test func randomScriptsMatchTheToolchain() {
    compareWithTheToolchain(confined: false)
  }

  /// The same scripts on models whose registrar is confined to the main thread (the one
  /// inside `MainActorObservationRegistrar`), run by a thread standing in for the main
  /// thread: plain version moves and plain parking must not change a thing.
  @Test(.enabled(if: mainThreadConfinementIsAvailable, "needs Linux membarrier"))
  func mainThreadConfinedModelsMatchTheToolchain() {
    actingAsMainThread { compareWithTheToolchain(confined: true) }
  }

  private func compareWithTheToolchain(confined: Bool) {
    let scripts = Fuzz.scriptCount
    var divergent = 0
    var fires = 0
    for seed in 0..<UInt64(scripts) {
      let script = Self.generate(seed: seed)
      let expected = Execution(engine: .observation).run(script)
      let actual = Execution(engine: .reactiveState, confined: confined).run(script)
      fires += expected.joined().count { $0.hasPrefix("fire") }
      if expected != actual {
        divergent += 1
        if divergent <= 3 {
          print(
            Fuzz.report(
              "one-shot fuzz", seed: seed, script: script, expectedName: "Observation",
              expected: { Execution(engine: .observation).run($0) },
              actual: { Execution(engine: .reactiveState, confined: confined).run($0) }))
        }
      }
    }
    let kind = confined ? "one-shot (confined)" : "one-shot"
    print(
      "fuzz \(kind): \(scripts) scripts, \(fires) onChange calls compared, \(divergent) divergent")
    #expect(divergent == 0)
    #expect(fires > scripts, "the scripts exercise firing")
  }
}
