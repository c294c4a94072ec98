import Observation
import ReactiveState

/// The Observation baseline: the toolchain's macro.
@Observable final class ObservationCounter: @unchecked Sendable {
  var count = 0
  var other = 0
  /// A computed property: Observation's form of a derived value (recomputed on every read).
  var doubled: Int { count * 2 }
}

/// ReactiveState in the Observation-compatible hand-written form (key-path literals).
final class HandWrittenCounter: ReactiveState.Observable, @unchecked Sendable {
  private let registrar = ReactiveState.ObservationRegistrar()
  // Unchecked: whether the optimiser drops the dynamic exclusivity check of a class's stored
  // property depends on every access in the module, so unrelated benchmark code could add a
  // `swift_beginAccess` to these accessors (it nearly tripled the tracked read once).
  @exclusivity(unchecked) private var _count = 0
  @exclusivity(unchecked) private var _other = 0
  var count: Int {
    get {
      registrar.access(self, keyPath: \.count)
      return _count
    }
    set { registrar.withMutation(of: self, keyPath: \.count) { _count = newValue } }
    _modify {
      registrar.access(self, keyPath: \.count)
      registrar.willSet(self, keyPath: \.count)
      defer { registrar.didSet(self, keyPath: \.count) }
      yield &_count
    }
  }
  var other: Int {
    get {
      registrar.access(self, keyPath: \.other)
      return _other
    }
    set { registrar.withMutation(of: self, keyPath: \.other) { _other = newValue } }
  }
}

/// A plain class: the floor for reads and writes.
final class PlainCounter {
  var count = 0
}

/// A plain class with the same payload as the counters plus nothing else.
final class PlainPair {
  var count = 0
  var other = 0
}

/// The hand-written pattern for a main-actor model: the same accessors over a
/// ``MainActorObservationRegistrar``.
@MainActor final class MainActorCounter: ReactiveState.Observable {
  private let registrar = MainActorObservationRegistrar()
  private var _count = 0
  var count: Int {
    get {
      registrar.access(self, keyPath: \.count)
      return _count
    }
    set { registrar.withMutation(of: self, keyPath: \.count) { _count = newValue } }
  }
}

/// The models with one `count` property (ReactiveState in either authoring form, and the
/// Observation baseline), so one generic (specialised, no dynamic dispatch) benchmark loop
/// serves each.
protocol CountingModel: AnyObject {
  var count: Int { get set }
}

extension HandWrittenCounter: CountingModel {}
extension TrackedCounter: CountingModel {}
extension ObservationCounter: CountingModel {}
