import Synchronization

/// A process-wide counter that moves whenever something consumes a change: a continuous
/// observer starts a run, or a derived value is brought up to date. A source whose last
/// `didSet` walk happened in the current wave knows all the subscribers it reached are still
/// waiting, and skips the walk (see ``ChangePropagation/notify(_:_:)``).
enum ObservationWave {
  private static let counter = Atomic<UInt64>(1)

  /// The current wave (never 0).
  static var current: UInt64 { counter.load(ordering: .sequentiallyConsistent) }

  /// Starts a new wave.
  static func advance() { counter.add(1, ordering: .sequentiallyConsistent) }
}
