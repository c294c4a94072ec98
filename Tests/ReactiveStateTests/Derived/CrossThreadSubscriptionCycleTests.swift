import Dispatch
import Foundation
import Testing

// `@testable` to wait until a thread blocks (the wait-for graph) instead of sleeping.
@testable import ReactiveState

/// A cycle of threads closed by a subscription: a thread that subscribes a derived value to
/// its inputs holds that value's compute lock (its refresh over) while it takes each derived
/// input's lock. When the input is held by a thread whose computation reads the first value,
/// each waits for the other. Subscribing cannot fail, so the reading thread must see the cycle
/// and give up its read with `DerivedValueCycle` — even when it began waiting first. A cycle
/// of subscriptions alone has no read to fail: one subscription goes on without the value
/// another thread holds, and reports the cycle.
@Suite struct CrossThreadSubscriptionCycleTests {
  /// `A = B + C`, `B` reads `A` once `m.a == 1` (else `m.b`), `C` reads `m.c`. Thread 1 reads
  /// `A` in a tracking scope: `A`'s check finds `B` unchanged, then recomputes `C` (paused
  /// there), settles, and subscribes upstream — where it needs `B`'s lock. Thread 2 holds `B`
  /// (paused in its derivation, which then reads `A`). `firstWaiter` picks which thread
  /// starts waiting first: thread 2 for `A`, or thread 1 for `B`.
  @Test(arguments: [2, 1])
  func aSubscriptionWaitingForAValueWhoseComputationReadsItEndsWithACycle(firstWaiter: Int) throws {
    let m = HandModel()
    let holderA = LockedBox<Computed<Int>?>(nil)
    let pauseB = Pause()
    let pauseC = Pause()
    let b = Computed("SubscriptionCycleB") { () throws -> Int in
      guard m.a == 1 else { return m.b }
      pauseB.passIfArmed()
      return (try holderA.value?.get() ?? 0) + 1
    }
    let c = Computed("SubscriptionCycleC") { () -> Int in
      pauseC.passIfArmed()
      return m.c > 100 ? 1 : 0
    }
    let a = Computed("SubscriptionCycleA") { () throws -> Int in try b.get() + c.value }
    holderA.value = a
    // Read unobserved: none of the three is linked to its inputs.
    #expect((try? a.get()) == 0)
    m.c = 5  // `C` recomputes, to an equal value, during `A`'s next check
    pauseC.arm()
    let done = DispatchSemaphore(value: 0)
    let reports = LockedBox<[String]>([])
    Thread.detachNewThread {
      let reported = ObservationDiagnostics.capture {
        withObservationTracking {
          _ = try? a.get()
        } onChange: {
        }
      }
      reports.value += reported.map(\.message)
      done.signal()
    }
    pauseC.waitUntilReached()  // thread 1 is inside `C`; `B` was checked and released
    m.a = 1
    pauseB.arm()
    let readOfB = LockedBox<Int?>(nil)
    Thread.detachNewThread {
      let reported = ObservationDiagnostics.capture { readOfB.value = try? b.get() }
      reports.value += reported.map(\.message)
      done.signal()
    }
    pauseB.waitUntilReached()  // thread 2 holds `B`'s compute lock
    if firstWaiter == 2 {
      pauseB.release()  // thread 2 waits for `A`, held by thread 1 (paused in `C`)
      waitUntilAThreadWaits(for: a)
      pauseC.release()  // thread 1 settles `A`, then waits for `B` while subscribing
    } else {
      pauseC.release()  // thread 1 settles `A`, then waits for `B` while subscribing
      waitUntilAThreadWaits(for: b)
      pauseB.release()  // thread 2 reads `A`, held by thread 1
    }
    // A deadlock guard, not a timing expectation.
    let finished = [done.wait(timeout: .now() + 60), done.wait(timeout: .now() + 60)]
    #expect(finished == [.success, .success], "the two threads deadlocked")
    guard finished == [.success, .success] else { return }
    // Thread 2's read of `A` failed: `B`'s derivation threw, and so did its read.
    #expect(readOfB.value == nil)
    #expect(
      reports.value.contains {
        $0.contains("SubscriptionCycleA is being computed on another thread that waits")
      }, "\(reports.value)")
    // The cycle is gone once `m.a` changes: every value is computed again, consistently.
    m.a = 0
    m.b = 7
    #expect(try b.get() == 7)
    #expect(try a.get() == 7)
  }

  /// A cycle made only of subscriptions: `A = B + C` and `B` reads `A` (recorded by the
  /// cycle that read reported), `X = B + D`. Thread 2 refreshes `X` for an observer — its
  /// check takes `B`, then `A`, and releases both — and stops in `D`. Thread 1 refreshes `A`
  /// for an observer — its check takes `B` and releases it — and stops in `C`. Thread 2 goes
  /// on: it subscribes `X`'s upstream, takes `B` and waits for `A`. Thread 1 goes on: it
  /// subscribes `A`'s upstream and waits for `B`. Neither wait can be given up as a read's
  /// can; one of them must pass over the value the other holds, which that thread
  /// subscribes itself, and report the cycle.
  @Test func aCycleOfTwoSubscriptionsOnTwoThreadsEndsWithADiagnostic() throws {
    let m = HandModel()
    let n = HandModel()
    let holderA = LockedBox<Computed<Int>?>(nil)
    let pauseC = Pause()
    let pauseD = Pause()
    m.a = 1
    let b = Computed("SubscriptionsCycleB") { () -> Int in
      guard m.a == 1 else { return m.b }
      return (try? holderA.value?.get()) ?? -1
    }
    let c = Computed("SubscriptionsCycleC") { () -> Int in
      pauseC.passIfArmed()
      return m.c > 100 ? 1 : 0
    }
    let d = Computed("SubscriptionsCycleD") { () -> Int in
      pauseD.passIfArmed()
      return n.c > 100 ? 1 : 0
    }
    let a = Computed("SubscriptionsCycleA") { b.value + c.value }
    let x = Computed("SubscriptionsCycleX") { b.value + d.value }
    holderA.value = a
    // Unobserved reads, on this thread: `B`'s read of `A` is a cycle (reported), recorded as
    // its input; nothing is linked.
    _ = ObservationDiagnostics.capture {
      #expect(a.value == -1)
      #expect(x.value == -1)
    }
    n.c = 5  // `D` recomputes, to an equal value, during `X`'s next check
    pauseD.arm()
    let done = DispatchSemaphore(value: 0)
    let reports = LockedBox<[String]>([])
    let changed = LockedBox<Set<String>>([])
    /// On a thread of its own: one-shot tracking of `value`, its diagnostics in `reports`.
    func observeOnAnotherThread(_ value: Computed<Int>, named label: String) {
      Thread.detachNewThread {
        let reported = ObservationDiagnostics.capture {
          withObservationTracking {
            _ = value.value
          } onChange: {
            changed.value.insert(label)
          }
        }
        reports.value += reported.map(\.message)
        done.signal()
      }
    }
    observeOnAnotherThread(x, named: "X")  // thread 2
    pauseD.waitUntilReached()  // thread 2 holds `X` only: `B` and `A` were checked
    m.c = 5  // `C` recomputes, to an equal value, during `A`'s next check
    pauseC.arm()
    observeOnAnotherThread(a, named: "A")  // thread 1
    pauseC.waitUntilReached()  // thread 1 holds `A`; `B` was checked and released
    pauseD.release()  // thread 2 settles `X`, takes `B` while subscribing, waits for `A`
    waitUntilAThreadWaits(for: a)
    pauseC.release()  // thread 1 settles `A`, then waits for `B` while subscribing
    // A deadlock guard, not a timing expectation.
    let finished = [done.wait(timeout: .now() + 60), done.wait(timeout: .now() + 60)]
    #expect(finished == [.success, .success], "the two subscriptions deadlocked")
    guard finished == [.success, .success] else { return }
    // One thread passed over the value the other held on its subscription's stack, which that
    // thread subscribed (the other's wait then ended).
    let passedOver = reports.value.filter { $0.contains("subscribed on several threads") }
    #expect(!passedOver.isEmpty, "\(reports.value)")
    #expect(passedOver.allSatisfy { $0.contains("which that thread subscribes") }, "\(passedOver)")
    // Every value was subscribed, the one passed over by its holder: a change of `C` reaches
    // `A`'s observer, and `X`'s through `A` and `B`.
    m.c = 200
    #expect(changed.value == ["A", "X"])
    // Once the cycle is gone, every value is computed again, consistently.
    m.a = 0
    m.b = 7
    #expect(b.value == 7)
    #expect(a.value == 8)
    #expect(x.value == 7)
  }
}

/// Returns once a thread has registered its wait for `value`'s compute lock.
private func waitUntilAThreadWaits<Value>(for value: Computed<Value>) {
  let target = WaitTarget.derivedValue(.passUnretained(value.node))
  while !WaitForGraph.shared.hasWait(for: target) { Thread.sleep(forTimeInterval: 0.001) }
}

/// A point in a derivation where its thread, once armed, stops until released.
private final class Pause: @unchecked Sendable {
  private let armed = LockedBox(false)
  private let reached = DispatchSemaphore(value: 0)
  private let go = DispatchSemaphore(value: 0)

  /// The next pass stops.
  func arm() { armed.value = true }

  /// Called from the derivation: stops here if armed (once).
  func passIfArmed() {
    guard armed.value else { return }
    armed.value = false
    reached.signal()
    go.wait()
  }

  /// Waits until a thread stopped here.
  func waitUntilReached() { reached.wait() }

  /// Lets the stopped thread go on.
  func release() { go.signal() }
}
