import CReactiveState
import Synchronization

/// The parked one-shot: a `withObservationTracking` registration whose `apply` read exactly
/// one property waits in that property's slot, in one atomic word, instead of being linked
/// into the graph. Arming it is one compare-exchange and firing it another, with no graph
/// lock, no link and no delivery queue — the common "track one property, re-arm in
/// `onChange`" loop.
///
/// The word holds the observer's address (retained: the registration's retain) in its low
/// 48 bits and a tag in the high 16, bumped by every park, so an observer that fired, was
/// pooled and parked again on the same slot by another thread is not mistaken for the one
/// an installer is checking. Address 0 means empty, 1 means closed (the registrar is gone).
///
/// The handshake with writers is the graph's: a writer moves the version (a full barrier),
/// then looks at the word; an installer parks (a full barrier), then compares the version
/// it read. One of the two sees the other; whoever clears the address owns the call, so it
/// happens exactly once.
///
/// A property confined to the main thread (``MainActorObservationRegistrar``) parks and takes
/// on the main thread only, with plain loads and stores: nobody else writes its word (an
/// installer on another thread links into the graph instead), except the registrar's
/// deinitialiser, which no access can overlap.
extension PropertySlot {
  private static let addressMask: UInt64 = (1 << 48) - 1
  private static let tagUnit: UInt64 = 1 << 48
  private static let closed: UInt64 = 1

  /// Whether a registration is parked (a hint, like the listener counts).
  @inline(__always)
  var hasParkedOneShot: Bool {
    parkedOneShot.load(ordering: .relaxed) & Self.addressMask > Self.closed
  }

  /// Parks a retained observer. Returns the word it stored (to reclaim with), or nil when
  /// the place is taken, closed, or the address does not fit (the caller links instead).
  @inline(__always)
  func park(_ observer: UnsafeMutableRawPointer) -> UInt64? {
    let address = UInt64(UInt(bitPattern: observer))
    let old = parkedOneShot.load(ordering: .relaxed)
    guard old & Self.addressMask == 0, address & ~Self.addressMask == 0 else { return nil }
    let parked = ((old & ~Self.addressMask) &+ Self.tagUnit) | address
    if isConfinedToMainThread {
      guard rs_is_main_thread() != 0 else { return nil }
      parkedOneShot.store(parked, ordering: .relaxed)
      return parked
    }
    let (exchanged, _) = parkedOneShot.compareExchange(
      expected: old, desired: parked, ordering: .sequentiallyConsistent)
    return exchanged ? parked : nil
  }

  /// Takes back the registration parked as `parked`; false when a writer (or the registrar's
  /// deinitialiser) took it first — it then owns the observer, which must not be touched.
  @inline(__always)
  func reclaim(_ parked: UInt64) -> Bool {
    if isOwnedByCurrentThread {
      guard parkedOneShot.load(ordering: .relaxed) == parked else { return false }
      parkedOneShot.store(parked & ~Self.addressMask, ordering: .relaxed)
      return true
    }
    return parkedOneShot.compareExchange(
      expected: parked, desired: parked & ~Self.addressMask, ordering: .sequentiallyConsistent
    ).exchanged
  }

  /// A writer, after moving the version: takes the parked registration, if any (the caller
  /// then owns its retain and fires it).
  @inline(__always)
  func takeParkedOneShot() -> UnsafeMutableRawPointer? {
    var word = parkedOneShot.load(ordering: .sequentiallyConsistent)
    if isOwnedByCurrentThread {
      guard word & Self.addressMask > Self.closed else { return nil }
      parkedOneShot.store(word & ~Self.addressMask, ordering: .relaxed)
      return UnsafeMutableRawPointer(bitPattern: UInt(word & Self.addressMask))
    }
    while word & Self.addressMask > Self.closed {
      let (exchanged, original) = parkedOneShot.compareExchange(
        expected: word, desired: word & ~Self.addressMask, ordering: .sequentiallyConsistent)
      if exchanged { return UnsafeMutableRawPointer(bitPattern: UInt(word & Self.addressMask)) }
      word = original
    }
    return nil
  }

  /// The registrar is gone: closes the word for good and returns the registration that was
  /// parked, if any (released without a call, as the toolchain does).
  func closeParking() -> UnsafeMutableRawPointer? {
    let word = parkedOneShot.exchange(Self.closed, ordering: .sequentiallyConsistent)
    let address = word & Self.addressMask
    return address > Self.closed ? UnsafeMutableRawPointer(bitPattern: UInt(address)) : nil
  }

  /// Releases a registration still parked (uncalled).
  func discardParkedOneShot() {
    if let observer = closeParking() { OneShotObserver.discardParked(observer) }
  }
}
