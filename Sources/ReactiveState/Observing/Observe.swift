/// Runs `apply` now and again after every committed change to anything it read in its
/// previous run, until the returned token is cancelled or deallocated. Keep the token: an
/// unused one ends the observation after its first run, so the compiler warns about it.
///
/// - Dependencies are re-collected on every run: a branch not taken stops being tracked.
/// - Delivery: by default synchronously on the thread that made the change, right after the
///   store (or at the end of the outermost ``withTransaction(_:)``); with a `scheduler`,
///   through it (e.g. `.mainActor`, or a ``ManualScheduler`` for deterministic tests), and a
///   transaction's changes reach the scheduler when the transaction ends. Changes coalesce
///   while a run is pending.
/// - Nested `observe` calls inside `apply` are independent: their reads never become the
///   outer observer's dependencies (keep their tokens, or they end immediately). The same
///   holds inside any tracking scope, such as a one-shot's `apply` (as for SE-0506, whose
///   first run comes later; unlike swift-navigation's `observe`, whose first run leaks).
/// - A body that keeps invalidating itself stops after 100 consecutive re-runs and reports an
///   ``ObservationDiagnostic`` naming the key path; the observation stays active, and the
///   next change runs it again. Only runs that invalidated themselves
///   count (a change of what they read made on the thread running them): an observer whose
///   run is overtaken by other threads' writes runs again (on the thread running it) until it
///   has seen the last of them, even when the run wrote other observed properties. Scheduled
///   observers that keep changing each other through their schedulers stop the same way: a
///   change that ends a chain of 100 scheduled runs, each caused by the one before, is dropped
///   with a diagnostic (a later change from outside the chain runs them again).
/// - A first run that read nothing observable ends the observation at once (no change could
///   ever run it again): the body and what it captured are released, and the token has nothing
///   to cancel.
/// - Cost: an observer whose run read exactly one stored property (and found no other
///   observer already linked to it) waits in that property's slot; a write then runs it with
///   no lock and no atomic operation beyond the write's own version move. Reading more than
///   one thing, or a ``Computed``, links it into the dependency graph instead, for good.
///
/// `fileID` and `line` (the call's own, by default) name it in the observer's diagnostics.
public func observe(
  scheduler: consuming (any ObservationScheduler)? = nil,
  fileID: StaticString = #fileID, line: UInt = #line,
  _ apply: @escaping @Sendable () -> Void
) -> ObservationToken {
  let observer = ContinuousObserver(
    triggers: .didSet, scheduler: scheduler, label: "observe { … }",
    site: ObserverSite(fileID: fileID, line: line), body: .plain(apply))
  return startObservation(observer)
}

/// ``observe(scheduler:fileID:line:_:)`` for main-actor code: `apply` is isolated to the main
/// actor, so it reads and updates `@MainActor` models and UI state directly. Spell the
/// closure's isolation —
/// `observe { @MainActor in label.text = model.title }` — since a closure without it is
/// nonisolated and picks the other form.
///
/// - Runs `apply` now, and again after every committed change to anything it read.
/// - A change committed on the main thread runs it there synchronously, right after the store
///   (or at the end of the outermost ``withTransaction(_:)``), as the nonisolated form does.
/// - A change committed on any other thread never runs it there: the re-run hops to the main
///   actor (one `Task` per coalesced re-run, as with `scheduler: .mainActor`), and changes
///   coalesce until it runs.
/// - Dependencies, nesting, cancellation and the self-invalidation limit are those of
///   ``observe(scheduler:fileID:line:_:)``. It never parks in a property's slot: each re-run
///   goes through the dependency graph (two threads may deliver it at once: while another
///   thread's delivery of it is in flight, a delivery is queued as a small entry of its own),
///   with its lock, so a re-run costs about twice the nonisolated form's (see the README's
///   benchmark table) — still less than `MainActor.assumeIsolated` alone (~100 ns).
///
/// `fileID` and `line` (the call's own, by default) name it in the observer's diagnostics.
@MainActor
public func observe(
  fileID: StaticString = #fileID, line: UInt = #line,
  _ apply: @escaping @MainActor @Sendable () -> Void
) -> ObservationToken {
  // Called only on the main actor (first run, hops) or on the main thread (inline re-runs),
  // where the runtime counts code as isolated to it, so the static isolation can be dropped.
  let body = unsafeBitCast(apply, to: (@Sendable () -> Void).self)
  let observer = ContinuousObserver(
    triggers: .didSet, scheduler: MainActorScheduler(), label: "observe { @MainActor in … }",
    site: ObserverSite(fileID: fileID, line: line), runsOnMainActor: true, body: .plain(body))
  return startObservation(observer)
}

