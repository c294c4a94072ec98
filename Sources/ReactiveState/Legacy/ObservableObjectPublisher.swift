/// The publisher behind ``ObservableObject/objectWillChange``, shaped like Combine's.
///
/// Contract:
/// - ``send()`` calls every current subscriber once, synchronously, on the calling thread, in
///   subscription order, with no lock held (subscribers may subscribe, cancel or send again).
/// - ``sink(receiveValue:)`` subscribes until the returned ``AnyCancellable`` is cancelled or
///   deallocated. Thread-safe.
/// - It carries no value (`Output == Void`) and never fails: "something in this object is about
///   to change", not what.
public final class ObservableObjectPublisher: @unchecked Sendable {
  /// The element type: a bare "will change" signal.
  public typealias Output = Void
  /// This publisher never fails.
  public typealias Failure = Never

  private let subscribers = SubscriberList<Void>()

  /// Creates a publisher with no subscribers.
  public init() {}

  /// Notifies every subscriber that the object is about to change.
  public func send() {
    subscribers.send(())
  }

  /// Subscribes `receiveValue`, called on every ``send()`` until the returned token is cancelled
  /// or deallocated. Write either `sink { … }` or `sink { _ in … }`.
  public func sink(receiveValue: @escaping (()) -> Void) -> AnyCancellable {
    subscribers.subscribe(receiveValue)
  }

  /// The number of live subscriptions (diagnostics and tests).
  public var subscriberCount: Int { subscribers.count }
}
