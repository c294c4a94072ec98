import Dispatch
import Foundation
import ReactiveState
import Testing

/// Two derived values that read each other, first computed at the same moment on two threads:
/// each thread holds its own value's compute lock and waits for the other's. One thread alone
/// finds itself refreshing the value it reads and reports a cycle; spread over two threads,
/// the same cycle must not become a deadlock — one of the reads fails with
/// `DerivedValueCycle` and a diagnostic, and both threads finish.
@Suite struct CrossThreadCycleTests {
  /// The outcome of one thread's read: the value it got (or -1 when its read failed), and the
  /// diagnostics reported on it.
  struct Outcome: Sendable {
    var value = 0
    var messages: [String] = []
  }

  /// Reads `value` on a new thread; `done` is signalled when that thread ends.
  private func read(
    _ value: Computed<Int>, into outcome: LockedBox<Outcome>, done: DispatchSemaphore
  ) {
    Thread.detachNewThread {
      var result = -1
      let reported = ObservationDiagnostics.capture {
        result = (try? value.get()) ?? -1
      }
      outcome.value = Outcome(value: result, messages: reported.map(\.message))
      done.signal()
    }
  }

  @Test(arguments: 0..<5)
  func twoValuesReadingEachOtherOnTwoThreadsReportACycleInsteadOfDeadlocking(round: Int) {
    let aStarted = DispatchSemaphore(value: 0)
    let bStarted = DispatchSemaphore(value: 0)
    let holderA = LockedBox<Computed<Int>?>(nil)
    let holderB = LockedBox<Computed<Int>?>(nil)
    let firstA = LockedBox(true)
    let firstB = LockedBox(true)
    // Each derivation, on its first computation, waits until the other one has started: both
    // compute locks are held before either reads the other value.
    let a = Computed("CycleA") { () throws -> Int in
      if firstA.value {
        firstA.value = false
        aStarted.signal()
        bStarted.wait()
      }
      return (try holderB.value?.get() ?? 0) + 1
    }
    let b = Computed("CycleB") { () throws -> Int in
      if firstB.value {
        firstB.value = false
        bStarted.signal()
        aStarted.wait()
      }
      return (try holderA.value?.get() ?? 0) + 10
    }
    holderA.value = a
    holderB.value = b
    let outcomeA = LockedBox(Outcome())
    let outcomeB = LockedBox(Outcome())
    let done = DispatchSemaphore(value: 0)
    read(a, into: outcomeA, done: done)
    read(b, into: outcomeB, done: done)
    // A deadlock guard, not a timing expectation: both reads end at once with the fix.
    let finished = [done.wait(timeout: .now() + 60), done.wait(timeout: .now() + 60)]
    #expect(finished == [.success, .success], "the two threads deadlocked")
    guard finished == [.success, .success] else { return }
    let messages = outcomeA.value.messages + outcomeB.value.messages
    #expect(
      messages.contains { $0.contains("waits for a value this thread is computing") },
      "\(messages)")
    // Whichever thread saw the cycle: its read of the other value failed, so its own value is
    // a failure too, and so is the other value, which read it.
    #expect(outcomeA.value.value == -1 && outcomeB.value.value == -1)
    holderA.value = nil
    holderB.value = nil
  }
}
