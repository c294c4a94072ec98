// Continuous observation for code isolated to an actor other than the main actor.
//
// SE-0506 spells this as one `withContinuousObservation(options:apply:)` whose
// `@_inheritActorContext @isolated(any)` closure picks up the caller's isolation. ReactiveState
// cannot: its nonisolated `withContinuousObservation(options:scheduler:apply:)` is the better
// match for any unannotated closure (so an actor method would still pick it, and fail the
// isolation check), and an `@isolated(any)` overload labelled `options:apply:` is an invalid
// redeclaration of the `@MainActor` one (function-type isolation does not tell overloads
// apart). The actor is therefore named: `isolation: self`.

/// Re-runs observers on an actor: each scheduled run is one `Task` that hops to it.
///
/// Runs scheduled from different threads may reach the actor in any order; an observer has at
/// most one scheduled run at a time (changes coalesce into it). It holds the actor strongly: an
/// actor that keeps the token of an observation scheduled on itself would keep itself alive,
/// so there use ``observe(isolation:fileID:line:_:)``, whose scheduler holds the actor weakly.
public struct ActorScheduler: ObservationScheduler {
  /// The actor that every scheduled run executes on.
  public let actor: any Actor

  /// Creates a scheduler whose runs execute on `actor`.
  public init(_ actor: any Actor) { self.actor = actor }

  /// Enqueues `work` on the actor.
  public func schedule(_ work: @escaping @Sendable () -> Void) {
    Task { [actor] in await runOn(actor, work) }
  }
}

/// ``ActorScheduler`` for the observations an actor starts with `isolation:` (whose token it
/// usually keeps): it holds the actor weakly, or the actor would keep itself alive through its
/// own token (actor → token → observer → scheduler → actor) even when the body does not
/// capture it. Once the actor is gone, a queued run never starts (it could only run there).
struct WeakActorScheduler: ObservationScheduler {
  weak var actor: (any Actor)?

  init(_ actor: any Actor) { self.actor = actor }

  func schedule(_ work: @escaping @Sendable () -> Void) {
    guard let actor else { return }
    ActorScheduler(actor).schedule(work)
  }
}

/// Runs `body` isolated to `actor` (an `await` from anywhere else hops there first).
func runOn(_ actor: isolated any Actor, _ body: () -> Void) { body() }

/// ``observe(scheduler:fileID:line:_:)`` for code isolated to an actor: `apply` runs isolated to
/// `isolation`, so it reads and writes that actor's state directly —
/// `token = observe(isolation: self) { self.copy = self.model.count }` in an actor method.
///
/// - The first run happens now, in this call, on `isolation` (the function is isolated to it:
///   from the actor itself the call is synchronous; from anywhere else it needs `await`, which
///   hops there, and the compiler then only accepts an `apply` that may be sent there).
/// - Every later run goes through ``ActorScheduler``: a change committed on any thread —
///   the actor's own included — queues one run, delivered later on `isolation` by a `Task`;
///   changes coalesce until it runs. It never runs on the writing thread.
/// - Each run re-collects the dependencies it reads. Nesting, cancellation (`token.cancel()`
///   stops runs not yet started, including a queued one) and the limit on scheduled runs that
///   keep causing each other are those of ``observe(scheduler:fileID:line:_:)``.
/// - `isolation: MainActor.shared` works too, but always hops; `observe { @MainActor in … }`
///   runs inline for changes made on the main thread.
///
/// `fileID` and `line` (the call's own, by default) name it in the observer's diagnostics.
public func observe(
  isolation: isolated any Actor, fileID: StaticString = #fileID, line: UInt = #line,
  _ apply: @escaping () -> Void
) -> ObservationToken {
  isolation.assertIsolated("observe(isolation:) must start on its actor")
  // `apply` is only called here (on `isolation`) and by `ActorScheduler`'s hops to
  // `isolation`, so treating it as sendable never runs it concurrently with that actor.
  let body = unsafeBitCast(apply, to: (@Sendable () -> Void).self)
  let observer = ContinuousObserver(
    triggers: .didSet, scheduler: WeakActorScheduler(isolation),
    label: "observe(isolation:) { … }", site: ObserverSite(fileID: fileID, line: line),
    body: .plain(body))
  return startObservation(observer)
}

/// SE-0506's continuous observation for code isolated to an actor: `apply` runs isolated to
/// `isolation` — `token = withContinuousObservation(options: .didSet, isolation: self) { _ in
/// self.copy = self.model.count }` in an actor method.
///
/// - The `.initial` event is delivered now, in this call, on `isolation` (from the actor itself
///   the call is synchronous; from anywhere else it needs `await`, which hops there).
/// - Each later event in `options` on what the previous call read queues one call of `apply`,
///   delivered on `isolation` by an ``ActorScheduler`` hop (SE-0506: at a later suspension
///   point of that isolation), never on the writing thread; events coalesce while it is queued
///   (the call sees the latest event's kind). Each call re-tracks what it reads.
/// - It ends when the token is cancelled or released, or `event.cancel()` is called; a queued
///   call that has not started then never runs.
///
/// `fileID` and `line` (the call's own, by default) name it in the observer's diagnostics.
public func withContinuousObservation(
  options: ObservationTracking.Options, isolation: isolated any Actor,
  fileID: StaticString = #fileID, line: UInt = #line,
  apply: @escaping (ObservationTracking.Event) -> Void
) -> ObservationTracking.Token {
  isolation.assertIsolated("withContinuousObservation(isolation:) must start on its actor")
  // As in `observe(isolation:_:)`: only ever called on `isolation`.
  let body = unsafeBitCast(apply, to: (@Sendable (ObservationTracking.Event) -> Void).self)
  let observer = ContinuousObserver(
    triggers: options, scheduler: WeakActorScheduler(isolation),
    label: "withContinuousObservation(isolation:)",
    site: ObserverSite(fileID: fileID, line: line), body: .events(body))
  return startObservation(observer)
}
