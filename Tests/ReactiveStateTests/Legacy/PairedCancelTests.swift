import Dispatch
import Foundation
import ReactiveState
import Testing

/// Two tokens that cancel each other (a pair of subscriptions torn down together, whichever
/// side ends first), cancelled at the same moment on two threads. Each thread runs one
/// token's action, which cancels the other token — whose action the other thread is running.
/// Waiting there for it to finish (as a second concurrent `cancel()` does) would make each
/// thread wait for the other forever: such a call must return instead.
@Suite struct PairedCancelTests {
  @Test(arguments: 0..<5)
  func twoTokensCancellingEachOtherOnTwoThreadsDoNotDeadlock(round: Int) {
    let publisher = ObservableObjectPublisher()
    let received = LockedBox(0)
    let inner = [publisher.sink { received.value += 1 }, publisher.sink { received.value += 1 }]
    let holders = [LockedBox<AnyCancellable?>(nil), LockedBox<AnyCancellable?>(nil)]
    let started = [DispatchSemaphore(value: 0), DispatchSemaphore(value: 0)]
    // Each action waits until both have started, so both run when they cancel each other.
    let tokens = (0..<2).map { side in
      AnyCancellable {
        started[side].signal()
        _ = started[1 - side].wait(timeout: .now() + 60)
        started[1 - side].signal()
        inner[side].cancel()
        holders[1 - side].value?.cancel()
      }
    }
    holders[0].value = tokens[0]
    holders[1].value = tokens[1]
    let done = DispatchSemaphore(value: 0)
    for side in 0..<2 {
      Thread.detachNewThread {
        tokens[side].cancel()
        done.signal()
      }
    }
    // A deadlock guard, not a timing expectation.
    let finished = [done.wait(timeout: .now() + 60), done.wait(timeout: .now() + 60)]
    #expect(finished == [.success, .success], "the two cancellations deadlocked")
    guard finished == [.success, .success] else { return }
    publisher.send()
    #expect(received.value == 0)
    holders[0].value = nil
    holders[1].value = nil
  }
}
