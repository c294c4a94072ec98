import Foundation
import ReactiveState

/// The calling thread's pthread identifier (for "which thread ran this" assertions).
func currentThreadID() -> UInt { UInt(bitPattern: Int(bitPattern: UInt(pthread_self()))) }

/// A lock-protected counter for multi-threaded tests.
final class AtomicCounter: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0
  func increment() {
    lock.lock()
    count += 1
    lock.unlock()
  }
  var value: Int {
    lock.lock()
    defer { lock.unlock() }
    return count
  }
}

/// A lock-protected value for callbacks that run on other threads.
final class LockedBox<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: Value
  init(_ value: Value) { stored = value }
  var value: Value {
    get {
      lock.lock()
      defer { lock.unlock() }
      return stored
    }
    set {
      lock.lock()
      stored = newValue
      lock.unlock()
    }
  }
}

/// A model whose storage is lock-protected, for tests that mutate from several threads (the
/// registrar is thread-safe; unsynchronised model storage would be the test's own data race).
final class LockedModel: ReactiveState.Observable, @unchecked Sendable {
  private let registrar = ReactiveState.ObservationRegistrar()
  private let lock = NSLock()
  private var _a = 0
  var a: Int {
    get {
      registrar.access(self, keyPath: \.a)
      lock.lock()
      defer { lock.unlock() }
      return _a
    }
    set {
      registrar.withMutation(of: self, keyPath: \.a) {
        lock.lock()
        _a = newValue
        lock.unlock()
      }
    }
  }
}
