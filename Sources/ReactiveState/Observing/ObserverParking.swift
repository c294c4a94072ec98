/// A scheduler that is handed a continuous observer whose change is queued, instead of a
/// closure that runs it, so handing over a change allocates nothing.
///
/// `park(_:)` is called where ``ObservationScheduler/schedule(_:)`` would be, on the thread that
/// made the change. The implementation later runs the observer with `runIfQueued()`, or lets
/// its owner consume the queued run another way (the view graph's `runNow`); an observer it
/// keeps must be retained.
///
/// A base class rather than a protocol: an observer holds its parking unretained, and reaches a
/// class through an unmanaged reference with no reference counting (an existential would be
/// retained for every call).
class ObserverParking: @unchecked Sendable {
  /// `observer` has a queued change for this scheduler. Subclasses override it.
  func park(_ observer: ContinuousObserver) {
    preconditionFailure("\(type(of: self)) does not override park(_:)")
  }
}
