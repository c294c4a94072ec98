import Synchronization

/// Namespace of the event-based observation API (SE-0506's shape, available on Swift 6.3).
public struct ObservationTracking: Sendable {
  /// Which events an observer wants: `.willSet` (before the store), `.didSet` (after it),
  /// `.deinit` (an observed object was deallocated).
  public struct Options: OptionSet, Sendable, Hashable {
    /// The option bits.
    public let rawValue: UInt8

    /// Creates options from their raw bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Deliver an event before the new value is stored (the old value is still visible).
    public static let willSet = Options(rawValue: 1)
    /// Deliver an event after the new value is stored.
    public static let didSet = Options(rawValue: 2)
    /// Deliver an event when an observed object is deallocated.
    public static let `deinit` = Options(rawValue: 4)
  }

  /// One delivered event.
  ///
  /// Deliberate difference from SE-0506: `Event` is copyable (SE-0506 makes it `~Copyable`),
  /// so it can be captured and stored; `cancel()` has the same effect either way.
  public struct Event: Sendable {
    /// What happened.
    public struct Kind: Equatable, Sendable, CustomStringConvertible {
      let rawValue: UInt8
      /// The first run of a continuous observation.
      public static let initial = Kind(rawValue: 0)
      /// A tracked property is about to change.
      public static let willSet = Kind(rawValue: 1)
      /// A tracked property changed.
      public static let didSet = Kind(rawValue: 2)
      /// A tracked object was deallocated.
      public static let `deinit` = Kind(rawValue: 3)

      /// The kind's name: `initial`, `willSet`, `didSet` or `deinit`.
      public var description: String { ["initial", "willSet", "didSet", "deinit"][Int(rawValue)] }
    }

    /// What happened.
    public let kind: Kind
    // Key paths are immutable once built; AnyKeyPath is just not marked Sendable.
    nonisolated(unsafe) let keyPath: AnyKeyPath?
    let canceller: (any EventCanceller)?

    /// Whether this `.willSet`/`.didSet` event is about `keyPath` (compared by value, so
    /// `\Model.name` matches however it was spelled). Never true for `.initial`/`.deinit`.
    public func matches(_ keyPath: AnyKeyPath) -> Bool {
      guard kind == .willSet || kind == .didSet, let own = self.keyPath else { return false }
      return own == keyPath
    }

    /// Ends the observation: no further event is delivered (a `.didSet` paired with this
    /// `.willSet` included). A continuous observation's body, and what it captured, stay until
    /// its token is cancelled or released.
    public func cancel() { canceller?.cancelObservation() }
  }

  /// Keeps a continuous observation alive; it ends on ``ObservationToken/cancel()`` or when
  /// the token is deallocated.
  public typealias Token = ObservationToken
}

/// Something an ``ObservationTracking/Event`` can cancel.
protocol EventCanceller: AnyObject, Sendable {
  func cancelObservation()
}

/// Keeps an observation alive. Deallocating the token, or calling ``cancel()``, ends it, and
/// every registration is removed. No change committed after `cancel()` returns runs the
/// callback, nor does a change the cancelling thread is delivering. `cancel()` does not wait
/// for other threads (a wait could deadlock a callback that needs a lock the canceller
/// holds): a callback already running on another thread may finish, and one whose run
/// another thread had begun to deliver when `cancel()` was called may still start once,
/// right after it returns. Cancel on the thread that runs the callback (the main actor, for a
/// main-actor observer) to rule that out.
///
/// Cancelling also lets go of the observation: its body, and what the body captured, are
/// released as soon as no run of it is left (at once, unless one is running on another
/// thread), so a reference cycle through the body (an object that keeps the token of an
/// observation capturing that object) ends with `cancel()`.
///
/// Deliberate difference from SE-0506: the token is a class (SE-0506's is `~Copyable`), so
/// tokens can be kept in arrays and sets.
public final class ObservationToken: Sendable, Hashable {
  /// The observer this token ends (its address, owning one retain), 0 once cancelled or when
  /// the observation registered nothing. Cleared under the graph lock, in the same hold as the
  /// cancellation and after it: whoever sees 0 sees the observation cancelled.
  private let observerAddress: Atomic<UInt>

  /// A token for `observer`; nil for an observation that registered nothing.
  init(_ observer: ContinuousObserver?) {
    observerAddress = Atomic(
      observer.map { UInt(bitPattern: Unmanaged.passRetained($0).toOpaque()) } ?? 0)
  }

  /// Ends the observation and lets go of it. Idempotent.
  public func cancel() {
    if observerAddress.load(ordering: .acquiring) == 0 { return }
    GraphLock.lock()
    guard let raw = UnsafeMutableRawPointer(bitPattern: observerAddress.load(ordering: .relaxed))
    else {
      GraphLock.unlock()
      return
    }
    let observer = Unmanaged<ContinuousObserver>.fromOpaque(raw)
    let aftermath = observer._withUnsafeGuaranteedRef { $0.cancelHoldingLock() }
    observerAddress.store(0, ordering: .releasing)
    GraphLock.unlock()
    observer._withUnsafeGuaranteedRef { $0.finishCancellation(aftermath) }
    // The token's retain ends after the lock: the body's captures may take it as they go.
    observer.release()
  }

  deinit { cancel() }

  /// Tokens are equal only to themselves.
  public static func == (lhs: ObservationToken, rhs: ObservationToken) -> Bool { lhs === rhs }

  /// Hashes the token's identity.
  public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

  /// Stores the token in a collection (`token.store(in: &tokens)`), Combine-style.
  public func store(in collection: inout Set<ObservationToken>) { collection.insert(self) }
}
