/// Which thread is about to block waiting for what, and which thread holds that now: the
/// wait-for graph that tells a deadlock — a cycle of threads, each waiting for the next —
/// from plain contention, before the last thread of the cycle blocks.
///
/// A thread about to wait follows the chain (the holder of what it waits for, what that
/// thread waits for, its holder…); when the chain leads back to itself, the wait would close
/// a cycle and is not registered. The last thread of a cycle to arrive always sees it: every
/// other one registered its wait under this graph's lock after it became the holder of what
/// it holds. A wait that cannot be given up (a derived value's subscription) is registered
/// even when it closes a cycle; the threads it waits for then see the cycle when they look
/// again (``closesCycle(_:)``, every 10 ms for a derived value's reader). A cycle made only
/// of waits that no thread gives up (``unconditionalCycle(through:)``) is ended by a
/// subscription that passes over the value it waits for. Only contended paths come here.
/// ``AnyCancellable`` and ``DerivedNode`` share one graph (``shared``): a cycle may pass
/// through both kinds of wait (a cancel action reading a value whose derivation cancels that
/// token).
final class WaitForGraph<Target: Equatable>: @unchecked Sendable {
  private let lock = WordLock()
  /// The waiting threads (their thread-state addresses), what each waits for (one target at
  /// a time), what it holds that ``holder`` cannot name, and whether it gives up its wait
  /// when it finds it closes a cycle.
  private var waits: [(waiter: UInt, target: Target, holds: [Target], canGiveUp: Bool)] = []
  /// The thread holding `target` now, or 0 when it cannot tell (read under the graph's lock).
  private let holder: (Target) -> UInt

  /// A graph whose targets are held by the threads `holder` names.
  init(holder: @escaping (Target) -> UInt) { self.holder = holder }

  /// Registers that `waiter`, holding `holds`, is about to wait for `target`; returns false,
  /// with nothing registered, when that wait would close a cycle of waiting threads.
  /// `canGiveUp`: the waiter gives up when a cycle closed later passes through its wait (it
  /// looks with ``closesCycle(_:)``); false for one that blocks until woken.
  func beginWait(
    _ waiter: UInt, for target: Target, holding holds: [Target] = [], canGiveUp: Bool = true
  ) -> Bool {
    lock.withLock {
      if chainLeads(from: target, to: waiter) { return false }
      waits.append((waiter, target, holds, canGiveUp))
      return true
    }
  }

  /// Registers a wait that cannot be given up, even when it closes a cycle: a thread in that
  /// cycle whose wait can end sees it with ``closesCycle(_:)`` and gives up instead.
  func beginWaitUnconditionally(_ waiter: UInt, for target: Target, holding holds: [Target]) {
    lock.withLock { waits.append((waiter, target, holds, false)) }
  }

  /// Whether the registered wait of `waiter` is part of a cycle now (one registered after it
  /// with ``beginWaitUnconditionally(_:for:holding:)`` closed it).
  func closesCycle(_ waiter: UInt) -> Bool {
    lock.withLock {
      guard let own = waits.first(where: { $0.waiter == waiter }) else { return false }
      return chainLeads(from: own.target, to: waiter)
    }
  }

  /// The cycle that the registered wait of `waiter` is part of now, when no wait in it can be
  /// given up (`waiter`'s own included): nobody in it gives up on its own. Nil otherwise.
  func unconditionalCycle(through waiter: UInt) -> UnconditionalCycle? {
    lock.withLock {
      guard let own = waits.first(where: { $0.waiter == waiter }), !own.canGiveUp else {
        return nil
      }
      var cycle = UnconditionalCycle(ownTargetIsUnnamed: false, someTargetIsUnnamed: false)
      var target = own.target
      for step in 0...waits.count {
        let (thread, named) = holding(target)
        if thread == 0 { return nil }
        if !named {
          cycle.ownTargetIsUnnamed = cycle.ownTargetIsUnnamed || step == 0
          cycle.someTargetIsUnnamed = true
        }
        if thread == waiter { return cycle }
        guard let next = waits.first(where: { $0.waiter == thread }), !next.canGiveUp else {
          return nil
        }
        target = next.target
      }
      return nil
    }
  }

  /// Whether some thread has registered a wait for `target` (tests wait for a thread to block
  /// instead of sleeping).
  func hasWait(for target: Target) -> Bool {
    lock.withLock { waits.contains { $0.target == target } }
  }

  /// The waits of `waiters` end (each holds what it waited for, gave up, or is about to be
  /// woken: no chain may pass through a thread that no longer waits).
  func endWaits(of waiters: [UInt]) {
    lock.withLock { waits.removeAll { waiters.contains($0.waiter) } }
  }

  /// Under the graph's lock: whether the chain from `target` (its holder, what that thread
  /// waits for, its holder…) reaches `waiter`. A chain without a cycle ends within
  /// `waits.count` steps.
  private func chainLeads(from target: Target, to waiter: UInt) -> Bool {
    var thread = holding(target).thread
    for _ in 0...waits.count {
      if thread == 0 { return false }
      if thread == waiter { return true }
      guard let next = waits.first(where: { $0.waiter == thread }) else { return false }
      thread = holding(next.target).thread
    }
    return false
  }

  /// Under the graph's lock: the thread holding `target`, by ``holder`` (`named`) or else by
  /// the holdings a waiting thread registered; 0 when neither knows.
  private func holding(_ target: Target) -> (thread: UInt, named: Bool) {
    let thread = holder(target)
    if thread != 0 { return (thread, true) }
    return (waits.first { $0.holds.contains(target) }?.waiter ?? 0, false)
  }
}

/// A cycle of waits none of which can be given up (see
/// ``WaitForGraph/unconditionalCycle(through:)``). A target is unnamed when ``WaitForGraph``'s
/// `holder` names no thread for it and its holder is known only from the holdings it
/// registered with its own wait.
struct UnconditionalCycle {
  /// The target the asking thread waits for is unnamed.
  var ownTargetIsUnnamed: Bool
  /// Some target in the cycle is unnamed.
  var someTargetIsUnnamed: Bool
}

/// What a thread of the shared wait-for graph waits for.
enum WaitTarget: Equatable {
  /// A derived value's compute lock, held by the thread refreshing the value (alive while its
  /// reader waits).
  case derivedValue(Unmanaged<DerivedNode>)
  /// The end of an ``AnyCancellable``'s action, held by the thread running it.
  case cancellation(runner: UInt)
}

extension WaitTarget {
  static func == (lhs: WaitTarget, rhs: WaitTarget) -> Bool {
    switch (lhs, rhs) {
    case (.derivedValue(let one), .derivedValue(let other)): one.toOpaque() == other.toOpaque()
    case (.cancellation(let one), .cancellation(let other)): one == other
    default: false
    }
  }
}

extension WaitForGraph where Target == WaitTarget {
  /// The graph every blocking wait of the library registers in.
  static let shared = WaitForGraph<WaitTarget> { target in
    switch target {
    case .derivedValue(let node):
      node._withUnsafeGuaranteedRef { $0.refreshingThread.load(ordering: .relaxed) }
    case .cancellation(let runner): runner
    }
  }
}
