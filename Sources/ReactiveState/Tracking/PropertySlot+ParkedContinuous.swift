import Synchronization

/// The slot's side of a parked continuous observer (the observer's side is
/// `ContinuousObserver+Parking.swift`).
///
/// The observer stays in the parking word while it runs. It waits for one write: the one whose
/// version move starts at `parkedVersion`, the version its last run read. Writers' version
/// moves are atomic increments, so exactly one write starts there; that writer runs the
/// observer with no compare-exchange of its own. Any other writer that finds the observer in
/// the word (the observer is running, or about to park again) sets the word's dirty flag,
/// which makes the observer's next park fail and the observer run again. Parking again is one
/// compare-exchange that also stores the new tag (paired with `parkedVersion`'s, so a writer
/// that read a half-updated pair is not mistaken for the one the new park waits for).
///
/// A write that announces itself moves the version twice, at `willSet` and at `didSet`. If its
/// `willSet` move is the one the observer waits for, it sets the word's run flag instead of
/// running it: the observer wants the stored value, so the next `didSet` of the property (this
/// write's, or an interleaved one's, after which a later one marks it dirty) runs it.
///
/// `parkedVersion` holds the awaited version's low 48 bits and, in its high 16, the tag of the
/// word it belongs to. While the observer's first run in a slot is still going, it holds
/// ``unclaimableVersion`` (no write starts there; every writer marks the observer dirty).
///
/// Cancellation sets the word's cancel flag; the observer is then released by whoever removes
/// it from the word: the write it waits for, its own run, or the canceller when no write
/// has started from the awaited version yet (then none can claim it any more but one that
/// also sees the flag; they race for the removal).
extension PropertySlot {
  /// The observer ran and may not have seen a later write: it runs again before parking.
  static let dirtyFlag: UInt64 = 0b0100
  /// The observer was cancelled: whoever removes it from the word releases it.
  static let cancelFlag: UInt64 = 0b0010
  /// The write the observer waited for is an announced one, past its `willSet`: the next
  /// `didSet` (or end of a write) of the property runs it. (Bit 0 means "closed" only in a
  /// word with no address; a continuous observer's word always has its kind bit.)
  static let runFlag: UInt64 = 0b0001
  static let flags: UInt64 = dirtyFlag | cancelFlag | runFlag
  static let versionMask: UInt64 = (1 << 48) - 1
  /// A `parkedVersion` no write starts from.
  static let unclaimableVersion: UInt64 = versionMask

  /// The word's value for `observer` (flags clear, tag 0).
  @inline(__always)
  static func continuousWord(for observer: UnsafeMutableRawPointer) -> UInt64 {
    UInt64(UInt(bitPattern: observer)) | continuousKind
  }

  /// Whether `word` holds the observer whose ``continuousWord(for:)`` is `mine`, whatever its
  /// flags and tag.
  @inline(__always)
  static func holds(_ word: UInt64, _ mine: UInt64) -> Bool {
    word & addressMask & ~flags == mine
  }

  /// The observer a continuous word names.
  @inline(__always)
  static func continuousObserver(in word: UInt64) -> UnsafeMutableRawPointer {
    UnsafeMutableRawPointer(bitPattern: UInt(word & addressMask & ~(flags | continuousKind)))
      .unsafelyUnwrapped
  }

  /// Whether `word`, with `awaited` read after it, waits for the version move that starts at
  /// `version`: the two carry the same tag (not a half-updated pair) and the version matches.
  @inline(__always)
  static func isAwaiting(_ word: UInt64, _ awaited: UInt64, from version: UInt64) -> Bool {
    (word ^ awaited) & ~addressMask == 0 && (version ^ awaited) & versionMask == 0
  }

  // MARK: - Writers

