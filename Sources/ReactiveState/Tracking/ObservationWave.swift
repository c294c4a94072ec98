import Synchronization

/// A counter that moves whenever something consumes a change after a `didSet` walk marked a
/// source with it: a continuous observer starts a run, or a derived value is brought up to
/// date. A source whose last `didSet` walk happened in the current wave knows all the
/// subscribers it reached are still waiting, and skips the walk (see
/// ``ChangePropagation/notify(_:_:)``). `current` is guarded by ``GraphLock``, like the walks.
enum ObservationWave {
  /// The current wave (never 0). Graph lock.
  nonisolated(unsafe) private(set) static var current: UInt64 = 1
  /// Whether a walk recorded `current` on a source since the last advance. Written under the
  /// graph lock; read without it by ``advanceIfMarked()``.
  private static let isMarked = Atomic<Bool>(false)

  /// A `didSet` walk is about to mark a source with the current wave (graph lock held).
  ///
  /// A relaxed store: only ``advanceIfMarked()`` reads it without the lock, after a derived
  /// value published its consumed state, and a walk fences before it first marks a derived
  /// value stale (``ChangePropagation/notify(_:_:)``) — so a walk that reaches no derived value
  /// pays for no fence.
  static func mark() -> UInt64 {
    if !isMarked.load(ordering: .relaxed) { isMarked.store(true, ordering: .relaxed) }
    return current
  }

  /// Something consumed changes: later walks must not be skipped (graph lock held). Cheap
  /// when no walk marked the current wave.
  static func advance() {
    guard isMarked.load(ordering: .relaxed) else { return }
    isMarked.store(false, ordering: .relaxed)
    current &+= 1
  }

  /// ``advance()`` from a consumer that does not hold the graph lock and has just published
  /// its own "consumed" state (e.g. a derived value cleared its stale flag, sequentially
  /// consistent): takes the lock only when a walk marked the current wave. A walk that
  /// marks it after this check also finds the consumer's new state and marks it again.
  static func advanceIfMarked() {
    if isMarked.load(ordering: .sequentiallyConsistent) { GraphLock.withLock { advance() } }
  }
}
