import Foundation
import ReactiveState
import Testing

/// Review of the refresh protocol (37dd7cc, da98806): a refresh writes nothing when it starts
/// and publishes with a compare-exchange from `stale`; a walk that finds the node stale and
/// its compute lock held marks `changedWhileLocked` so that publication fails.
@Suite(.serialized) struct RefreshProtocolReviewTests {
  /// A recomputation that started without subscribers (so it links nothing) finds one at its
  /// end (an observer linked meanwhile) and relinks the node's inputs from inside the
  /// refresh. Unchanged, the relink published the node as current; a write landing before the
  /// refresh's own publication then found it current, marked it stale with a plain store and
  /// walked on — and the refresh's compare-exchange from `stale` succeeded (stale → current →
  /// stale → current), publishing the value from before that write as current. The next read
  /// (lock-free) returned it, and nothing would mark the node stale until another write.
  ///
  /// Forced with the unoptimised-build hooks: the observer, on a worker thread, is held after
  /// its lock-free check of the (lingering, current) value, so it links to the value only
  /// while another thread recomputes it (held inside its derivation); that recomputation is
  /// then held just before its publication while the write lands.
  @Test func aRelinkInsideARecomputationDoesNotLetALaterWriteBeLost() {
    let model = HandModel()
    let pauseInside = LockedBox<(() -> Void)?>(nil)
    let doubled = Computed("doubled") { () -> Int in
      let value = model.a
      if let pause = pauseInside.value {
        pauseInside.value = nil
        pause()
      }
      return value * 2
    }
    // Subscribed, then orphaned: linked upstream (lingering), current, lock-free readable.
    observe { _ = doubled.value }.cancel()
    #expect(doubled.value == 0)
    let refresherThread = LockedBox<UInt>(0)
    let observerThread = LockedBox<UInt>(0)
    let inDerivation = DispatchSemaphore(value: 0)
    let finishDerivation = DispatchSemaphore(value: 0)
    let (beforePublishing, publish) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
    let (inRead, finishRead) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
    let refreshed = DispatchSemaphore(value: 0)
    let armedPublish = LockedBox(true)
    let armedRead = LockedBox(true)
    pauseRecomputationsBeforePublishing {
      guard currentThreadID() == refresherThread.value, armedPublish.value else { return }
      armedPublish.value = false
      beforePublishing.signal()
      _ = publish.wait(timeout: .now() + 10)
    }
    defer { pauseRecomputationsBeforePublishing(nil) }
    pauseLockFreeReadsAfterTheirCheck {
      guard currentThreadID() == observerThread.value, armedRead.value else { return }
      armedRead.value = false
      inRead.signal()
      _ = finishRead.wait(timeout: .now() + 10)
    }
    defer { pauseLockFreeReadsAfterTheirCheck(nil) }
    let token = LockedBox<ObservationToken?>(nil)
    let worker = WorkerThread()
    worker.run {
      observerThread.value = currentThreadID()
      token.value = observe(scheduler: ManualScheduler()) { _ = doubled.value }
    }
    #expect(inRead.wait(timeout: .now() + 10) == .success)
    model.a = 1  // stale; nobody subscribes yet, so the walk stops at the value
    // Another thread recomputes it with no subscriber: the computation links nothing.
    pauseInside.value = {
      inDerivation.signal()
      _ = finishDerivation.wait(timeout: .now() + 10)
    }
    Thread.detachNewThread {
      refresherThread.value = currentThreadID()
      _ = doubled.value
      refreshed.signal()
    }
    #expect(inDerivation.wait(timeout: .now() + 10) == .success)
    // The observer records its read and links to the value being recomputed (a missed
    // change: its re-run waits for the compute lock).
    finishRead.signal()
    let deadline = Date().addingTimeInterval(10)
    while didSetListenerCount(of: doubled) == 0 && Date() < deadline { usleep(1000) }
    #expect(didSetListenerCount(of: doubled) == 1, "the observer linked")
    // The computation ends, finds the subscriber and relinks the inputs (unchanged).
    finishDerivation.signal()
    #expect(beforePublishing.wait(timeout: .now() + 10) == .success)
    model.a = 2  // lands after the relink, before the refresh publishes
    publish.signal()
    #expect(refreshed.wait(timeout: .now() + 10) == .success)
    worker.wait()
    worker.stop()
    #expect(doubled.value == 4, "the value from before the write was published as current")
    token.value?.cancel()
  }
}
