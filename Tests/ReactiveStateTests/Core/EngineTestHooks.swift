// Hooks into the engine for tests: this file alone imports it `@testable`.
@testable import ReactiveState

/// A plain ``ObservationRegistrar`` whose properties are confined to the main thread, as
/// inside ``MainActorObservationRegistrar`` — without the `@MainActor` API, so the tests'
/// nonisolated models (and the differential fuzzers) can run the confined protocol, and
/// exercise its slow side (another thread linking) on purpose.
func mainThreadConfinedRegistrar() -> ObservationRegistrar {
  ObservationRegistrar(confinedToMainThread: ())
}

/// Whether registrars made by ``mainThreadConfinedRegistrar()`` really are confined here
/// (the process-wide barrier exists on this system).
var mainThreadConfinementIsAvailable: Bool {
  RegistrarStorage(confinedToMainThread: ()).isConfinedToMainThread
}

/// Runs `body` with the calling thread standing in for the main thread, which owns confined
/// properties (the test harness runs main-actor work off the main thread on Linux).
func actingAsMainThread<T>(_ body: () throws -> T) rethrows -> T {
  try MainThreadConfinement.actingAsMainThread(body)
}

/// A model whose property slot tests can inspect: whether a one-shot registration is parked
/// in it rather than linked into the graph.
final class ParkingProbe: ReactiveState.Observable, @unchecked Sendable {
  private let registrar = ObservationRegistrar()
  private var stored = 0
  private var storedOther = 0

  var value: Int {
    get {
      registrar.access(self, keyPath: \.value)
      return stored
    }
    set { registrar.withMutation(of: self, keyPath: \.value) { stored = newValue } }
  }

  var other: Int {
    get {
      registrar.access(self, keyPath: \.other)
      return storedOther
    }
    set { registrar.withMutation(of: self, keyPath: \.other) { storedOther = newValue } }
  }

  /// Whether a registration waits in `value`'s parking word.
  var valueHasParkedOneShot: Bool {
    registrar.storage.existingSlot(for: \ParkingProbe.value)?.hasParkedOneShot ?? false
  }

  /// How many graph listeners react to `willSet` of `value`.
  var valueWillSetListeners: Int {
    registrar.storage.existingSlot(for: \ParkingProbe.value)?.willSetListeners.load(
      ordering: .relaxed) ?? 0
  }
}
