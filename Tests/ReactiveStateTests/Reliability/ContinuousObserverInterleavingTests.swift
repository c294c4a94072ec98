import Foundation
import ReactiveState
import Testing

/// Continuous observers under interleavings a review found mishandled, each forced with
/// semaphores or threads joined in order, so every outcome is deterministic. ReactiveState only
/// (Observation has no continuous observers).
@Suite struct ContinuousObserverInterleavingTests {

  /// An observer whose every run writes a property it does not read (another observer reads
  /// it), while another thread changes what it read during each run. The runs never
  /// invalidate themselves, so the rerun limit must not stop the observer, and its last run
  /// sees the last value. The limit used to count every re-run of a run that wrote anything.
  /// `readsOne`: the observer reads one property (it parks in that property's slot).
  @Test(arguments: [false, true])
  func writesOfOtherThreadsDuringRunsDoNotCountTowardTheRerunLimit(readsOne: Bool) {
    let model = HandModel()
    let sink = HandModel()
    let display = observe { _ = sink.c }
    let lastSeen = LockedBox(-1)
    let target = continuousRerunLimit + 50
    var token: ObservationToken?
    let reported = ObservationDiagnostics.capture {
      token = observe {
        let a = model.a
        if !readsOne { _ = model.b }
        lastSeen.value = a
        sink.c = a
        if a < target { onAnotherThread { model.a = a + 1 } }
      }
    }
    #expect(reported.map(\.message) == [])
    #expect(model.a == target)
    #expect(lastSeen.value == target, "the last run saw the last value")
    token?.cancel()
    display.cancel()
  }

  /// Control: a run that changes what it read itself is still stopped at the limit.
  @Test(arguments: [false, true])
  func aRunThatInvalidatesItselfIsStillStopped(readsOne: Bool) {
    let model = HandModel()
    var token: ObservationToken?
    let reported = ObservationDiagnostics.capture {
      token = observe {
        if !readsOne { _ = model.b }
        model.a = model.a + 1
      }
    }
    #expect(reported.count == 1)
    #expect(model.a == continuousRerunLimit + 1)
    token?.cancel()
  }

  /// A first run reads one property (so the observer parks in its slot), the property's
  /// model is deallocated while that run goes on, then the run reads a second property (it
  /// links it). A write of that property while the first run still goes must not start a
  /// second run beside it: the deallocation used to make the parked observer idle.
  @Test func aParkedObserverWhoseModelGoesMidRunNeverRunsTwiceAtOnce() {
    let other = HandModel()
    let holder = WeakHandModel()
    var model: HandModel? = HandModel()
    holder.model = model
    let inBody = LockedBox(0)
    let overlaps = LockedBox(0)
    let runs = LockedBox(0)
    let (readFirst, mayReadSecond, readSecond, written, started) = (
      DispatchSemaphore(value: 0), DispatchSemaphore(value: 0), DispatchSemaphore(value: 0),
      DispatchSemaphore(value: 0), DispatchSemaphore(value: 0)
    )
    let token = LockedBox<ObservationToken?>(nil)
    Thread.detachNewThread {
      token.value = observe {
        runs.value += 1
        let isFirst = runs.value == 1
        inBody.value += 1
        if inBody.value > 1 { overlaps.value += 1 }
        _ = holder.model?.a
        if isFirst {
          readFirst.signal()
          mayReadSecond.wait()
        }
        _ = other.b
        if isFirst {
          readSecond.signal()
          written.wait()
        }
        inBody.value -= 1
      }
      started.signal()
    }
    readFirst.wait()
    model = nil
    #expect(holder.model == nil)
    mayReadSecond.signal()
    readSecond.wait()
    other.b = 1
    written.signal()
    started.wait()
    #expect(overlaps.value == 0)
    token.value?.cancel()
  }

  /// A running observer is marked dirty by a change that reaches it only through a
  /// `Computed`, so before running again it pulls that value (the equality cut-off), which
  /// runs the computation. A `cancel()` that returns during that computation must keep the
  /// body from starting again.
  @Test func noRunStartsAfterACancelThatReturnedDuringAPullOfADerivedValue() {
    let model = HandModel()
    let computations = LockedBox(0)
    let computing = DispatchSemaphore(value: 0)
    let proceed = DispatchSemaphore(value: 0)
    let doubled = Computed { () -> Int in
      let a = model.a
      computations.value += 1
      if computations.value == 2 {  // the pull before the re-run
        computing.signal()
        proceed.wait()
      }
      return a * 2
    }
    let cancelReturned = LockedBox(false)
    let startsAfterCancel = LockedBox(0)
    let runs = LockedBox(0)
    let (inSecondRun, secondRunMayEnd, writerDone) = (
      DispatchSemaphore(value: 0), DispatchSemaphore(value: 0), DispatchSemaphore(value: 0)
    )
    let token = observe {
      if cancelReturned.value { startsAfterCancel.value += 1 }
      runs.value += 1
      let run = runs.value
      _ = doubled.value
      _ = model.b
      if run == 2 {
        inSecondRun.signal()
        secondRunMayEnd.wait()
      }
    }
    Thread.detachNewThread {
      model.b = 1  // the second run, on this thread
      writerDone.signal()
    }
    inSecondRun.wait()
    model.a = 1  // reaches the running observer through `doubled` only
    secondRunMayEnd.signal()
    computing.wait()
    token.cancel()
    cancelReturned.value = true
    proceed.signal()
    writerDone.wait()
    #expect(startsAfterCancel.value == 0)
    #expect(runs.value == 2)
  }
}
