#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A `pthread_mutex_t` in stable heap storage (its address never moves).
///
/// Plain pthread mutexes because ThreadSanitizer understands them
/// (`Synchronization.Mutex` reports false positives on Linux). Callers never run user code
/// while holding one.
@usableFromInline
final class PThreadMutex: @unchecked Sendable {
  @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>

  @usableFromInline init() {
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  @inlinable @inline(__always) func lock() { pthread_mutex_lock(mutex) }
  @inlinable @inline(__always) func unlock() { pthread_mutex_unlock(mutex) }

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
/// closures) never runs while it is held.
enum GraphLock {
  /// The process-wide graph lock.
  static let shared = PThreadMutex()
}
