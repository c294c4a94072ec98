import Synchronization

/// A counter that moves whenever a continuous observer consumes changes (starts a run) after
/// a `didSet` walk marked a source with it. A source whose last `didSet` walk completed in
/// the current wave knows all the subscribers it reached are still waiting, and a write to it
/// skips the walk (see ``ChangePropagation/notify(_:_:firstCalling:)``; sources with derived
/// subscribers are never marked). Moved under ``GraphLock``; read without it by those writes.
enum ObservationWave {
  /// The current wave (never 0).
  private static let current = Atomic<UInt64>(1)
  /// Whether a walk recorded `current` on a source since the last advance (graph lock).
  nonisolated(unsafe) private static var isMarked = false

  /// The current wave, as a write deciding whether to skip its walk reads it (sequentially
  /// consistent: see ``SourceNode/hasCurrentDidSetWalk``).
  @inline(__always)
  static var currentValue: UInt64 { current.load(ordering: .sequentiallyConsistent) }

  /// A `didSet` walk starts: returns the wave it marks its source with when it completes, so
  /// an advance meanwhile makes that mark stale (graph lock).
  static func mark() -> UInt64 {
    isMarked = true
    return current.load(ordering: .relaxed)
  }

  /// Something consumed changes: later walks must not be skipped. Cheap when no walk marked
  /// the current wave. Sequentially consistent, before the consumer reads anything: a write
  /// that skips its walk after this either sees the new wave or is seen by those reads
  /// (graph lock).
  static func advance() {
    guard isMarked else { return }
    isMarked = false
    current.store(current.load(ordering: .relaxed) &+ 1, ordering: .sequentiallyConsistent)
  }
}
