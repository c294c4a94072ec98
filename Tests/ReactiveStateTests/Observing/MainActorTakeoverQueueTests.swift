import Dispatch
import Foundation
import ReactiveState
import Testing

/// A main-thread takeover of a main-actor run (`observe { @MainActor in … }`) while the
/// change that queued that run is still being delivered on another thread: the observer then
/// sits in that thread's delivery queue, and the main thread's change queues it in its own.
/// Neither queue may lose (or steal) the deliveries of the other observers in it.
@Suite struct MainActorTakeoverQueueTests {
  /// What each run of the main-actor body saw.
  @MainActor final class Runs {
    var seen: [String] = []
  }

  @MainActor @Test
  func aTakeoverDuringAnotherThreadsDeliveryLosesNoOtherObserversRun() async {
    let model = HandModel()
    let runs = Runs()
    let holdFirst = LockedBox(false)
    let firstHeld = DispatchSemaphore(value: 0)
    let releaseFirst = DispatchSemaphore(value: 0)
    let lastSeen = LockedBox<[Int]>([])
    // Three observers of `a`, linked in this order (each reads two properties, so none
    // parks in a slot): a plain one that can hold the writing thread inside its delivery, the
    // main-actor one, and a plain one after it in the same delivery queue.
    let first = observe {
      let a = model.a
      _ = model.c
      if a == 1 && holdFirst.value {
        holdFirst.value = false
        firstHeld.signal()
        _ = releaseFirst.wait(timeout: .now() + 60)
      }
    }
    let mainActorObserver = actingAsMainThread {
      observe { @MainActor in runs.seen.append("a=\(model.a) b=\(model.b)") }
    }
    let last = observe {
      let a = model.a
      _ = model.c
      lastSeen.value.append(a)
    }
    holdFirst.value = true
    let wrote = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      model.a = 1  // queues the main-actor run (a hop) and runs the plain ones here, in order
      wrote.signal()
    }
    #expect(firstHeld.wait(timeout: .now() + 60) == .success)
    // The writing thread is inside the first observer's run; the main-actor observer and the
    // last one still wait in its delivery queue. A main-thread change takes the run over.
    actingAsMainThread { model.b = 1 }
    #expect(runs.seen == ["a=0 b=0", "a=1 b=1"])
    releaseFirst.signal()
    #expect(wrote.wait(timeout: .now() + 60) == .success)
    #expect(lastSeen.value == [0, 1], "the last observer's run was lost")
    // And it still observes.
    onAnotherThread { model.a = 2 }
    #expect(lastSeen.value.last == 2, "the last observer stopped observing")
    for _ in 0..<100 { await Task.yield() }
    withExtendedLifetime((first, mainActorObserver, last)) {}
  }
}
