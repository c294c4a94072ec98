import Foundation
import ReactiveState
import Testing

/// `AnyCancellable.cancel()` called on one token from two threads at once. Its contract: "after
/// it returns, the subscription receives no further values that start afterwards". The second
/// caller used to find the action already taken and return at once, while the first caller was
/// still running it, so a value sent after the second `cancel()` returned was still delivered.
@Suite struct ConcurrentCancelTests {
  /// The first `cancel()` is held inside its action (a wrapped cancellation that takes a while);
  /// a second `cancel()` on another thread, then a `send()` there, must not reach the
  /// subscriber: the second call returns only once the cancellation has completed.
  @Test func aSecondConcurrentCancelReturnsOnlyAfterTheCancellationCompleted() {
    let publisher = ObservableObjectPublisher()
    let received = LockedBox(0)
    let inner = publisher.sink { received.value += 1 }
    let actionStarted = DispatchSemaphore(value: 0)
    let proceed = DispatchSemaphore(value: 0)
    let token = AnyCancellable {
      actionStarted.signal()
      proceed.wait()
      inner.cancel()
    }
    let firstDone = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      token.cancel()
      firstDone.signal()
    }
    actionStarted.wait()
    let secondDone = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      token.cancel()
      // A value that starts after this caller's `cancel()` returned.
      publisher.send()
      secondDone.signal()
    }
    // The action goes on only once the second caller waits for it, or has returned.
    var secondReturnedEarly = false
    while waitingCancelCallers(of: token) == 0 {
      if secondDone.wait(timeout: .now()) == .success {
        secondReturnedEarly = true
        break
      }
      Thread.sleep(forTimeInterval: 0.001)
    }
    proceed.signal()
    firstDone.wait()
    if !secondReturnedEarly { secondDone.wait() }
    #expect(!secondReturnedEarly, "the second cancel() returned while the first was running")
    #expect(received.value == 0, "a value sent after cancel() returned was delivered")
  }

  /// The cancellation action may cancel its own token again (directly, or through a deinit
  /// that the release of a subscriber closure runs): that nested call returns at once.
  @Test func aCancelFromInsideTheActionDoesNotWaitForItself() {
    let runs = LockedBox(0)
    let holder = LockedBox<AnyCancellable?>(nil)
    let token = AnyCancellable {
      runs.value += 1
      holder.value?.cancel()
    }
    holder.value = token
    onAnotherThread { token.cancel() }
    #expect(runs.value == 1)
    holder.value = nil
  }

  /// The same re-entrancy through a real subscription: the subscriber closure owns an object
  /// whose deinit cancels the token that is being cancelled (its release runs inside the
  /// cancellation).
  @Test func aDeinitRunByTheCancellationMayCancelTheSameToken() {
    final class Owner: @unchecked Sendable {
      var token: AnyCancellable?
      deinit { token?.cancel() }
    }
    let publisher = ObservableObjectPublisher()
    var owner: Owner? = Owner()
    let token = publisher.sink { [owner] in withExtendedLifetime(owner) {} }
    owner?.token = token
    owner = nil
    onAnotherThread { token.cancel() }
    #expect(publisher.subscriberCount == 0)
  }

  /// Every caller waiting for a running cancellation returns once it completes, not only the
  /// first (the session-41 mutation round: signalling once went unnoticed with one waiter).
  @Test func everyCallerWaitingForARunningCancellationReturns() {
    let started = DispatchSemaphore(value: 0)
    let proceed = DispatchSemaphore(value: 0)
    let token = AnyCancellable {
      started.signal()
      proceed.wait()
    }
    Thread.detachNewThread { token.cancel() }
    started.wait()
    let done = DispatchSemaphore(value: 0)
    for _ in 0..<2 {
      Thread.detachNewThread {
        token.cancel()
        done.signal()
      }
    }
    while waitingCancelCallers(of: token) < 2 { Thread.sleep(forTimeInterval: 0.001) }
    proceed.signal()
    #expect(done.wait(timeout: .now() + 30) == .success)
    #expect(done.wait(timeout: .now() + 30) == .success, "the second waiter returned too")
  }
}
