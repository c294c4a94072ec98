import Foundation
import ReactiveState

// Models for the concurrent fuzz tests (`ContinuousConcurrentFuzzTests`,
// `DerivedConcurrentFuzzTests`).

/// Three observable integers behind one lock, safe to read and write from several threads.
final class LockedTriple: ReactiveState.Observable, @unchecked Sendable {
  /// Internal, not private: `EngineTestHooks.swift` inspects its slots.
  let registrar = ReactiveState.ObservationRegistrar()
  private let lock = NSLock()
  private var storage = (0, 0, 0)

  init() {}
  /// A new object with `other`'s current values.
  init(copying other: LockedTriple) {
    storage = (other.stored(0), other.stored(1), other.stored(2))
  }

  subscript(cell: Int) -> Int {
    get {
      switch cell {
      case 0: registrar.access(self, keyPath: \.first)
      case 1: registrar.access(self, keyPath: \.second)
      default: registrar.access(self, keyPath: \.third)
      }
      return stored(cell)
    }
    set {
      switch cell {
      case 0: registrar.withMutation(of: self, keyPath: \.first) { store(newValue, at: 0) }
      case 1: registrar.withMutation(of: self, keyPath: \.second) { store(newValue, at: 1) }
      default: registrar.withMutation(of: self, keyPath: \.third) { store(newValue, at: 2) }
      }
    }
  }
  // The key paths the subscript reports (never used to read).
  var first: Int { stored(0) }
  var second: Int { stored(1) }
  var third: Int { stored(2) }

  /// The value, without tracking.
  func stored(_ cell: Int) -> Int {
    lock.lock()
    defer { lock.unlock() }
    switch cell {
    case 0: return storage.0
    case 1: return storage.1
    default: return storage.2
    }
  }
  private func store(_ value: Int, at cell: Int) {
    lock.lock()
    defer { lock.unlock() }
    switch cell {
    case 0: storage.0 = value
    case 1: storage.1 = value
    default: storage.2 = value
    }
  }
}

/// Six cells: three properties on each of two objects, which are themselves observable
/// properties of the holder, and replaceable: ``replace(_:)`` swaps one for a copy, so the
/// old object (and every link to it) goes away while the other threads use it.
final class ReplaceableCells: ReactiveState.Observable, @unchecked Sendable {
  static let count = 6
  private let registrar = ReactiveState.ObservationRegistrar()
  private let lock = NSLock()
  private var objects = [LockedTriple(), LockedTriple()]
  // The key paths the object reads report (never used to read).
  var first: LockedTriple { storedObject(0) }
  var second: LockedTriple { storedObject(1) }
  private static func keyPath(_ index: Int) -> KeyPath<ReplaceableCells, LockedTriple> {
    index == 0 ? \.first : \.second
  }

  private func object(_ index: Int) -> LockedTriple {
    registrar.access(self, keyPath: Self.keyPath(index))
    return storedObject(index)
  }
  private func storedObject(_ index: Int) -> LockedTriple {
    lock.lock()
    defer { lock.unlock() }
    return objects[index]
  }

  subscript(cell: Int) -> Int {
    get { object(cell / 3)[cell % 3] }
    set { object(cell / 3)[cell % 3] = newValue }
  }
  func stored(_ cell: Int) -> Int { storedObject(cell / 3).stored(cell % 3) }

  /// Replaces object `index` with a copy of its current values; returns the old one.
  func replace(_ index: Int) -> LockedTriple {
    registrar.withMutation(of: self, keyPath: Self.keyPath(index)) {
      lock.lock()
      defer { lock.unlock() }
      let old = objects[index]
      objects[index] = LockedTriple(copying: old)
      return old
    }
  }
}

extension ReplaceableCells {
  /// Starts the concurrent fuzz tests' writers, one job on each of `workers`: `rounds` random
  /// writes (values 0..<4) to the first `cellCount` cells, every sixth a transaction of three.
  func startRandomWriters(
    on workers: ArraySlice<WorkerThread>, seed: UInt64, rounds: Int,
    cellCount: Int = ReplaceableCells.count
  ) {
    for (index, worker) in workers.enumerated() {
      worker.run {
        var random = SplitMix64(seed: seed &* 31 &+ UInt64(index))
        for round in 0..<rounds {
          if round % 6 == index {
            withTransaction {
              for _ in 0..<3 { self[random.below(cellCount)] = random.below(4) }
            }
          } else {
            self[random.below(cellCount)] = random.below(4)
          }
        }
      }
    }
  }
}

/// A weak reference to a replaced object, which must go away.
struct WeakTriple {
  weak var object: LockedTriple?
  init(_ object: LockedTriple) { self.object = object }
}

/// The events an SE-0506 one-shot tracker received, and a watch on its closure.
final class EventRecord: @unchecked Sendable {
  static let optionSets: [ObservationTracking.Options] = [
    .willSet, .didSet, [.willSet, .didSet], .deinit, [.willSet, .deinit], [.didSet, .deinit],
    [.willSet, .didSet, .deinit],
  ]
  let options: ObservationTracking.Options
  let kinds = LockedBox<[ObservationTracking.Event.Kind]>([])
  let closure = CanaryWatch()
  init(options: ObservationTracking.Options) {
    self.options = options
  }

  /// How the events break the contract, or nil: only requested kinds; the mutation events
  /// of one mutation (`willSet` then `didSet`, or a `didSet` alone for a change that landed
  /// during `apply`); at most one `deinit` per tracked object (at most three: the holder and
  /// two others). A `deinit` may come anywhere among them: it is delivered on the thread that
  /// released the object, unordered with the mutating thread's deliveries.
  var violation: String? {
    let kinds = self.kinds.value
    let mutationEvents = kinds.filter { $0 != .deinit }
    var allowed: [[ObservationTracking.Event.Kind]] = [[]]
    if options.contains(.willSet) { allowed.append([.willSet]) }
    if options.contains(.didSet) { allowed.append([.didSet]) }
    if options.isSuperset(of: [.willSet, .didSet]) {
      allowed = [[], [.willSet, .didSet], [.didSet]]
    }
    let deinits = kinds.count - mutationEvents.count
    let valid =
      allowed.contains(mutationEvents) && deinits <= 3
      && (deinits == 0 || options.contains(.deinit))
    return valid ? nil : "options \(options.rawValue): \(kinds)"
  }

  /// Installs an SE-0506 tracker, with options picked by `random`, of what `apply` reads.
  static func track(
    _ random: inout SplitMix64, _ apply: () -> Void
  ) -> EventRecord {
    let record = EventRecord(options: optionSets[random.below(optionSets.count)])
    let canary = Canary()
    record.closure.canary = canary
    ReactiveState.withObservationTracking(options: record.options, apply) { event in
      _ = canary
      record.kinds.value.append(event.kind)
    }
    return record
  }
}
