import Observation
import ReactiveState
import ReactiveStateMacrosFree

/// A mutable value shared with `@Sendable` callbacks in single-threaded tests (and guarded by
/// a lock where a test is multi-threaded).
final class Box<Value>: @unchecked Sendable {
  var value: Value
  init(_ value: Value) { self.value = value }
}

/// Arms a one-shot `.deinit` registration on what `reads` reads; the returned log gets the
/// kind of each event delivered to it ("deinit").
func deinitEventLog(reading reads: () -> Void) -> Box<[String]> {
  let log = Box<[String]>([])
  ReactiveState.withObservationTracking(options: [.deinit], reads) { event in
    log.value.append("\(event.kind)")
  }
  return log
}

/// The surface both model flavours share, so one script can drive either.
protocol ScriptModel: AnyObject, Sendable {
  var a: Int { get set }
  var b: Int { get set }
  var c: Int { get set }
  /// Not observable (the `@ObservationIgnored` stand-in: a plain stored property).
  var ignored: Int { get set }
  /// Computed from `a` and `b`.
  var sum: Int { get }
}

/// The oracle: the toolchain's macro.
@Observable final class OracleModel: ScriptModel, @unchecked Sendable {
  var a = 0
  var b = 0
  var c = 0
  @ObservationIgnored var ignored = 0
  var sum: Int { a + b }
}

/// ReactiveState, written as the macro's expansion by hand (with the equality rule helper).
///
/// `confinedToMainThread`: the registrar of a ``MainActorObservationRegistrar`` (writes and
/// tracked reads must then happen on the main thread).
final class HandModel: ReactiveState.Observable, ScriptModel, @unchecked Sendable {
  /// Internal, not private: `EngineTestHooks.swift` inspects its slots.
  let registrar: ReactiveState.ObservationRegistrar
  init(confinedToMainThread: Bool = false) {
    registrar =
      confinedToMainThread ? mainThreadConfinedRegistrar() : ReactiveState.ObservationRegistrar()
  }
  private var _a = 0
  private var _b = 0
  private var _c = 0
  var ignored = 0

  var a: Int {
    get {
      registrar.access(self, keyPath: \.a)
      return _a
    }
    set {
      registrar.withMutation(of: self, keyPath: \.a, replacing: _a, with: newValue) {
        _a = newValue
      }
    }
    _modify {
      registrar.access(self, keyPath: \.a)
      registrar.willSet(self, keyPath: \.a)
      defer { registrar.didSet(self, keyPath: \.a) }
      yield &_a
    }
  }
  var b: Int {
    get {
      registrar.access(self, keyPath: \.b)
      return _b
    }
    set {
      registrar.withMutation(of: self, keyPath: \.b, replacing: _b, with: newValue) {
        _b = newValue
      }
    }
    _modify {
      registrar.access(self, keyPath: \.b)
      registrar.willSet(self, keyPath: \.b)
      defer { registrar.didSet(self, keyPath: \.b) }
      yield &_b
    }
  }
  var c: Int {
    get {
      registrar.access(self, keyPath: \.c)
      return _c
    }
    set {
      registrar.withMutation(of: self, keyPath: \.c, replacing: _c, with: newValue) {
        _c = newValue
      }
    }
    _modify {
      registrar.access(self, keyPath: \.c)
      registrar.willSet(self, keyPath: \.c)
      defer { registrar.didSet(self, keyPath: \.c) }
      yield &_c
    }
  }
  var sum: Int { a + b }
}

/// Which engine a parity test drives.
enum Engine: CaseIterable, Sendable, CustomStringConvertible {
  case observation
  case reactiveState

  var description: String { self == .observation ? "Observation" : "ReactiveState" }

  func makeModel() -> any ScriptModel {
    switch self {
    case .observation: OracleModel()
    case .reactiveState: HandModel()
    }
  }

  /// One-shot tracking through the engine's own `withObservationTracking`.
  @discardableResult
  func track<T>(_ apply: () -> T, onChange: @escaping @Sendable () -> Void) -> T {
    switch self {
    case .observation: Observation.withObservationTracking(apply, onChange: onChange)
    case .reactiveState: ReactiveState.withObservationTracking(apply, onChange: onChange)
    }
  }
}

/// A weak reference to a `HandModel`, for closures that must not keep one alive.
final class WeakHandModel: @unchecked Sendable {
  weak var model: HandModel?
  init(_ model: HandModel? = nil) { self.model = model }
}
