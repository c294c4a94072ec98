/// The tracking scope of a continuous observer's run: forwards reads to the observer.
final class ObserverScope: TrackingScope {
  /// The observer whose run checked this scope out (see ``ObserverScopeStack``).
  @exclusivity(unchecked) var observer: Unmanaged<ContinuousObserver>?

  /// Whether the current run wrote an observed property on its own thread (the caller resets
  /// it before each run): only such runs count toward the rerun limit, when the change that
  /// makes them run again came from that thread too.
  @exclusivity(unchecked) var wroteDuringRun = false

  override func record(_ slot: SourceNode) {
    observer.unsafelyUnwrapped._withUnsafeGuaranteedRef {
      if $0.readsSingleSource {
        ContinuousObserver.trackSingleRead(
          slot, by: $0, stamp: stamp, hadNestedScope: hadNestedScope)
      } else {
        ContinuousObserver.trackRead(slot, by: $0, stamp: stamp, hadNestedScope: hadNestedScope)
      }
    }
  }

  override func record(_ slot: SourceNode, readAt version: UInt64) {
    observer.unsafelyUnwrapped._withUnsafeGuaranteedRef {
      $0.track(slot, stamp: stamp, hadNestedScope: hadNestedScope, readAt: version)
    }
  }

  /// Whether the current run (or one nested in it) wrote the property its observer parks on.
  @exclusivity(unchecked) var wroteParkingSlot = false

  override func noteOwnMutation(_ slot: SourceNode, version: UInt64) {
    wroteDuringRun = true
    if observer.unsafelyUnwrapped._withUnsafeGuaranteedRef({ $0.parkingSlot === slot }) {
      wroteParkingSlot = true
    }
  }
}
