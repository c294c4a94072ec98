import Observation
import ReactiveState
import Testing

/// Seeded random scripts (arm trackers over random property sets, nested arms, assignments,
/// equal assignments, in-place mutations) run against both engines; what fired at each step,
/// and what each `onChange` read, must be identical. Order among observers fired by the same
/// mutation is unspecified in Observation (it walks a hash set), so each step's log is sorted.
@Suite struct DifferentialTrackingTests {
  struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  enum Property: CaseIterable { case a, b, c, sum, ignored }

  static func read(_ property: Property, of model: any ScriptModel) -> Int {
    switch property {
    case .a: model.a
    case .b: model.b
    case .c: model.c
    case .sum: model.sum
    case .ignored: model.ignored
    }
  }

  /// Runs one script; returns one sorted log line list per step.
  static func run(seed: UInt64, engine: Engine) -> [[String]] {
    var random = SplitMix(state: seed)
    let models = [engine.makeModel(), engine.makeModel()]
    let log = Box<[String]>([])
    var steps: [[String]] = []
    var nextTracker = 0
    for _ in 0..<60 {
      let model = models[Int.random(in: 0..<2, using: &random)]
      let modelIndex = model === models[0] ? 0 : 1
      if Bool.random(using: &random) {
        let outer = nextTracker
        nextTracker += 1
        let reads = Property.allCases.filter { _ in Int.random(in: 0..<3, using: &random) == 0 }
        let nested = Int.random(in: 0..<4, using: &random) == 0
        let innerReads = Property.allCases.filter { _ in Int.random(in: 0..<3, using: &random) == 0
        }
        let inner = nextTracker
        if nested { nextTracker += 1 }
        let snapshot: @Sendable (Int) -> String = { id in
          "fire \(id) a=\(model.a) b=\(model.b) c=\(model.c)"
        }
        engine.track(
          {
            for property in reads.prefix(reads.count / 2) { _ = read(property, of: model) }
            if nested {
              engine.track(
                {
                  for property in innerReads { _ = read(property, of: model) }
                }, onChange: { log.value.append(snapshot(inner)) })
            }
            for property in reads.dropFirst(reads.count / 2) { _ = read(property, of: model) }
          }, onChange: { log.value.append(snapshot(outer)) })
      } else {
        let value = Int.random(in: 0..<3, using: &random)
        switch Int.random(in: 0..<7, using: &random) {
        case 0: model.a = value
        case 1: model.b = value
        case 2: model.c = value
        case 3: model.a += value
        case 4: model.b += value
        case 5: model.c += 0
        default: model.ignored = value
        }
        log.value.append("model \(modelIndex) now a=\(model.a) b=\(model.b) c=\(model.c)")
      }
      steps.append(log.value.sorted())
      log.value = []
    }
    return steps
  }

  @Test(arguments: 0..<300)
  func randomScriptMatchesTheOracle(seed: Int) {
    let expected = Self.run(seed: UInt64(seed), engine: .observation)
    let actual = Self.run(seed: UInt64(seed), engine: .reactiveState)
    #expect(actual == expected)
    #expect(expected.joined().contains { $0.hasPrefix("fire") } || seed % 50 != 0)
  }
}
