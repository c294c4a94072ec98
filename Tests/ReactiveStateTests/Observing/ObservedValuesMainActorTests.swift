import Foundation
import ReactiveState
import Testing

/// The calling thread's identity.
private func currentThread() -> UInt { UInt(bitPattern: Int(bitPattern: pthread_self())) }

/// The thread the main actor runs on (on Linux the test harness runs it on a thread of its own,
/// not the process's main thread, so the tests compare with this instead of `isMainThread`).
@MainActor private func mainActorThread() -> UInt { currentThread() }

/// `ObservedValues.onMainActor` / `.onMainActorUntilFinished`: a main-actor closure, evaluated on
/// the main actor whatever task iterates. (`Observations` takes an `@isolated(any)` closure
/// instead; the closure reading a main-actor model directly is what these tests compile.)
@Suite struct ObservedValuesMainActorTests {
  @Test func aConsumerOnAnotherExecutorGetsEveryEvaluationOnTheMainActor() async {
    let screen = await MainActor.run { Screen() }
    let evaluatedOn = LockedBox<[UInt]>([])
    let values = ObservedValues.onMainActor {
      evaluatedOn.value.append(currentThread())
      return screen.title
    }
    let consumer = Task.detached {
      var iterator = values.makeAsyncIterator()
      let first = await iterator.next()
      await MainActor.run { screen.title = "next" }
      let second = await iterator.next()
      return (first, second, currentThread())
    }
    let (first, second, consumerThread) = await consumer.value
    let mainThread = await mainActorThread()
    #expect(first == "start")
    #expect(second == "next")
    #expect(consumerThread != mainThread, "the consumer ran off the main actor")
    #expect(evaluatedOn.value == [mainThread, mainThread])
  }

  @MainActor @Test func aMainActorConsumerEvaluatesInPlace() async {
    let screen = Screen()
    let evaluatedOn = LockedBox<[UInt]>([])
    var iterator = ObservedValues.onMainActor {
      evaluatedOn.value.append(currentThread())
      return screen.title
    }.makeAsyncIterator()
    #expect(await iterator.next() == "start")
    screen.title = "a"
    screen.title = "b"
    #expect(await iterator.next() == "b", "a burst coalesces, as for the nonisolated form")
    #expect(evaluatedOn.value == [mainActorThread(), mainActorThread()])
  }

  @Test func untilFinishedAndRemovingDuplicatesKeepTheMainActor() async {
    let screen = await MainActor.run { Screen() }
    let evaluatedOn = LockedBox<[UInt]>([])
    let values = ObservedValues<String, Never>.onMainActorUntilFinished {
      evaluatedOn.value.append(currentThread())
      return screen.title == "done" ? .finish : .next(screen.title)
    }.removingDuplicates()
    let consumer = Task.detached {
      var seen: [String] = []
      var iterator = values.makeAsyncIterator()
      seen.append(await iterator.next() ?? "nil")
      await MainActor.run { screen.title = "start" }  // an equal value: skipped
      await MainActor.run { screen.title = "x" }
      seen.append(await iterator.next() ?? "nil")
      await MainActor.run { screen.title = "done" }
      seen.append(await iterator.next() ?? "nil")
      return seen
    }
    #expect(await consumer.value == ["start", "x", "nil"])
    let mainThread = await mainActorThread()
    #expect(!evaluatedOn.value.isEmpty)
    #expect(evaluatedOn.value.allSatisfy { $0 == mainThread })
  }
}
