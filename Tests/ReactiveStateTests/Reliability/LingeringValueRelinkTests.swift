import Foundation
import ReactiveState
import Testing

/// A lingering derived value (its last observer gone, still linked upstream for a while) read
/// lock-free by a new observer just as another thread's write ends the lingering. Found by a
/// review; forced with the unoptimised-build hook `pauseLockFreeReadsAfterTheirCheck`.
@Suite(.serialized) struct LingeringValueRelinkTests {
  /// The observer, on a worker thread, reads the orphan `shifted = model[0] / 10 + 100`
  /// lock-free (current, still linked); held there, it waits while `model[0] = 2` ends the
  /// lingering and drops the upstream links, then links itself. `writeDuringRelink`: another
  /// thread writes `model[0] = 10` while the observer's check recomputes `tens`, after `tens`
  /// read the model and before the links are back (the write reaches nobody). Returns what the
  /// observer saw after that, then after `model[0] = 20`.
  static func observeAsLingeringEnds(writeDuringRelink: Bool) -> (Int?, Int?) {
    let chain = HookedTensChain()
    let (model, duringTens, shifted) = (chain.model, chain.duringTens, chain.shifted)
    // Subscribe the chain, then orphan it: it lingers through two changes of its inputs.
    observe { _ = shifted.value }.cancel()
    model[0] = 1  // first change: `tens` recomputes equal
    #expect(shifted.value == 100)  // checked, current again, still linked: lock-free readable
    let (inRead, resume) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
    let armed = LockedBox(true)
    let observerThread = LockedBox<UInt>(0)
    pauseLockFreeReadsAfterTheirCheck {
      guard currentThreadID() == observerThread.value, armed.value else { return }
      armed.value = false
      inRead.signal()
      resume.wait()
    }
    defer { pauseLockFreeReadsAfterTheirCheck(nil) }
    let seen = LockedBox<[Int]>([])
    let token = LockedBox<ObservationToken?>(nil)
    let worker = WorkerThread()
    worker.run {
      observerThread.value = currentThreadID()
      token.value = observe { seen.value.append(shifted.value) }
    }
    #expect(inRead.wait(timeout: .now() + 10) == .success)
    model[0] = 2  // second change: the lingering ends, the upstream links go
    if writeDuringRelink { duringTens.value = { onAnotherThread { model[0] = 10 } } }
    resume.signal()
    worker.wait()
    worker.stop()
    #expect(duringTens.value == nil || !writeDuringRelink, "the hook ran")
    if !writeDuringRelink {
      #expect(seen.value.last == 100)
      model[0] = 10  // tens: 0 -> 1
    }
    let afterTen = seen.value.last
    model[0] = 20  // tens: 1 -> 2
    defer { token.value?.cancel() }
    return (afterTen, seen.value.last)
  }

  /// The observer's link sees the value stale (a missed change): its re-run pulls the value,
  /// which settled unchanged and stayed unlinked with the observer subscribed, so later
  /// changes of its inputs never reached the observer. The pull relinks it now.
  @Test func anObserverLinkingALingeringValueAsItsLingeringEndsKeepsHearingChanges() {
    let (afterTen, afterTwenty) = Self.observeAsLingeringEnds(writeDuringRelink: false)
    #expect(afterTen == 101, "the observer no longer hears changes of the value")
    #expect(afterTwenty == 102, "the observer no longer hears changes of the value")
  }

  /// The write made while the links were down is found by the relink (the value is stale
  /// again): the pull refreshes once more, so the observer sees it and keeps hearing changes.
  @Test func aWriteWhileALingeringValueIsRelinkedReachesTheObserver() {
    let (afterTen, afterTwenty) = Self.observeAsLingeringEnds(writeDuringRelink: true)
    #expect(afterTen == 101, "the observer missed the write made during the relink")
    #expect(afterTwenty == 102, "the observer no longer hears changes of the value")
  }
}
