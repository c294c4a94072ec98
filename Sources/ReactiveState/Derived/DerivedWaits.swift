/// Which thread is blocked on which derived value's compute lock: the wait-for graph that
/// tells a cycle through derived values spread over threads from plain contention.
///
/// Two values that read each other, computed at the same moment on two threads, each hold
/// their own compute lock and wait for the other's: a cycle that one thread alone would have
/// detected (it finds itself refreshing the value it reads), and a deadlock otherwise. So a
/// thread about to block follows the chain — the value's refreshing thread, the value that
/// thread waits for, its refreshing thread… — and, if it leads back to itself, fails its read
/// as a cycle instead of blocking. The last thread of such a cycle to arrive always sees it:
/// every other one registered its wait (under this lock) after it started refreshing the
/// value it holds. Only the contended path of a compute lock comes here.
enum DerivedWaits {
  private static let lock = WordLock()
  /// The blocked threads (as ``DerivedNode/currentThread`` names them) and the values they
  /// wait for; each value is alive while its reader waits for it.
  nonisolated(unsafe) private static var waits: [(thread: UInt, node: Unmanaged<DerivedNode>)] =
    []

  /// Registers that `thread` is about to block on `node`'s compute lock; returns false, with
  /// nothing registered, when that wait would close a cycle of threads waiting for each other.
  static func beginWait(for node: DerivedNode, thread: UInt) -> Bool {
    lock.lock()
    defer { lock.unlock() }
    var holder = node.refreshingThread.load(ordering: .relaxed)
    // Each thread waits for one value at a time, so a chain without a cycle ends within
    // `waits.count` steps.
    for _ in 0...waits.count {
      if holder == 0 { break }
      if holder == thread { return false }
      guard let next = waits.first(where: { $0.thread == holder }) else { break }
      holder = next.node._withUnsafeGuaranteedRef { $0.refreshingThread.load(ordering: .relaxed) }
    }
    waits.append((thread, .passUnretained(node)))
    return true
  }

  /// `thread` holds the lock it waited for (or gave up): its wait ends.
  static func endWait(thread: UInt) {
    lock.withLock {
      if let index = waits.firstIndex(where: { $0.thread == thread }) {
        waits.swapAt(index, waits.count - 1)
        waits.removeLast()
      }
    }
  }
}
