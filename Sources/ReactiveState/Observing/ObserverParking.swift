/// A scheduler that is handed a continuous observer whose change is queued, instead of a
/// closure that runs it, so handing over a change allocates nothing.
///
/// `park(_:)` is called where ``ObservationScheduler/schedule(_:)`` would be, on the thread that
/// made the change. The implementation later runs the observer with `runIfQueued()`, or lets
/// its owner consume the queued run another way (the view graph's `runNow`); an observer it
/// keeps must be retained.
protocol ObserverParking: AnyObject {
  /// `observer` has a queued change for this scheduler.
  func park(_ observer: ContinuousObserver)
}
