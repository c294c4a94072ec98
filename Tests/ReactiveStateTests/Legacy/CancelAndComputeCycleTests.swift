import Dispatch
import Foundation
import ReactiveState
import Testing

/// A wait cycle through two kinds of waits: one thread runs a token's cancel action, which
/// reads a derived value another thread is computing; that derivation cancels the same token.
/// The reader waits for the value's compute lock, the derivation for the action's run. Each
/// kind of wait detects cycles among its own kind, so both must share one wait-for graph to
/// see this one: one of the two waits gives up (the `cancel()` returns at once, or the read
/// reports the cycle) instead of both threads waiting forever.
@Suite struct CancelAndComputeCycleTests {
  @Test(arguments: 0..<3)
  func aCancelActionReadingAValueWhoseDerivationCancelsItDoesNotDeadlock(round: Int) {
    let model = HandModel()
    let token = LockedBox<AnyCancellable?>(nil)
    let derivationStarted = DispatchSemaphore(value: 0)
    let actionStarted = DispatchSemaphore(value: 0)
    let cancelsInDerivation = LockedBox(true)
    let value = Computed {
      if cancelsInDerivation.value {
        derivationStarted.signal()
        _ = actionStarted.wait(timeout: .now() + 60)
        // Let the action's thread reach the compute lock and wait there.
        Thread.sleep(forTimeInterval: 0.05)
        token.value?.cancel()
      }
      return model.a
    }
    token.value = AnyCancellable {
      actionStarted.signal()
      _ = value.value
    }
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      _ = value.value
      done.signal()
    }
    #expect(derivationStarted.wait(timeout: .now() + 60) == .success)
    Thread.detachNewThread {
      token.value?.cancel()
      done.signal()
    }
    // A deadlock guard, not a timing expectation.
    let finished = [done.wait(timeout: .now() + 20), done.wait(timeout: .now() + 20)]
    #expect(finished == [.success, .success], "the cancellation and the computation deadlocked")
    guard finished == [.success, .success] else { return }
    cancelsInDerivation.value = false
    model.a = 1
    #expect(value.value == 1, "the value still computes afterwards")
  }
}
