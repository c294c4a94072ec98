import Foundation
import ReactiveState
import Testing

/// Derived values under threads while observers come and go: subscribing a derived chain to
/// its inputs, dropping it when its last observer leaves (possibly while another thread holds
/// a node's compute lock, which defers the drop to that holder), and recomputing — all at
/// once. Whatever the interleaving, a value read or observed afterwards is the current one,
/// and an observer that is subscribed when a write lands sees it.
@Suite struct DerivedConcurrencyTests {
  @Test func observersComingAndGoingNeverLeaveAStaleChain() {
    let rounds = Reliability.count("REACTIVESTATE_DERIVED_ROUNDS", default: 20_000)
    let model = LockedPair()
    let sum = Computed {
      let (a, b) = model.both
      return a + b
    }
    let doubled = Computed { sum.value * 2 }
    let churners = (0..<2).map { _ in WorkerThread() }
    let writer = WorkerThread()
    let inconsistent = AtomicCounter()
    for churner in churners {
      churner.run {
        for _ in 0..<rounds {
          // Subscribe (links the chain), read, unsubscribe (may orphan it).
          let token = observe {
            if doubled.value % 4 != 0 { inconsistent.increment() }
          }
          token.cancel()
          if doubled.value % 4 != 0 { inconsistent.increment() }
        }
      }
    }
    writer.run {
      for value in 1...rounds { model.set(value) }
    }
    for worker in churners + [writer] {
      worker.wait()
      worker.stop()
    }
    #expect(inconsistent.value == 0, "a+b read as a mix of two writes")
    #expect(doubled.value == 4 * rounds, "unobserved: validated by version")

    let seen = AtomicCounter()
    let token = observe { if doubled.value == 4 * (rounds + 1) { seen.increment() } }
    model.set(rounds + 1)
    #expect(seen.value == 1, "a chain subscribed again after the churn sees the next write")
    withExtendedLifetime(token) {}
  }
}