  /// A write whose version move started at `old` (the store is done): returns the continuous
  /// observer parked here when this is the write it waits for — the caller runs it — else
  /// nil, having marked a parked one dirty (or released it, cancelled).
  @inline(__always)
  func claimParkedContinuousObserver(from old: UInt64) -> UnsafeMutableRawPointer? {
    let word = parkedRegistration.load(ordering: .sequentiallyConsistent)
    guard word & Self.continuousKind != 0 else { return nil }
    let awaited = parkedVersion.load(ordering: .acquiring)
    if word & Self.flags == 0, Self.isAwaiting(word, awaited, from: old) {
      return Self.continuousObserver(in: word)
    }
    return claimContended(word, from: old)
  }

  /// ``claimParkedContinuousObserver(from:)`` when the word has flags or is not the one this
  /// write waits for.
  @inline(never)
  private func claimContended(_ word: UInt64, from old: UInt64) -> UnsafeMutableRawPointer? {
    var word = word
    while word & Self.continuousKind != 0 {
      let awaited = parkedVersion.load(ordering: .acquiring)
      // Claimed: by the run flag (an announced write's `willSet` found it waiting for that
      // write), or by being the write it waits for.
      let claims =
        word & Self.runFlag != 0
        || Self.isAwaiting(word, awaited, from: old)
      let desired: UInt64
      if claims {
        if word & Self.cancelFlag != 0 {
          desired = word & ~Self.addressMask  // cancelled: remove it, then release it
        } else if word & Self.runFlag != 0 {
          desired = word & ~Self.runFlag
        } else {
          return Self.continuousObserver(in: word)
        }
      } else {
        if word & Self.dirtyFlag != 0 { return nil }
        desired = word | Self.dirtyFlag
      }
      let (exchanged, original) = parkedRegistration.compareExchange(
        expected: word, desired: desired, ordering: .sequentiallyConsistent)
      if exchanged {
        guard claims else { return nil }
        if word & Self.cancelFlag != 0 {
          ContinuousObserver.releaseRemoved(Self.continuousObserver(in: word))
          return nil
        }
        return Self.continuousObserver(in: word)
      }
      word = original
    }
    return nil
  }

  /// An announced write's `willSet` whose version move started at `old`. If the parked
  /// observer waits for this write, it is flagged to run at the property's next `didSet`
  /// instead (it wants to see the stored value); the version it waited for is used up.
  /// Otherwise the observer is running, or parking again — possibly to wait for this very
  /// move, which then nobody would claim — so it is marked dirty, as a write that does not
  /// claim it marks it: it runs again and waits for a later move.
  @inline(__always)
  func reserveParkedContinuousObserver(from old: UInt64) {
    var word = parkedRegistration.load(ordering: .sequentiallyConsistent)
    while word & Self.continuousKind != 0 {
      let awaited = parkedVersion.load(ordering: .acquiring)
      let flag = Self.isAwaiting(word, awaited, from: old) ? Self.runFlag : Self.dirtyFlag
      guard word & flag == 0 else { return }
      let (exchanged, original) = parkedRegistration.compareExchange(
        expected: word, desired: word | flag, ordering: .sequentiallyConsistent)
      if exchanged { return }
      word = original
    }
  }

  // MARK: - The observer

  /// The observer's first park here, during the run that read this property first: takes an
  /// empty word (not closed), waiting for no write yet. `cancelled` carries a cancel flag over
  /// from the slot the observer leaves.
  func occupy(by observer: UnsafeMutableRawPointer, cancelled: Bool) -> Bool {
    let word = parkedRegistration.load(ordering: .relaxed)
    guard word & Self.addressMask == 0 else { return false }
    let tag = (word & ~Self.addressMask) &+ Self.tagUnit
    parkedVersion.store(tag | Self.unclaimableVersion, ordering: .releasing)
    let desired = tag | Self.continuousWord(for: observer) | (cancelled ? Self.cancelFlag : 0)
    return parkedRegistration.compareExchange(
      expected: word, desired: desired, ordering: .sequentiallyConsistent
    ).exchanged
  }

