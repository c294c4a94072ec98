import Foundation
import ReactiveState
import Testing

/// `ObservedValues.onMainActor` / `.onMainActorUntilFinished`: a main-actor closure, evaluated on
/// the main actor whatever task iterates. (`Observations` takes an `@isolated(any)` closure
/// instead; the closure reading a main-actor model directly is what these tests compile.)
@Suite struct ObservedValuesMainActorTests {
  @Test func aConsumerOnAnotherExecutorGetsEveryEvaluationOnTheMainActor() async {
    let screen = await MainActor.run { Screen() }
    let evaluatedOn = LockedBox<[Bool]>([])
    let values = ObservedValues.onMainActor {
      evaluatedOn.value.append(isOnMainActorQueue)
      return screen.title
    }
    let consumer = Task.detached {
      var iterator = values.makeAsyncIterator()
      let first = await iterator.next()
      await MainActor.run { screen.title = "next" }
      let second = await iterator.next()
      return (first, second, isOnMainActorQueue)
    }
    let (first, second, consumerOnMainActor) = await consumer.value
    #expect(first == "start")
    #expect(second == "next")
    #expect(!consumerOnMainActor, "the consumer ran off the main actor")
    #expect(evaluatedOn.value == [true, true], "both evaluations ran on the main actor")
  }

  @MainActor @Test func aMainActorConsumerEvaluatesInPlace() async {
    let screen = Screen()
    let evaluatedOn = LockedBox<[Bool]>([])
    var iterator = ObservedValues.onMainActor {
      evaluatedOn.value.append(isOnMainActorQueue)
      return screen.title
    }.makeAsyncIterator()
    #expect(await iterator.next() == "start")
    screen.title = "a"
    screen.title = "b"
    #expect(await iterator.next() == "b", "a burst coalesces, as for the nonisolated form")
    #expect(evaluatedOn.value == [true, true])
  }

  @Test func untilFinishedAndRemovingDuplicatesKeepTheMainActor() async {
    let screen = await MainActor.run { Screen() }
    let evaluatedOn = LockedBox<[Bool]>([])
    let values = ObservedValues<String, Never>.onMainActorUntilFinished {
      evaluatedOn.value.append(isOnMainActorQueue)
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
    #expect(!evaluatedOn.value.isEmpty)
    #expect(evaluatedOn.value.allSatisfy { $0 }, "every evaluation ran on the main actor")
  }
}
