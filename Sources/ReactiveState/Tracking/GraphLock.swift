import CReactiveState

/// The word of a mutex for short critical sections, in stable heap storage: uncontended
/// acquire and release one atomic instruction each (see `rs_lock` in the C shim: spin, then
/// futex). Its C11 atomics are visible to ThreadSanitizer (`Synchronization.Mutex` reports
/// false positives on Linux). Callers never run user code while holding one.
///
/// A value that its owner stores and frees (``deallocate()``), so a hot path reaches the
/// word with one load; ``WordLock`` is the self-freeing object form.
@usableFromInline
struct RawWordLock: @unchecked Sendable {
  @usableFromInline let word: UnsafeMutablePointer<rs_lock>

  @usableFromInline init() {
    self.init(word: .allocate(capacity: 1))
  }

  /// A lock in storage its owner provides (and frees, instead of calling ``deallocate()``).
  init(word: UnsafeMutablePointer<rs_lock>) {
    self.word = word
    word.initialize(to: rs_lock(state: 0))
  }

  /// Frees the word (the owner is going away; nobody holds or waits for the lock).
  func deallocate() { word.deallocate() }

  @inlinable @inline(__always) func lock() { rs_lock_acquire(word) }
  @inlinable @inline(__always) func unlock() { rs_lock_release(word) }
  /// Takes the lock only if it is free; never waits (usable while holding another lock).
  @inlinable @inline(__always) func tryLock() -> Bool { rs_lock_try_acquire(word) != 0 }
  /// Takes the lock if it is free, or else sleeps until it is released or `milliseconds`
  /// pass (or less) and tries once more; returns whether it holds the lock.
  func acquireOrWait(milliseconds: UInt32) -> Bool {
    rs_lock_acquire_or_wait(word, milliseconds) != 0
  }
  /// Whether some thread holds the lock right now (sequentially consistent, like taking it).
  @inline(__always) var isHeld: Bool { rs_lock_is_held(word) != 0 }
}

/// A ``RawWordLock`` that frees its word when it goes away.
@usableFromInline
final class WordLock: @unchecked Sendable {
  @usableFromInline let raw = RawWordLock()

  @usableFromInline init() {}

  deinit { raw.deallocate() }

  @inlinable @inline(__always) func lock() { raw.lock() }
  @inlinable @inline(__always) func unlock() { raw.unlock() }
  /// Takes the lock only if it is free; never waits (usable while holding another lock).
  @inlinable @inline(__always) func tryLock() -> Bool { raw.tryLock() }

  @inlinable @inline(__always) func withLock<T>(_ body: () throws -> T) rethrows -> T {
    lock()
    defer { unlock() }
    return try body()
  }
}

/// The one lock that guards the dependency graph's structure: subscriber lists, link
/// insertion and removal, and subscriber state transitions (fired, dirty, cancelled).
///
/// Hot paths never take it: untracked reads, reads of already-linked properties and writes
/// with no subscribers are lock-free. User code (callbacks, deinitialisers of released
/// closures) never runs while it is held. It is a static C word, so taking it involves no
/// lazy-initialisation check.
enum GraphLock {
  @inline(__always) static func lock() { rs_lock_acquire(rs_graph_lock_pointer()) }
  @inline(__always) static func unlock() {
    rs_lock_release(rs_graph_lock_pointer())
    GraphLockPins.releaseAfterUnlock()
  }

  @inline(__always) static func withLock<T>(_ body: () throws -> T) rethrows -> T {
    lock()
    defer { unlock() }
    return try body()
  }
}
