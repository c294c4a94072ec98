import Foundation
import ReactiveState
import Testing

/// A main-actor model over `MainActorObservationRegistrar`: its properties can only be read on
/// the main actor, which is what `observe { @MainActor in … }` and `ObservedValues.onMainActor`
/// make possible without `MainActor.assumeIsolated`.
@MainActor final class Screen: ReactiveState.Observable {
  private let registrar = MainActorObservationRegistrar()
  private var _title = "start"
  var title: String {
    get {
      registrar.access(self, keyPath: \.title)
      return _title
    }
    set { registrar.withMutation(of: self, keyPath: \.title) { _title = newValue } }
  }
}

/// `observe { @MainActor in … }`: inline on the main thread, a hop to the main actor from any
/// other thread, never a run on the writing thread.
@Suite struct MainActorObserveTests {
  /// Every run of the body: what it saw, and whether it ran on the main thread.
  @MainActor final class Runs {
    var seen: [String] = []
    var onMainThread: [Bool] = []
    func record(_ value: String) {
      seen.append(value)
      onMainThread.append(Thread.isMainThread)
    }
  }

  /// Yields the main actor until `done` holds (the hop is a main-actor `Task`), at most
  /// `limit` times; returns whether it did.
  @MainActor private func yield(until done: () -> Bool, limit: Int = 10_000) async -> Bool {
    for _ in 0..<limit {
      if done() { return true }
      await Task.yield()
    }
    return done()
  }

  /// The harness may run main-actor work off the process's main thread (it does on Linux):
  /// this thread stands in for it, so the engine treats its writes as the main thread's.
  @MainActor @Test func readsAMainActorModelAndRerunsInlineOnTheMainThread() {
    actingAsMainThread {
      let screen = Screen()
      let runs = Runs()
      let token = observe { @MainActor in runs.record(screen.title) }
      #expect(runs.seen == ["start"])
      screen.title = "next"
      // A write on the main thread re-runs the body at once (as for the nonisolated form);
      // from another thread it would wait for a hop.
      #expect(runs.seen == ["start", "next"])
      withTransaction {
        screen.title = "a"
        screen.title = "b"
        #expect(runs.seen.count == 2)  // not before the end
      }
      #expect(runs.seen == ["start", "next", "b"])
      token.cancel()
      screen.title = "after"
      #expect(!runs.seen.contains("after"))
    }
  }

  @MainActor @Test func aChangeOnAnotherThreadRerunsOnTheMainActorNotOnThatThread() async {
    let model = HandModel()
    let runs = Runs()
    let token = observe { @MainActor in runs.record("a=\(model.a)") }
    onAnotherThread {
      model.a = 1
      model.a = 2  // coalesces with the first while the hop waits
    }
    // The writing thread ended without running the body: it waits for the main actor, which
    // this test holds until it yields.
    #expect(runs.seen == ["a=0"])
    #expect(await yield(until: { runs.seen.count == 2 }))
    #expect(runs.seen == ["a=0", "a=2"])
    #expect(runs.onMainThread.allSatisfy { $0 } == Thread.isMainThread)
    // Nothing else was scheduled: a few more turns change nothing.
    for _ in 0..<100 { await Task.yield() }
    #expect(runs.seen.count == 2)
    withExtendedLifetime(token) {}
  }

  @MainActor @Test func aCancellationBeforeTheHopRunsPreventsTheRun() async {
    let model = HandModel()
    let runs = Runs()
    let token = observe { @MainActor in runs.record("a=\(model.a)") }
    onAnotherThread { model.a = 1 }
    token.cancel()
    for _ in 0..<100 { await Task.yield() }
    #expect(runs.seen == ["a=0"])
  }

  @MainActor @Test func aTransactionOnAnotherThreadHopsOnceAtItsEnd() async {
    let model = HandModel()
    let runs = Runs()
    let token = observe { @MainActor in runs.record("a=\(model.a) b=\(model.b)") }
    onAnotherThread {
      withTransaction {
        model.a = 1
        model.b = 2
      }
    }
    #expect(runs.seen == ["a=0 b=0"])
    #expect(await yield(until: { runs.seen.count == 2 }))
    for _ in 0..<100 { await Task.yield() }
    #expect(runs.seen == ["a=0 b=0", "a=1 b=2"])
    withExtendedLifetime(token) {}
  }

  /// The choice this API makes: a closure without `@MainActor in` is nonisolated (the other
  /// form), even when written on the main actor, so it runs on the writing thread at once.
  @MainActor @Test func anUnannotatedClosurePicksTheNonisolatedForm() {
    let model = HandModel()
    let ranOn = LockedBox<[UInt]>([])
    let token = observe {
      _ = model.a
      ranOn.value.append(currentThreadID())
    }
    let writer = LockedBox<UInt>(0)
    onAnotherThread {
      writer.value = currentThreadID()
      model.a = 1
    }
    #expect(ranOn.value == [currentThreadID(), writer.value], "the re-run ran on the writer")
    withExtendedLifetime(token) {}
  }

  @MainActor @Test func theEventFormHopsToTheMainActorWithTheChangesKeyPath() async {
    let model = HandModel()
    let runs = Runs()
    let token = withContinuousObservation(options: [.didSet]) { @MainActor event in
      let kind = event.kind == .initial ? "initial" : event.matches(\HandModel.a) ? "a" : "other"
      runs.record("\(kind) a=\(model.a)")
    }
    onAnotherThread { model.a = 3 }
    #expect(runs.seen == ["initial a=0"])
    #expect(await yield(until: { runs.seen.count == 2 }))
    #expect(runs.seen == ["initial a=0", "a a=3"])
    token.cancel()
    onAnotherThread { model.a = 4 }
    for _ in 0..<100 { await Task.yield() }
    #expect(runs.seen.count == 2)
  }
}
