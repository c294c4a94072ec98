import ReactiveState
import Testing

/// Seeded fuzzing of SE-0506's one-shot events form (`withObservationTracking(options:)`)
/// against a reference model, covering what the toolchain comparison cannot: `event.cancel()`
/// and `.deinit` events.
///
/// Reference semantics (written out in `Reference` below): a tracker observes the stored
/// properties it read (`sum` = `a` and `b`); the first notifying mutation of any of them
/// (equal assignments do not notify, `+=` always does) delivers `.willSet` (old value
/// visible) and/or `.didSet` (new value visible) as requested, then the tracker ends — at
/// once if its `.willSet` handler calls `event.cancel()` (no `.didSet` follows). Mutations
/// are not events for a tracker that requested neither. When a tracked model is deallocated
/// the tracker gets one `.deinit` event if requested, and ends when nothing it observed is
/// alive. A tracker's closure is kept exactly as long as it is active. After the script every
/// model is released, and no tracker's closure may remain.
@Suite struct EventFuzzTests {
  enum Property: String, CaseIterable { case a, b, c, sum }

  struct Read: Hashable, CustomStringConvertible {
    var model: Int
    var property: Property
    var description: String { "m\(model).\(property)" }
    /// The stored properties behind the read.
    var stored: [Read] {
      property == .sum
        ? [Read(model: model, property: .a), Read(model: model, property: .b)] : [self]
    }
  }

  enum Step: CustomStringConvertible {
    case arm(id: Int, reads: [Read], options: ObservationTracking.Options, cancelsAtWillSet: Bool)
    case assign(Read, Int)
    case addInPlace(Read, Int)
    case release(model: Int)

    var description: String {
      switch self {
      case .arm(let id, let reads, let options, let cancels):
        let names = [
          (ObservationTracking.Options.willSet, "willSet"), (.didSet, "didSet"),
          (.deinit, "deinit"),
        ]
        .filter { options.contains($0.0) }.map(\.1)
        return "arm t\(id) \(reads) options \(names)\(cancels ? " cancelling at willSet" : "")"
      case .assign(let target, let value): return "\(target) = \(value)"
      case .addInPlace(let target, let delta): return "\(target) += \(delta)"
      case .release(let model): return "release m\(model)"
      }
    }
  }

  static let modelCount = 3

  static func generate(seed: UInt64) -> [Step] {
    var random = SplitMix64(seed: seed)
    var steps: [Step] = []
    let optionSets: [ObservationTracking.Options] = [
      .willSet, .didSet, [.willSet, .didSet], .deinit, [.willSet, .deinit],
      [.willSet, .didSet, .deinit],
    ]
    for id in 0..<40 {
      let model = random.below(modelCount)
      switch random.below(10) {
      case 0..<4:
        let reads = (0..<(1 + random.below(3))).map { _ in
          Read(
            model: random.oneIn(3) ? random.below(modelCount) : model,
            property: Property.allCases[random.below(4)])
        }
        steps.append(
          .arm(
            id: id, reads: reads, options: optionSets[random.below(optionSets.count)],
            cancelsAtWillSet: random.oneIn(3)))
      case 4..<7:
        steps.append(
          .assign(Read(model: model, property: [.a, .b, .c][random.below(3)]), random.below(3)))
      case 7..<9:
        steps.append(
          .addInPlace(Read(model: model, property: [.a, .b, .c][random.below(3)]), random.below(2)))
      default: if random.oneIn(2) { steps.append(.release(model: model)) }
      }
    }
    return steps
  }

  /// The straightforward model of the semantics above.
  struct Reference {
    struct Tracker {
      var id: Int
      var reads: [Read]
      var observed: Set<Read>
      var options: ObservationTracking.Options
      var cancelsAtWillSet: Bool
    }
    var values: [[Property: Int]?] = Array(repeating: [.a: 0, .b: 0, .c: 0], count: modelCount)
    var trackers: [Tracker] = []

    func value(_ read: Read) -> Int? {
      guard let model = values[read.model] else { return nil }
      return read.property == .sum ? model[.a]! + model[.b]! : model[read.property]!
    }

    /// What a handler prints: the property, and the value of the first read of that
    /// property (in read order, possibly on another model) as the handler sees it.
    func shown(_ tracker: Tracker, _ property: Property) -> String {
      let read = tracker.reads.flatMap(\.stored).first { $0.property == property }!
      return "\(property)=\(value(read).map(String.init) ?? "gone")"
    }

    mutating func mutate(_ target: Read, to new: Int, log: inout [String]) {
      let firing = trackers.filter {
        $0.observed.contains(target) && !$0.options.isDisjoint(with: [.willSet, .didSet])
      }
      var ended = Set<Int>()
      for tracker in firing {
        if tracker.options.contains(.willSet) {
          log.append("willSet t\(tracker.id) \(shown(tracker, target.property))")
          if tracker.cancelsAtWillSet || !tracker.options.contains(.didSet) {
            ended.insert(tracker.id)
          }
        }
      }
      values[target.model]![target.property] = new
      for tracker in firing where !ended.contains(tracker.id) && tracker.options.contains(.didSet) {
        log.append("didSet t\(tracker.id) \(shown(tracker, target.property))")
      }
      let fired = Set(firing.map(\.id))
      trackers.removeAll { fired.contains($0.id) }
    }

