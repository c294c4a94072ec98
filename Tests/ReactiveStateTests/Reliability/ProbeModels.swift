import Foundation
import Observation
import ReactiveState

/// The models the concurrency probes mutate from several threads: one per engine, written the
/// same way (a hand-written registrar call in each accessor, storage behind a lock so the model
/// itself is never the data race), with an optional pause between `willSet` and the store to
/// widen the window the toolchain's async sequence races in (its e12 probe).
protocol ProbeModel: AnyObject, Sendable {
  var value: Int { get set }
  /// A second property (always 0), read to make the object observed before `value` is read.
  var other: Int { get }
  /// The pause between `willSet` and the store, in microseconds (changeable at any time).
  var storeDelayMicros: UInt32 { get set }
}

/// The toolchain's registrar.
final class OracleProbeModel: Observation.Observable, ProbeModel, @unchecked Sendable {
  private let registrar = Observation.ObservationRegistrar()
  private let lock = NSLock()
  private var stored = 0
  private let delay: LockedBox<UInt32>

  init(storeDelayMicros: UInt32 = 0) { delay = LockedBox(storeDelayMicros) }

  var storeDelayMicros: UInt32 {
    get { delay.value }
    set { delay.value = newValue }
  }

  var other: Int {
    registrar.access(self, keyPath: \.other)
    return 0
  }

  var value: Int {
    get {
      registrar.access(self, keyPath: \.value)
      lock.lock()
      defer { lock.unlock() }
      return stored
    }
    set {
      registrar.withMutation(of: self, keyPath: \.value) {
        let pause = delay.value
        if pause > 0 { usleep(pause) }
        lock.lock()
        stored = newValue
        lock.unlock()
      }
    }
  }
}

/// ReactiveState's registrar.
final class ReactiveProbeModel: ReactiveState.Observable, ProbeModel, @unchecked Sendable {
  private let registrar = ReactiveState.ObservationRegistrar()
  private let lock = NSLock()
  private var stored = 0
  private let delay: LockedBox<UInt32>

  init(storeDelayMicros: UInt32 = 0) { delay = LockedBox(storeDelayMicros) }

  var storeDelayMicros: UInt32 {
    get { delay.value }
    set { delay.value = newValue }
  }

  var other: Int {
    registrar.access(self, keyPath: \.other)
    return 0
  }

  var value: Int {
    get {
      registrar.access(self, keyPath: \.value)
      lock.lock()
      defer { lock.unlock() }
      return stored
    }
    set {
      registrar.withMutation(of: self, keyPath: \.value) {
        let pause = delay.value
        if pause > 0 { usleep(pause) }
        lock.lock()
        stored = newValue
        lock.unlock()
      }
    }
  }
}

/// Which engine a probe drives.
enum ProbeEngine: CaseIterable, Sendable, CustomStringConvertible {
  case observation
  case reactiveState

  var description: String { self == .observation ? "Observation" : "ReactiveState" }

  func makeModel(storeDelayMicros: UInt32 = 0) -> any ProbeModel {
    switch self {
    case .observation: OracleProbeModel(storeDelayMicros: storeDelayMicros)
    case .reactiveState: ReactiveProbeModel(storeDelayMicros: storeDelayMicros)
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