/// SE-0506's continuous observation: calls `apply` now with an `.initial` event (tracking
/// what it reads), then again — re-tracking — for each event in `options` (`.willSet`,
/// `.didSet`, `.deinit`) on what the previous call read, until the token is cancelled or
/// deallocated, or `event.cancel()` is called.
///
/// Delivery follows ``observe(scheduler:fileID:line:_:)``; SE-0506 always delivers at the next
/// suspension point of the caller's isolation — pass `scheduler: .mainActor` for that shape,
/// or, in an actor, call ``withContinuousObservation(options:isolation:fileID:line:apply:)``.
///
/// `fileID` and `line` (the call's own, by default) name it in the observer's diagnostics.
public func withContinuousObservation(
  options: ObservationTracking.Options, scheduler: consuming (any ObservationScheduler)? = nil,
  fileID: StaticString = #fileID, line: UInt = #line,
  apply: @escaping @Sendable (ObservationTracking.Event) -> Void
) -> ObservationTracking.Token {
  let observer = ContinuousObserver(
    triggers: options, scheduler: scheduler, label: "withContinuousObservation",
    site: ObserverSite(fileID: fileID, line: line), body: .events(apply))
  return startObservation(observer)
}

/// ``withContinuousObservation(options:scheduler:fileID:line:apply:)`` for main-actor code: `apply`
/// is isolated to the main actor. Spell it `{ @MainActor event in … }` (an unannotated closure
/// picks the nonisolated form). Events delivered for changes committed on the main thread arrive
/// there synchronously (a `.willSet` before the store); a change committed on any other thread
/// reaches `apply` later on the main actor, as one coalesced event, as with
/// `scheduler: .mainActor`.
///
/// `fileID` and `line` (the call's own, by default) name it in the observer's diagnostics.
@MainActor
public func withContinuousObservation(
  options: ObservationTracking.Options, fileID: StaticString = #fileID, line: UInt = #line,
  apply: @escaping @MainActor @Sendable (ObservationTracking.Event) -> Void
) -> ObservationTracking.Token {
  // As in `observe(_:)`: only called on the main actor or the main thread.
  let body = unsafeBitCast(apply, to: (@Sendable (ObservationTracking.Event) -> Void).self)
  let observer = ContinuousObserver(
    triggers: options, scheduler: MainActorScheduler(),
    label: "withContinuousObservation { @MainActor in … }",
    site: ObserverSite(fileID: fileID, line: line), runsOnMainActor: true, body: .events(body))
  return startObservation(observer)
}

/// ``observe(scheduler:fileID:line:_:)`` that also runs again when an object the last run read is
/// deallocated: the observer of an ``ObservedValues`` iteration, whose closure can then end the
/// sequence instead of waiting for a change that can no longer come.
func observeIncludingDeallocations(
  scheduler: some ObservationScheduler, _ apply: @escaping @Sendable () -> Void
) -> ObservationToken {
  startObservation(
    ContinuousObserver(
      triggers: [.didSet, .deinit], scheduler: scheduler, label: "ObservedValues",
      body: .plain(apply)))
}

/// Runs `observer` for the first time and returns the token that ends it. An observer whose
/// first run read nothing can never run again: it is let go at once (its body and what the body
/// captured with it), and the token has nothing to cancel.
func startObservation(_ observer: ContinuousObserver) -> ObservationToken {
  observer.start()
  return ObservationToken(observer.readNothing ? nil : observer)
}
