import Foundation
import ReactiveState

/// The calling thread's pthread identifier (for "which thread ran this" assertions).
func currentThreadID() -> UInt { UInt(bitPattern: Int(bitPattern: UInt(pthread_self()))) }

/// Runs `body` on a new thread and waits for it to end.
func onAnotherThread(_ body: @escaping @Sendable () -> Void) {
  let done = DispatchSemaphore(value: 0)
  let job = ThreadJob(body)
  Thread.detachNewThread {
    job.run()
    done.signal()
  }
  done.wait()
}

/// Runs `body` on a new thread (not the caller's, not the cooperative pool) and waits for it
/// without blocking the calling task's thread.
func onNewThread(_ body: @escaping @Sendable () -> Void) async {
  let job = ThreadJob(body)
  await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
    Thread {
      job.run()
      done.resume()
    }.start()
  }
}

/// A thread's work, released as soon as it ran: the thread's own closure lives until the
/// thread exits, possibly after the caller resumed, and must not keep what `body` captured
/// alive then (a test expecting a model's deallocation would fail now and then).
private final class ThreadJob: @unchecked Sendable {
  private var body: (@Sendable () -> Void)?
  init(_ body: @escaping @Sendable () -> Void) { self.body = body }
  func run() {
    let body = self.body
    self.body = nil
    body?()
  }
}

/// Yields until `done` holds (for deliveries that are `Task`s hopping to an actor), at most
/// `limit` times; returns whether it did.
func yield(until done: () async -> Bool, limit: Int = 20_000) async -> Bool {
  for _ in 0..<limit {
    if await done() { return true }
    await Task.yield()
  }
  return await done()
}

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

/// A lock-protected value for callbacks that run on other threads. An in-place mutation
/// (`box.value.append(x)`, `box.value += 1`) is one locked step, so concurrent ones lose
/// nothing (it must not read the box again inside the mutation: the lock is not recursive).
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
    _modify {
      lock.lock()
      defer { lock.unlock() }
      yield &stored
    }
  }
}

/// Runs `body(thread)` on `threads` new threads at once and waits for all of them.
func runConcurrently(threads: Int, _ body: @escaping @Sendable (Int) -> Void) {
  let group = DispatchGroup()
  for thread in 0..<threads {
    group.enter()
    Thread.detachNewThread {
      body(thread)
      group.leave()
    }
  }
  group.wait()
}
