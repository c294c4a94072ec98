import CReactiveState
import Synchronization

/// Parked registrations: an observer that depends on exactly one property waits in that
/// property's slot, in one atomic word, instead of being linked into the graph. Arming it is
/// one compare-exchange and taking it another, with no graph lock, no link and no delivery
/// queue. Two kinds park:
/// - a one-shot (`withObservationTracking` whose `apply` read one property): called at the
///   property's `willSet`, then gone — the "track one property, re-arm in `onChange`" loop;
/// - a continuous observer (``observe(scheduler:_:)`` whose last run read one property):
///   taken at the property's `didSet`, run on the mutating thread, and parked again by the
///   run (see `ContinuousObserver+Parking.swift`).
///
/// The word holds the observer's address (retained: the registration's retain) in its low
/// 48 bits, with bit 3 set for a continuous observer, and a tag in the high 16, bumped by
/// every park, so an observer that fired, was pooled and parked again on the same slot by
/// another thread is not mistaken for the one an installer is checking. Address 0 means
/// empty, 1 means closed (the registrar is gone).
///
/// The handshake with writers is the graph's: a writer moves the version (a full barrier),
/// then looks at the word; an installer parks (a full barrier), then compares the version
/// it read. One of the two sees the other; whoever clears the address owns the registration
/// (and its retain), so it is called exactly once per park.
///
/// A property confined to the main thread (``MainActorObservationRegistrar``) parks and takes
/// one-shots on the main thread only, with plain loads and stores: nobody else writes its
/// word (an installer on another thread links into the graph instead, and continuous
/// observers never park there), except the registrar's deinitialiser, which no access can
/// overlap.
extension PropertySlot {
  private static let addressMask: UInt64 = (1 << 48) - 1
  private static let tagUnit: UInt64 = 1 << 48
  private static let closed: UInt64 = 1
  /// Marks a continuous observer's address (objects are 16-byte aligned).
  static let continuousKind: UInt64 = 0b1000

  /// Whether a one-shot registration is parked (a hint, like the listener counts).
  @inline(__always)
  var hasParkedOneShot: Bool {
    let address = parkedRegistration.load(ordering: .relaxed) & Self.addressMask
    return address > Self.closed && address & Self.continuousKind == 0
  }

  /// Whether a continuous observer is parked here (a hint).
  var hasParkedContinuousObserver: Bool {
    parkedRegistration.load(ordering: .relaxed) & Self.continuousKind != 0
  }

  /// Parks a retained one-shot observer. Returns the word it stored (to reclaim with), or nil
  /// when the place is taken, closed, or the address does not fit (the caller links instead).
  @inline(__always)
  func park(_ observer: UnsafeMutableRawPointer) -> UInt64? {
    let address = UInt64(UInt(bitPattern: observer))
    let old = parkedRegistration.load(ordering: .relaxed)
    guard old & Self.addressMask == 0, address & ~Self.addressMask == 0 else { return nil }
    let parked = ((old & ~Self.addressMask) &+ Self.tagUnit) | address
    if isConfinedToMainThread {
      guard rs_is_main_thread() != 0 else { return nil }
      parkedRegistration.store(parked, ordering: .relaxed)
      return parked
    }
    let (exchanged, _) = parkedRegistration.compareExchange(
      expected: old, desired: parked, ordering: .sequentiallyConsistent)
    return exchanged ? parked : nil
  }

  /// Parks a retained continuous observer (never on a main-thread-confined property). Returns
  /// the word it stored, or nil when the place is taken or closed.
  @inline(__always)
  func parkContinuous(_ observer: UnsafeMutableRawPointer) -> UInt64? {
    let address = UInt64(UInt(bitPattern: observer)) | Self.continuousKind
    let old = parkedRegistration.load(ordering: .relaxed)
    guard old & Self.addressMask == 0, address & ~Self.addressMask == 0 else { return nil }
    let parked = ((old & ~Self.addressMask) &+ Self.tagUnit) | address
    let (exchanged, _) = parkedRegistration.compareExchange(
      expected: old, desired: parked, ordering: .sequentiallyConsistent)
    return exchanged ? parked : nil
  }

  /// Takes back the registration parked as `parked`; false when a writer (or the registrar's
  /// deinitialiser, or a cancellation) took it first — it then owns the observer, which must
  /// not be touched.
  @inline(__always)
  func reclaim(_ parked: UInt64) -> Bool {
    if isOwnedByCurrentThread {
      guard parkedRegistration.load(ordering: .relaxed) == parked else { return false }
      parkedRegistration.store(parked & ~Self.addressMask, ordering: .relaxed)
      return true
    }
    return parkedRegistration.compareExchange(
      expected: parked, desired: parked & ~Self.addressMask, ordering: .sequentiallyConsistent
    ).exchanged
  }

