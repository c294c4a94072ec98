/// The tracking scope of a continuous observer's run: forwards reads to the observer.
final class ObserverScope: TrackingScope {
  /// Set once, right after the observer is initialised; the observer owns this scope.
  @exclusivity(unchecked) var observer: Unmanaged<ContinuousObserver>?

  override func record(_ slot: SourceNode) {
    observer.unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.track(slot, stamp: stamp) }
  }
}