  /// Removes `observer` from the word if it is there; returns whether it was (the caller then
  /// owns the word's retain) and whether it carried the cancel flag.
  func vacate(by observer: UnsafeMutableRawPointer) -> (removed: Bool, cancelled: Bool) {
    let mine = Self.continuousWord(for: observer)
    var word = parkedRegistration.load(ordering: .sequentiallyConsistent)
    while Self.holds(word, mine) {
      let (exchanged, original) = parkedRegistration.compareExchange(
        expected: word, desired: word & ~Self.addressMask, ordering: .sequentiallyConsistent)
      if exchanged { return (true, word & Self.cancelFlag != 0) }
      word = original
    }
    return (false, false)
  }

  /// How ``repark(_:at:honoringDirty:)`` ended.
  enum ReparkOutcome {
    /// Parked, waiting for the write that starts at the version read.
    case parked
    /// A write may have been missed: run again (the flag is cleared).
    case dirty
    /// Cancelled: removed from the word (the caller releases it).
    case cancelled
    /// No longer in the word (its registrar is gone).
    case gone
  }

  /// The observer's run read this property (its parking place) at `version`: parks it again,
  /// waiting for the write that starts there, unless a write marked it dirty meanwhile or it
  /// was cancelled (`cancelRequested`, or the word's flag). When `honoringDirty` is false (the
  /// rerun limit was reached) the changes since are dropped: it waits for the next write from
  /// now on.
  @inline(__always)
  func repark(
    _ observer: UnsafeMutableRawPointer, at version: UInt64, honoringDirty: Bool,
    cancelRequested: () -> Bool
  ) -> ReparkOutcome {
    let mine = Self.continuousWord(for: observer)
    var word = parkedRegistration.load(ordering: .sequentiallyConsistent)
    while Self.holds(word, mine) {
      let desired: UInt64
      let outcome: ReparkOutcome
      if word & Self.cancelFlag != 0 || cancelRequested() {
        (desired, outcome) = (word & ~Self.addressMask, .cancelled)
      } else if honoringDirty && word & Self.dirtyFlag != 0 {
        (desired, outcome) = (word & ~Self.dirtyFlag, .dirty)
      } else if honoringDirty && self.version.load(ordering: .sequentiallyConsistent) != version {
        // A write moved the version after the run's read but before the observer took its
        // place here (its first park, or a new place): nobody was there to claim or mark it.
        (desired, outcome) = (word, .dirty)
      } else {
        let tag = (word & ~Self.addressMask) &+ Self.tagUnit
        let awaited =
          honoringDirty ? version : self.version.load(ordering: .sequentiallyConsistent)
        parkedVersion.store(tag | (awaited & Self.versionMask), ordering: .releasing)
        (desired, outcome) = (tag | mine, .parked)
      }
      let (exchanged, original) = parkedRegistration.compareExchange(
        expected: word, desired: desired, ordering: .sequentiallyConsistent)
      if exchanged { return outcome }
      word = original
    }
    return .gone
  }

  /// A cancellation (graph lock held): flags `observer` cancelled in the word and removes it
  /// when no write has started from the version it waits for (then returns true: the caller
  /// releases it). Otherwise whoever removes it later releases it.
  func flagCancelled(_ observer: UnsafeMutableRawPointer) -> Bool {
    let mine = Self.continuousWord(for: observer)
    var word = parkedRegistration.load(ordering: .sequentiallyConsistent)
    while Self.holds(word, mine) {
      let flagged = word | Self.cancelFlag
      let (exchanged, original) = parkedRegistration.compareExchange(
        expected: word, desired: flagged, ordering: .sequentiallyConsistent)
      guard exchanged else {
        word = original
        continue
      }
      let awaited = parkedVersion.load(ordering: .sequentiallyConsistent)
      let now = version.load(ordering: .sequentiallyConsistent)
      // Still waiting for the move from `now`: no write started there yet. Otherwise a write
      // claimed it, or its run is parking it: they release it.
      guard Self.isAwaiting(flagged, awaited, from: now) else { return false }
      return parkedRegistration.compareExchange(
        expected: flagged, desired: flagged & ~Self.addressMask, ordering: .sequentiallyConsistent
      ).exchanged
    }
    return false
  }
}
