import Foundation
import ReactiveState
import Testing

/// A lingering derived value (its last observer gone, still linked upstream for a while) read
/// lock-free by a new observer just as another thread's write ends the lingering. Found by a
/// review; forced with the unoptimised-build hook `pauseLockFreeReadsAfterTheirCheck`.
@Suite(.serialized) struct LingeringValueRelinkTests {
  /// A continuous observer reads a lingering orphan lock-free (it is current and still linked)
  /// while another thread's write ends the lingering and drops the orphan's upstream links
  /// before the read links the observer. The observer's link sees the value stale (a missed
  /// change): its re-run pulls the value, which settles unchanged — and stays unlinked with the
  /// observer subscribed. Later changes of its inputs never reach the observer.
  @Test func anObserverLinkingALingeringValueAsItsLingeringEndsKeepsHearingChanges() {
    let model = LockedTriple()
    let tens = Computed("tens", isEqual: ==) { model[0] / 10 }
    let shifted = Computed("shifted", isEqual: ==) { tens.value + 100 }
    // Subscribe the chain, then orphan it: it lingers through two changes of its inputs.
    let first = observe { _ = shifted.value }
    first.cancel()
    model[0] = 1  // first change: `tens` recomputes equal
    #expect(shifted.value == 100)  // checked, current again, still linked: lock-free readable
    let inRead = DispatchSemaphore(value: 0)
    let resume = DispatchSemaphore(value: 0)
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
    resume.signal()
    worker.wait()
    worker.stop()
    #expect(seen.value.last == 100)
    model[0] = 10  // tens: 0 -> 1
    #expect(seen.value.last == 101, "the observer no longer hears changes of the value")
    model[0] = 20  // tens: 1 -> 2
    #expect(seen.value.last == 102, "the observer no longer hears changes of the value")
    token.value?.cancel()
  }

  /// `LingeringValueRelinkTests`' scenario, with one more write: while the observer's check
  /// brings the unlinked value up to date (its input `tens` recomputes, equal), another thread
  /// writes the model, after `tens` read it and before the value's upstream links are back.
  /// That write reaches nobody (nothing is linked yet); the relink then finds the input moved.
  /// The observer must still end up with the current value, and keep hearing changes.
  @Test func aWriteWhileALingeringValueIsRelinkedReachesTheObserver() {
    let model = LockedTriple()
    let duringTens = LockedBox<(() -> Void)?>(nil)
    let tens = Computed("tens", isEqual: ==) { () -> Int in
      let read = model[0]
      if let hook = duringTens.value {
        duringTens.value = nil
        hook()
      }
      return read / 10
    }
    let shifted = Computed("shifted", isEqual: ==) { tens.value + 100 }
    let first = observe { _ = shifted.value }
    first.cancel()
    model[0] = 1
    #expect(shifted.value == 100)
    let inRead = DispatchSemaphore(value: 0)
    let resume = DispatchSemaphore(value: 0)
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
    model[0] = 2  // the lingering ends, the upstream links go
    duringTens.value = { Self.onAnotherThread { model[0] = 10 } }  // tens: 0 -> 1
    resume.signal()
    worker.wait()
    worker.stop()
    #expect(duringTens.value == nil, "the hook ran")
    #expect(model[0] == 10)
    #expect(seen.value.last == 101, "the observer missed the write made during the relink")
    model[0] = 20  // tens: 1 -> 2
    #expect(seen.value.last == 102, "the observer no longer hears changes of the value")
    token.value?.cancel()
  }

  static func onAnotherThread(_ body: @escaping @Sendable () -> Void) {
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      body()
      done.signal()
    }
    done.wait()
  }
}
