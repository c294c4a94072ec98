import Dispatch
import Foundation
import ReactiveState
import Testing

/// A registration whose deliveries may be in flight on two threads at once (an SE-0506 event
/// registration: a `willSet` on the writing thread, a `.deinit` on the releasing one) is queued
/// as itself only while no other queue holds it: the second queue takes a separate entry, so
/// neither queue loses the deliveries that follow the registration in it.
@Suite struct DeliveryQueueTwoQueuesTests {
  /// The writing thread is held in the delivery of the registration before `middle`, so its
  /// queue still holds `middle` (and `last` after it); another thread then deallocates an
  /// object `middle` tracks, which queues `middle`'s `.deinit` in that thread's queue.
  @Test func aDeinitQueuedOnAnotherThreadWhileAWillSetQueueHoldsTheRegistrationLosesNothing() {
    let model = HandModel()
    let doomed = LockedBox<HandModel?>(HandModel())
    let holdFirst = LockedBox(true)
    let firstHeld = DispatchSemaphore(value: 0)
    let releaseFirst = DispatchSemaphore(value: 0)
    let middleEvents = LockedBox<[String]>([])
    let lastEvents = LockedBox<[String]>([])
    // Each reads two properties, so none parks in a slot: all three sit in the writer's
    // delivery queue, in this order.
    ReactiveState.withObservationTracking(options: [.willSet]) {
      _ = model.a
      _ = model.c
    } onChange: { _ in
      if holdFirst.value {
        holdFirst.value = false
        firstHeld.signal()
        _ = releaseFirst.wait(timeout: .now() + 60)
      }
    }
    ReactiveState.withObservationTracking(options: [.willSet, .didSet, .deinit]) {
      _ = model.a
      _ = doomed.value?.a
    } onChange: { event in
      middleEvents.value.append("\(event.kind)")
    }
    ReactiveState.withObservationTracking(options: [.willSet]) {
      _ = model.a
      _ = model.c
    } onChange: { event in
      lastEvents.value.append("\(event.kind)")
    }
    let wrote = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      model.a = 1
      wrote.signal()
    }
    #expect(firstHeld.wait(timeout: .now() + 60) == .success)
    // The writer is inside the first registration's delivery; `middle` and `last` still wait
    // in its queue. The `.deinit` is queued and delivered on this other thread meanwhile.
    onAnotherThread { doomed.value = nil }
    #expect(middleEvents.value == ["deinit"])
    releaseFirst.signal()
    #expect(wrote.wait(timeout: .now() + 60) == .success)
    #expect(middleEvents.value == ["deinit", "willSet", "didSet"])
    #expect(lastEvents.value == ["willSet"], "the writer's queue lost the delivery after it")
  }

  /// Stress: a writer's `willSet`/`didSet` deliveries of many registrations race the
  /// deallocation, on another thread, of objects those registrations track. Every registration
  /// hears its mutation's `willSet` and `didSet` once, and the deallocation of its object at
  /// most once (only when it was queued before that `didSet` ended the registration; the two
  /// threads' callbacks may then arrive in either order).
  @Test(arguments: 0..<2)
  func willSetDeliveriesRaceDeinitDeliveriesOnAnotherThread(round: Int) {
    let rounds = 300
    let perRound = 8
    for _ in 0..<rounds {
      let model = HandModel()
      let doomed = LockedBox<[HandModel]>((0..<perRound).map { _ in HandModel() })
      let events = (0..<perRound).map { _ in LockedBox<[String]>([]) }
      for index in 0..<perRound {
        let object = doomed.value[index]
        let box = events[index]
        ReactiveState.withObservationTracking(options: [.willSet, .didSet, .deinit]) {
          _ = model.a
          _ = object.a
        } onChange: { event in
          box.value.append("\(event.kind)")
        }
      }
      let start = DispatchSemaphore(value: 0)
      let done = DispatchSemaphore(value: 0)
      Thread.detachNewThread {
        start.wait()
        model.a = 1
        done.signal()
      }
      Thread.detachNewThread {
        start.wait()
        // One object at a time: each deallocation queues a `.deinit` for its registration.
        for index in 0..<perRound { doomed.value[index] = HandModel() }
        done.signal()
      }
      start.signal()
      start.signal()
      #expect(done.wait(timeout: .now() + 60) == .success)
      #expect(done.wait(timeout: .now() + 60) == .success)
      for box in events {
        let seen = box.value
        #expect(seen.filter { $0 == "willSet" }.count == 1, "\(seen)")
        #expect(seen.filter { $0 == "didSet" }.count == 1, "\(seen)")
        #expect(seen.filter { $0 == "deinit" }.count <= 1, "\(seen)")
      }
    }
  }

  /// What the main-actor body last saw.
  @MainActor final class MainActorRuns {
    var last = (a: -1, b: -1)
  }

  /// Stress: main-thread takeovers of a main-actor run (`observe { @MainActor in … }`) while
  /// another thread's delivery queue still holds that observer, between two plain observers
  /// the writing thread runs. The main thread's queue takes an entry of its own, so the other
  /// thread's queue keeps the plain observer after it: that one sees every value to the last.
  @MainActor @Test(arguments: 0..<4)
  func mainThreadTakeoversRaceAnotherThreadsDeliveryQueue(round: Int) async {
    let model = LockedTriple()
    let runs = MainActorRuns()
    let lastSeen = LockedBox(-1)
    // Linked in this order (each reads two properties, so none parks in a slot): the writer's
    // queue holds `first`, the main-actor observer, then `last`. `first` lingers a little,
    // so the main thread's writes land while the queue still holds the main-actor observer.
    let first = observe {
      _ = model[0]
      _ = model[2]
      var spin = 0
      for i in 0..<2_000 { spin &+= i }
      withExtendedLifetime(spin) {}
    }
    let mainActorObserver = actingAsMainThread {
      observe { @MainActor in runs.last = (model[0], model[1]) }
    }
    let last = observe {
      let a = model[0]
      _ = model[2]
      lastSeen.value = a
    }
    let iterations = 20_000
    let finished = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      for i in 1...iterations { model[0] = i }
      finished.signal()
    }
    var step = 0
    while finished.wait(timeout: .now()) != .success {
      for _ in 0..<20 {
        step += 1
        actingAsMainThread { model[1] = step }
      }
      await Task.yield()
    }
    #expect(lastSeen.value == iterations, "the writer's queue lost the observer after it")
    onAnotherThread { model[0] = iterations + 1 }
    #expect(lastSeen.value == iterations + 1, "the observer after it stopped observing")
    for _ in 0..<10_000 {
      if runs.last == (iterations + 1, step) { break }
      await Task.yield()
    }
    #expect(runs.last == (iterations + 1, step))
    withExtendedLifetime((first, mainActorObserver, last)) {}
  }
}