    mutating func perform(_ step: Step, log: inout [String]) {
      switch step {
      case .arm(let id, let reads, let options, let cancels):
        let observed = Set(reads.filter { values[$0.model] != nil }.flatMap(\.stored))
        if !observed.isEmpty {
          trackers.append(
            Tracker(
              id: id, reads: reads, observed: observed, options: options, cancelsAtWillSet: cancels)
          )
        }
      case .assign(let target, let new):
        guard let old = value(target), old != new else { return }
        mutate(target, to: new, log: &log)
      case .addInPlace(let target, let delta):
        guard let old = value(target) else { return }
        mutate(target, to: old + delta, log: &log)
      case .release(let model):
        guard values[model] != nil else { return }
        values[model] = nil
        for index in trackers.indices
        where trackers[index].observed.contains(where: { $0.model == model }) {
          if trackers[index].options.contains(.deinit) {
            log.append("deinit t\(trackers[index].id)")
          }
          trackers[index].observed = trackers[index].observed.filter { $0.model != model }
        }
        trackers.removeAll { $0.observed.isEmpty }
      }
    }

    static func run(_ script: [Step]) -> [[String]] {
      var reference = Reference()
      return script.map { step in
        var log: [String] = []
        reference.perform(step, log: &log)
        return log.sorted() + ["alive \(reference.trackers.map(\.id).sorted())"]
      } + [["every model released: alive []"]]
    }
  }

  /// Runs a script on ReactiveState.
  final class Execution: @unchecked Sendable {
    var strong: [HandModel?]
    lazy var weak: [() -> HandModel?] = strong.map { model in { [weak model] in model } }
    var log: [String] = []
    var canaries: [(id: Int, alive: () -> Bool)] = []

    /// `confined`: models whose registrar is confined to the main thread.
    init(confined: Bool = false) {
      strong = (0..<EventFuzzTests.modelCount).map { _ in
        HandModel(confinedToMainThread: confined)
      }
    }

    func value(_ read: Read) -> Int? {
      guard let model = weak[read.model]() else { return nil }
      switch read.property {
      case .a: return model.a
      case .b: return model.b
      case .c: return model.c
      case .sum: return model.sum
      }
    }

    func arm(id: Int, reads: [Read], options: ObservationTracking.Options, cancels: Bool) {
      let canary = Canary()
      canaries.append((id, { [weak canary] in canary != nil }))
      ReactiveState.withObservationTracking(options: options) {
        for read in reads { _ = value(read) }
      } onChange: { [self] event in
        _ = canary
        guard event.kind != .deinit else {
          log.append("deinit t\(id)")
          return
        }
        let changed = reads.flatMap(\.stored).first { read in
          event.matches(\HandModel.a) && read.property == .a
            || event.matches(\HandModel.b) && read.property == .b
            || event.matches(\HandModel.c) && read.property == .c
        }
        let text = changed.map { "\($0.property)=\(value($0).map(String.init) ?? "gone")" } ?? "?"
        log.append("\(event.kind) t\(id) \(text)")
        if cancels && event.kind == .willSet { event.cancel() }
      }
    }

    func run(_ script: [Step]) -> [[String]] {
      _ = weak
      let steps = script.map { step in
        switch step {
        case .arm(let id, let reads, let options, let cancels):
          arm(id: id, reads: reads, options: options, cancels: cancels)
        case .assign(let target, let new):
          if let model = strong[target.model] {
            switch target.property {
            case .a: model.a = new
            case .b: model.b = new
            default: model.c = new
            }
          }
        case .addInPlace(let target, let delta):
          if let model = strong[target.model] {
            switch target.property {
            case .a: model.a += delta
            case .b: model.b += delta
            default: model.c += delta
            }
          }
        case .release(let model): strong[model] = nil
        }
        defer { log = [] }
        return log.sorted() + ["alive \(aliveTrackers)"]
      }
      // The trackers' closures capture this execution, and the models it holds keep their
      // registrations: releasing the models must free every tracker (and with it the cycle).
      strong = strong.map { _ in nil }
      return steps + [["every model released: alive \(aliveTrackers)"]]
    }

    var aliveTrackers: [Int] { Set(canaries.filter { $0.alive() }.map(\.id)).sorted() }
  }

  @Test func randomScriptsMatchTheReferenceModel() {
    compareWithTheReference(confined: false)
  }

  /// The same scripts on models confined to the main thread (the registrar inside
  /// `MainActorObservationRegistrar`), run by a thread standing in for the main thread.
  @Test(.enabled(if: mainThreadConfinementIsAvailable, "needs Linux membarrier"))
  func mainThreadConfinedModelsMatchTheReferenceModel() {
    actingAsMainThread { compareWithTheReference(confined: true) }
  }

  private func compareWithTheReference(confined: Bool) {
    let scripts = Fuzz.scriptCount
    var divergent = 0
    var events = 0
    for seed in 0..<UInt64(scripts) {
      let script = Self.generate(seed: seed)
      let expected = Reference.run(script)
      let actual = Execution(confined: confined).run(script)
      events += expected.joined().count { !$0.hasPrefix("alive") }
      if expected != actual {
        divergent += 1
        if divergent <= 3 {
          print(
            Fuzz.report(
              "events fuzz", seed: seed, script: script, expectedName: "Reference",
              expected: { Reference.run($0) }, actual: { Execution(confined: confined).run($0) }))
        }
      }
    }
    print(
      "fuzz events\(confined ? " (confined)" : ""): \(scripts) scripts, \(events) events compared, \(divergent) divergent"
    )
    #expect(divergent == 0)
  }
}
