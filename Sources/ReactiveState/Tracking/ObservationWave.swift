/// A counter that moves whenever a continuous observer consumes changes (starts a run) after
/// a `didSet` walk marked a source with it. A source whose last `didSet` walk happened in the
/// current wave knows all the subscribers it reached are still waiting, and skips the walk
/// (see ``ChangePropagation/notify(_:_:)``; sources with derived subscribers are never
/// marked). Guarded by ``GraphLock``, like the walks.
enum ObservationWave {
  /// The current wave (never 0).
  nonisolated(unsafe) private(set) static var current: UInt64 = 1
  /// Whether a walk recorded `current` on a source since the last advance.
  nonisolated(unsafe) private static var isMarked = false

  /// A `didSet` walk is about to mark a source with the current wave.
  static func mark() -> UInt64 {
    isMarked = true
    return current
  }

  /// Something consumed changes: later walks must not be skipped. Cheap when no walk marked
  /// the current wave.
  static func advance() {
    guard isMarked else { return }
    isMarked = false
    current &+= 1
  }
}
