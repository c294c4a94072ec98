import CReactiveState
import Synchronization

/// Parked registrations: an observer that depends on exactly one property waits in that
/// property's slot, in one atomic word (`parkedRegistration`), instead of being linked into the
/// graph. Two kinds park:
/// - a one-shot (`withObservationTracking` whose `apply` read one property): called at the
///   property's `willSet`, then gone — the "track one property, re-arm in `onChange`" loop.
///   Arming it is one compare-exchange and taking it another, with no graph lock, no link and
///   no delivery queue;
/// - a continuous observer (``observe(scheduler:fileID:line:_:)`` whose run read one
///   property): run by the write it waits for, which takes no lock and no compare-exchange (see
///   `PropertySlot+ParkedContinuous.swift`).
///
/// The word holds the observer's address (retained: the registration's retain) in its low
/// 48 bits — bit 3 set for a continuous observer, whose bits 1 and 2 are flags — and a tag in
/// the high 16, bumped by every park, so an observer that fired, was pooled and parked again
/// on the same slot by another thread is not mistaken for the one an installer is checking.
/// Address 0 means empty, 1 means closed (the registrar is gone).
///
/// The one-shot handshake with writers is the graph's: a writer moves the version (a full
/// barrier), then looks at the word; an installer parks (a full barrier), then compares the
/// version it read. One of the two sees the other; whoever clears the address owns the
/// registration (and its retain), so it is called exactly once.
///
/// A property confined to the main thread (``MainActorObservationRegistrar``) parks and takes
/// one-shots on the main thread only, with plain loads and stores: nobody else writes its
/// word (an installer on another thread links into the graph instead, and continuous
/// observers never park there), except the registrar's deinitialiser, which no access can
/// overlap.
extension PropertySlot {
  static let addressMask: UInt64 = (1 << 48) - 1
  static let tagUnit: UInt64 = 1 << 48
  static let closed: UInt64 = 1
  /// Marks a continuous observer's address (objects are 16-byte aligned).
  static let continuousKind: UInt64 = 0b1000

  /// Whether a one-shot registration is parked (a hint, like the listener counts).
  @inline(__always)
  var hasParkedOneShot: Bool {
    let address = parkedRegistration.load(ordering: .relaxed) & Self.addressMask
    return address > Self.closed && address & Self.continuousKind == 0
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

  /// Takes back the one-shot parked as `parked`; false when a writer (or the registrar's
  /// deinitialiser) took it first — it then owns the observer, which must not be touched.
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

  /// A writer, after moving the version: takes a parked one-shot, if any (the caller then owns
  /// its retain and fires it). A parked continuous observer stays: it wants the `didSet`.
  /// `owned` is ``isOwnedByCurrentThread`` (the writer asked it for its version move).
  @inline(__always)
  func takeParkedOneShot(owned: Bool) -> UnsafeMutableRawPointer? {
    var word = parkedRegistration.load(ordering: .sequentiallyConsistent)
    guard word & Self.addressMask > Self.closed, word & Self.continuousKind == 0 else {
      return nil
    }
    if owned {
      parkedRegistration.store(word & ~Self.addressMask, ordering: .relaxed)
      return UnsafeMutableRawPointer(bitPattern: UInt(word & Self.addressMask))
    }
    while word & Self.addressMask > Self.closed, word & Self.continuousKind == 0 {
      let (exchanged, original) = parkedRegistration.compareExchange(
        expected: word, desired: word & ~Self.addressMask, ordering: .sequentiallyConsistent)
      if exchanged { return UnsafeMutableRawPointer(bitPattern: UInt(word & Self.addressMask)) }
      word = original
    }
    return nil
  }

  /// Calls a registration a write took from a slot for `event`: at `willSet` a one-shot
  /// (``takeParkedOneShot()``), which is fired; at `didSet` the continuous observer it claimed
  /// (``claimParkedContinuousObserver(from:)``), which is run.
  /// Inlined: a writer knows its event, and calls either with no test.
  @inline(__always)
  static func runParked(_ registration: UnsafeMutableRawPointer, at event: SourceEvent) {
    if event == .didSet {
      ContinuousObserver.runParked(registration)
    } else {
      OneShotObserver.fireParkedAtWillSet(registration)
    }
  }

  /// Ends a registration still parked, closing the word for good (the registrar is gone): a
  /// one-shot is released uncalled (as the toolchain does); a continuous observer loses its
  /// only dependency and goes dormant. No write of the property can be in flight: its object
  /// is being deallocated.
  func discardParkedRegistration() {
    let word = parkedRegistration.exchange(Self.closed, ordering: .sequentiallyConsistent)
    guard word & Self.addressMask > Self.closed else { return }
    if word & Self.continuousKind != 0 {
      ContinuousObserver.discardParked(Self.continuousObserver(in: word))
    } else {
      OneShotObserver.discardParked(
        UnsafeMutableRawPointer(bitPattern: UInt(word & Self.addressMask)).unsafelyUnwrapped)
    }
  }
}
