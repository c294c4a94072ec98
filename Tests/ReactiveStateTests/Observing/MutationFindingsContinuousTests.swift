import Foundation
import ReactiveState
import Testing

// Continuous-observer behaviour that the second mutation-testing round found unpinned.

@Suite struct MutationFindingsContinuousTests {
  // Pins: a first run's own write of the property it read first, before its second read, runs it again.
  @Test func aSelfWriteBetweenAFirstRunsReadsRunsItAgain() {
    let model = HandModel()
    let seen = Box<[Int]>([])
    let token = observe {
      let a = model.a
      if seen.value.isEmpty { model.a = a + 1 }
      _ = model.b
      seen.value.append(a)
    }
    #expect(seen.value == [0, 1])
    model.a = 5
    #expect(seen.value == [0, 1, 5])
    withExtendedLifetime(token) {}
  }

  // Pins: another thread's write of the first property read, landing before the second read, is seen.
  @Test func anotherThreadsWriteBetweenAFirstRunsReadsRunsItAgain() {
    let model = HandModel()
    let seen = Box<[Int]>([])
    let token = observe {
      let a = model.a
      if seen.value.isEmpty { onAnotherThread { model.a = 7 } }
      _ = model.b
      seen.value.append(a)
    }
    #expect(seen.value == [0, 7])
    withExtendedLifetime(token) {}
  }

  // Pins: changes that coalesce into one scheduled event give it the latest change's key path.
  @Test func aCoalescedScheduledEventCarriesTheLatestKeyPath() {
    let model = HandModel()
    let scheduler = ManualScheduler()
    let events = Box<[String]>([])
    let token = withContinuousObservation(options: .didSet, scheduler: scheduler) { event in
      _ = (model.a, model.b)
      let (a, b) = (event.matches(\HandModel.a), event.matches(\HandModel.b))
      events.value.append("\(event.kind) a:\(a) b:\(b)")
    }
    model.a = 1
    model.b = 1
    #expect(scheduler.flush() == 1)
    #expect(events.value == ["initial a:false b:false", "didSet a:false b:true"])
    withExtendedLifetime(token) {}
  }

  // Pins: a run dirtied by a property change stays certain when an equal derived change follows.
  @Test func aPropertyChangeDuringARunIsNotCutOffByAnEqualDerivedChangeAfterIt() {
    let model = HandModel()
    let parity = Computed { model.b % 2 }
    let seen = LockedBox<[Int]>([])
    let token = observe {
      let a = model.a
      _ = parity.value
      seen.value.append(a)
      guard a == 1 else { return }
      onAnotherThread {
        model.a = 2  // certain to matter
        model.b = 2  // the parity recomputes to an equal value
      }
    }
    model.a = 1
    #expect(seen.value == [0, 1, 2])
    withExtendedLifetime(token) {}
  }

  // Pins: observers a transaction's end stopped (they kept re-queueing each other) hear later changes.
  @Test func observersStoppedAtATransactionsEndStillHearLaterChanges() {
    let model = HandModel()
    let (seenA, seenB) = (Box(0), Box(0))
    let forward = observe {
      let a = model.a
      seenA.value = a
      if a > 0 { model.b = a + 1 }
    }
    let back = observe {
      let b = model.b
      seenB.value = b
      if b > 0 { model.a = b + 1 }
    }
    let reported = ObservationDiagnostics.capture { withTransaction { model.a = 1 } }
    #expect(reported.contains { $0.message.contains("kept invalidating each other") })
    model.a = -1
    #expect(seenA.value == -1)
    model.b = -2
    #expect(seenB.value == -2)
    withExtendedLifetime((forward, back)) {}
  }

  // Pins: `removingDuplicates()` compares with the last emitted element, not the first one.
  @MainActor @Test func removingDuplicatesComparesWithTheLastEmittedValue() async {
    let model = HandModel()
    var iterator = ObservedValues { model.a }.removingDuplicates().makeAsyncIterator()
    #expect(await iterator.next() == 0)
    model.a = 1
    #expect(await iterator.next() == 1)
    model.a = 0  // equal to an earlier element, not to the last one: emitted
    let back = await ObservationParityAuditSequenceTests.next(&iterator, unblocking: model)
    #expect(back == 0)
  }
}