  /// Takes back the continuous observer `observer` if it is parked here, whatever its tag
  /// (an address names one live observer: the caller keeps it alive).
  func reclaimContinuous(_ observer: UnsafeMutableRawPointer) -> Bool {
    let address = UInt64(UInt(bitPattern: observer)) | Self.continuousKind
    var word = parkedRegistration.load(ordering: .sequentiallyConsistent)
    while word & Self.addressMask == address {
      let (exchanged, original) = parkedRegistration.compareExchange(
        expected: word, desired: word & ~Self.addressMask, ordering: .sequentiallyConsistent)
      if exchanged { return true }
      word = original
    }
    return false
  }

  /// A writer at `willSet`, after moving the version: takes a parked one-shot, if any (the
  /// caller then owns its retain and fires it). A parked continuous observer stays: it wants
  /// the `didSet`.
  @inline(__always)
  func takeParkedOneShot() -> UnsafeMutableRawPointer? {
    take { $0 & Self.continuousKind == 0 }
  }

  /// A writer at `didSet` of an announced write: takes a parked continuous observer, if any
  /// (tagged with ``continuousKind``; run it with ``PropertySlot/runParked(_:)``).
  @inline(__always)
  func takeParkedContinuousObserver() -> UnsafeMutableRawPointer? {
    take { $0 & Self.continuousKind != 0 }
  }

  /// A writer at the end of an unannounced write (the store is done, the version moved):
  /// takes whatever is parked — a one-shot (fired late, as a `willSet`) or a continuous
  /// observer. The address keeps its kind bit.
  @inline(__always)
  func takeParkedRegistration() -> UnsafeMutableRawPointer? {
    take { _ in true }
  }

  @inline(__always)
  private func take(where accepts: (UInt64) -> Bool) -> UnsafeMutableRawPointer? {
    var word = parkedRegistration.load(ordering: .sequentiallyConsistent)
    guard word & Self.addressMask > Self.closed, accepts(word & Self.addressMask) else {
      return nil
    }
    if isOwnedByCurrentThread {
      parkedRegistration.store(word & ~Self.addressMask, ordering: .relaxed)
      return UnsafeMutableRawPointer(bitPattern: UInt(word & Self.addressMask))
    }
    while word & Self.addressMask > Self.closed, accepts(word & Self.addressMask) {
      let (exchanged, original) = parkedRegistration.compareExchange(
        expected: word, desired: word & ~Self.addressMask, ordering: .sequentiallyConsistent)
      if exchanged { return UnsafeMutableRawPointer(bitPattern: UInt(word & Self.addressMask)) }
      word = original
    }
    return nil
  }

  /// Calls a registration taken from a slot: fires a one-shot, runs a continuous observer.
  static func runParked(_ tagged: UnsafeMutableRawPointer) {
    let bits = UInt(bitPattern: tagged)
    if UInt64(bits) & continuousKind != 0 {
      ContinuousObserver.runParked(
        UnsafeMutableRawPointer(bitPattern: bits & ~UInt(continuousKind)).unsafelyUnwrapped)
    } else {
      OneShotObserver.fireParked(tagged)
    }
  }

  /// The registrar is gone: closes the word for good and returns the registration that was
  /// parked, if any (with its kind bit).
  func closeParking() -> UnsafeMutableRawPointer? {
    let word = parkedRegistration.exchange(Self.closed, ordering: .sequentiallyConsistent)
    let address = word & Self.addressMask
    return address > Self.closed ? UnsafeMutableRawPointer(bitPattern: UInt(address)) : nil
  }

  /// Ends a registration still parked: a one-shot is released uncalled (as the toolchain
  /// does); a continuous observer loses its only dependency and goes dormant.
  func discardParkedRegistration() {
    guard let tagged = closeParking() else { return }
    let bits = UInt(bitPattern: tagged)
    if UInt64(bits) & Self.continuousKind != 0 {
      ContinuousObserver.discardParked(
        UnsafeMutableRawPointer(bitPattern: bits & ~UInt(Self.continuousKind)).unsafelyUnwrapped)
    } else {
      OneShotObserver.discardParked(tagged)
    }
  }
}
