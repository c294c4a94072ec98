import Foundation
import ReactiveState
import Testing

/// An actor that observes a model from one of its own methods: every run of the body is
/// isolated to it, so the body writes the actor's state directly.
private actor Watcher {
  let model: HandModel
  var seen: [Int] = []
  var kinds: [ObservationTracking.Event.Kind] = []
  var token: ObservationTracking.Token?

  init(model: HandModel) { self.model = model }

  /// Starts an event observation of `model.a`; returns what the body had seen when the call
  /// returned.
  func start() -> [Int] {
    token = withContinuousObservation(options: .didSet, isolation: self) { event in
      self.assertIsolated("the body runs on the actor")
      self.kinds.append(event.kind)
      self.seen.append(self.model.a)
    }
    return seen
  }

  /// Starts a plain `observe` of `model.a`.
  func startPlain() -> [Int] {
    token = observe(isolation: self) {
      self.assertIsolated("the body runs on the actor")
      self.seen.append(self.model.a)
    }
    return seen
  }

  /// Keeps the actor busy while another thread runs `writes` (then, if `cancelling`, cancels
  /// the token before letting go): whatever they queue can only run once this returns.
  func hold(cancelling: Bool = false, while writes: @escaping @Sendable () -> Void) {
    onAnotherThread(writes)
    if cancelling { token?.cancel() }
  }

  func cancel() { token?.cancel() }
}

/// `withContinuousObservation(options:isolation:apply:)` and `observe(isolation:_:)`: the
/// body is isolated to the actor passed as `isolation`, and every change is delivered there.
@Suite struct ActorIsolatedObservationTests {

  @Test func initialEventRunsSynchronouslyInTheCallOnTheActor() async {
    let watcher = Watcher(model: HandModel())
    #expect(await watcher.start() == [0], "the .initial event ran before the call returned")
    #expect(await watcher.kinds == [.initial])
  }

  @Test func changesFromAnotherThreadAreDeliveredOnTheActor() async {
    let model = HandModel()
    let watcher = Watcher(model: model)
    _ = await watcher.start()
    await onNewThread { model.a = 1 }
    #expect(await yield { await watcher.seen == [0, 1] })
    await onNewThread { model.a = 2 }
    #expect(await yield { await watcher.seen == [0, 1, 2] })
    #expect(await watcher.kinds == [.initial, .didSet, .didSet])
    await onNewThread { model.b = 5 }  // not read
    await onNewThread { model.a = 3 }
    #expect(await yield { await watcher.seen.last == 3 })
    #expect(await watcher.seen == [0, 1, 2, 3], "the unread b never delivered an event")
  }

  @Test func changesMadeWhileTheActorIsBusyCoalesceIntoOneRun() async {
    let model = HandModel()
    let watcher = Watcher(model: model)
    _ = await watcher.start()
    await watcher.hold {
      model.a = 1
      model.a = 2
      model.a = 3
    }
    #expect(await yield { await watcher.seen.count == 2 })
    #expect(await watcher.seen == [0, 3], "one run, after the actor was free, saw the last value")
    #expect(await watcher.kinds == [.initial, .didSet])
  }

  @Test func cancellingTheTokenStopsDeliveries() async {
    let model = HandModel()
    let watcher = Watcher(model: model)
    let control = Watcher(model: model)
    _ = await watcher.start()
    _ = await control.start()
    // A run queued while the actor is busy, then cancelled before the actor is free: never runs.
    await watcher.hold(cancelling: true) { model.a = 1 }
    await onNewThread { model.a = 2 }  // after cancellation: queues nothing
    #expect(await yield { await control.seen.last == 2 }, "the uncancelled observer saw both")
    for _ in 0..<1_000 { await Task.yield() }
    #expect(await watcher.seen == [0], "the cancelled observer saw neither change")
    #expect(await watcher.kinds == [.initial])
    withExtendedLifetime(control) {}
  }

  @Test func observeIsolatedRunsOnTheActorAndStopsWhenCancelled() async {
    let model = HandModel()
    let watcher = Watcher(model: model)
    #expect(await watcher.startPlain() == [0])
    await onNewThread { model.a = 1 }
    #expect(await yield { await watcher.seen == [0, 1] })
    await watcher.hold {
      model.a = 2
      model.a = 3
    }
    #expect(await yield { await watcher.seen == [0, 1, 3] }, "coalesced into one run")
    await watcher.cancel()
    await onNewThread { model.a = 4 }
    for _ in 0..<1_000 { await Task.yield() }
    #expect(await watcher.seen == [0, 1, 3])
  }

  /// Called from outside the actor, the call awaits a hop to it: the first run, too, is on the
  /// actor. (A nonisolated body may be sent there; one isolated elsewhere is rejected.)
  @Test func startingFromOutsideTheActorRunsTheFirstEventOnIt() async {
    let model = HandModel()
    let watcher = Watcher(model: model)
    let onActor = Box<[Bool]>([])
    let token = await withContinuousObservation(options: .didSet, isolation: watcher) { _ in
      watcher.preconditionIsolated("every event reaches the actor")
      onActor.value.append(true)
      _ = model.a
    }
    #expect(onActor.value == [true])
    await onNewThread { model.a = 1 }
    #expect(await yield { await watcher.run { onActor.value.count == 2 } })
    token.cancel()
  }
}

extension Watcher {
  /// Runs `body` on the actor (to read state its observers write, without a race).
  func run<T: Sendable>(_ body: @Sendable () -> T) -> T { body() }
}
