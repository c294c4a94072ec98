/// Tracks the observable properties `apply` reads and calls `onChange` once, the first time
/// any of them is about to change.
///
/// Same contract as the toolchain's `Observation.withObservationTracking`:
/// - `apply` runs once, synchronously; reads are recorded only through a registrar's
///   ``ObservationRegistrar/access(_:keyPath:)`` (or a ``Computed`` read) on this thread
///   while it runs. Nested calls
///   record their reads in the enclosing scope too.
/// - If nothing was read, nothing is installed and the `onChange` autoclosure is not evaluated.
/// - `onChange` runs at most once, synchronously on the mutating thread, inside the first
///   `willSet` of a recorded property (so reads inside it still see the old value); then every
///   registration of this call is gone.
///
/// Where the toolchain (6.3.1) races, this does not: a mutation that lands after `apply` read
/// a property but before the observer is installed calls `onChange` (right after `apply`,
/// on this thread); concurrent mutations and an `onChange` that mutates what it observes
/// still call it exactly once; a registration never outlives its firing.
/// When every object it observes is deallocated, a pending `onChange` is released without
/// being called (the 6.3.1 behaviour).
public func withObservationTracking<T>(
  _ apply: () -> T, onChange: @autoclosure () -> @Sendable () -> Void
) -> T {
  trackingAccesses(apply) { list in OneShotObserver.install(list, onChange: onChange()) }
}

/// SE-0506's options form of one-shot tracking: tracks what `apply` reads and delivers the
/// requested events of the first mutation of any of it — `.willSet` (before the store),
/// `.didSet` (after it) — then ends; `.deinit` is delivered when a tracked object is
/// deallocated while the tracking is active (an object deallocated before `apply` returns is
/// not reported: the tracking never saw it alive). Objects read only through a tracked
/// derived value are reported when that value goes: one `.deinit` for those whose going was
/// not reported yet (a value remembers the last 8 deallocations among what it read).
/// `event.cancel()` ends it early.
///
/// Delivery is synchronous on the mutating thread. The `.willSet` and `.didSet` delivered are
/// those of one mutation, made by one thread. For a tracked derived value the events mean
/// "an input is about to change" and "an input changed", and the pair is that of one input's
/// mutation, even when other threads change inputs in between. As with the plain form, a
/// change that lands between a read and the end of `apply` is delivered right after `apply`
/// (as a `.didSet` event when requested, else `.willSet`), and ends the tracking; with only
/// `.deinit` requested it is no event and the tracking stays.
///
/// As in SE-0506, `apply` may throw (typed): the reads it made before throwing are tracked,
/// then the error is rethrown.
public func withObservationTracking<T: ~Copyable, Failure: Error>(
  options: ObservationTracking.Options, _ apply: () throws(Failure) -> T,
  onChange: @escaping @Sendable (ObservationTracking.Event) -> Void
) throws(Failure) -> T {
  // The result may be noncopyable (as in SE-0506): it is moved out through an optional.
  var result: T? = nil
  let failure = trackingAccesses { () -> Failure? in
    do throws(Failure) {
      result = try apply()
      return nil
    } catch {
      return error
    }
  } install: { list in
    EventObserver.install(list, options: options, onChange: onChange)
  }
  if let failure { throw failure }
  switch consume result {
  case .some(let value): return value
  case .none: preconditionFailure("apply neither returned nor threw")
  }
}

/// Runs `apply` in a fresh access list, hands its reads to the enclosing scope (nested
/// tracking merges upward), then to `install` when there are any.
@inline(__always)
private func trackingAccesses<T>(_ apply: () -> T, install: (AccessList) -> Void) -> T {
  AccessList.withEmptyList { list in
    list.begin()
    list.noteSuspendedScope()
    let result = apply()
    list.end()
    if let parent = TrackingScope.current { list.merge(into: parent) }
    if !list.isEmpty { install(list) }
    return result
  }
}
