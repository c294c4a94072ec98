/// The `@Observable` macro's rule for "did this assignment change anything?", for hand-written
/// accessors and `@Tracked`.
///
/// The overload is chosen statically from the property's declared type, exactly as the macro's
/// generated `shouldNotifyObservers` overloads are: a generic `T` property always notifies.
/// - Equatable values: notify when `!=` (so `Double.nan` always notifies).
/// - Class references that are not Equatable: notify when `!==`.
/// - Equatable classes: notify when `!=` (a different but `==` instance does not notify —
///   the macro's documented footgun, kept for parity).
/// - Anything else: always notify.
public enum ObservationEquality {
  /// Any type without equality: always notify.
  @inlinable @inline(__always)
  public static func shouldNotify<Value>(_ oldValue: Value, _ newValue: Value) -> Bool { true }

  /// Equatable values notify when they differ.
  @inlinable @inline(__always)
  public static func shouldNotify<Value: Equatable>(_ oldValue: Value, _ newValue: Value) -> Bool {
    oldValue != newValue
  }

  /// Class references notify when the identity changes.
  @inlinable @inline(__always)
  public static func shouldNotify<Value: AnyObject>(_ oldValue: Value, _ newValue: Value) -> Bool {
    oldValue !== newValue
  }

  /// Equatable classes compare with `==`, as the macro does.
  @inlinable @inline(__always)
  public static func shouldNotify<Value: Equatable & AnyObject>(
    _ oldValue: Value, _ newValue: Value
  ) -> Bool {
    oldValue != newValue
  }
}

/// A registrar whose mutations a setter can announce with a key-path autoclosure forwarded as
/// is (so its call-site identity is kept): ``ObservationRegistrar`` and, on the main actor,
/// ``MainActorObservationRegistrar``. It gives both the equality-rule setters below. Not for
/// direct use.
public protocol _ObservationMutationAnnouncing {
  /// Runs `mutation` as a change of the property `keyPath` names (see
  /// `ObservationRegistrar._withMutation(of:keyPathProvider:_:)`).
  func _withMutation<Subject: Observable, Member, T>(
    of subject: Subject, keyPathProvider keyPath: () -> KeyPath<Subject, Member>,
    _ mutation: () throws -> T
  ) rethrows -> T
}

extension ObservationRegistrar: _ObservationMutationAnnouncing {}

extension MainActorObservationRegistrar: @MainActor _ObservationMutationAnnouncing {}

extension _ObservationMutationAnnouncing {
  /// A hand-written setter with the macro's equality rule.
  ///
  /// Runs `store` inside the registrar's `withMutation(of:keyPath:_:)` when
  /// ``ObservationEquality`` says `newValue` differs from `oldValue`, and runs it without
  /// notifying otherwise (so user `willSet`/`didSet` logic in `store` still runs, as with the
  /// macro). Write setters as
  /// `set { _registrar.withMutation(of: self, keyPath: \.name, replacing: _name, with: newValue) { _name = newValue } }`.
  @inlinable @inline(__always)
  public func withMutation<Subject: Observable, Member>(
    of subject: Subject, keyPath: @autoclosure () -> KeyPath<Subject, Member>,
    replacing oldValue: Member,
    with newValue: Member, _ store: () -> Void
  ) {
    if ObservationEquality.shouldNotify(oldValue, newValue) {
      _withMutation(of: subject, keyPathProvider: keyPath, store)
    } else {
      store()
    }
  }

  /// Equatable overload of ``withMutation(of:keyPath:replacing:with:_:)``.
  @inlinable @inline(__always)
  public func withMutation<Subject: Observable, Member: Equatable>(
    of subject: Subject, keyPath: @autoclosure () -> KeyPath<Subject, Member>,
    replacing oldValue: Member,
    with newValue: Member, _ store: () -> Void
  ) {
    if ObservationEquality.shouldNotify(oldValue, newValue) {
      _withMutation(of: subject, keyPathProvider: keyPath, store)
    } else {
      store()
    }
  }

  /// Class-identity overload of ``withMutation(of:keyPath:replacing:with:_:)``.
  @inlinable @inline(__always)
  public func withMutation<Subject: Observable, Member: AnyObject>(
    of subject: Subject, keyPath: @autoclosure () -> KeyPath<Subject, Member>,
    replacing oldValue: Member,
    with newValue: Member, _ store: () -> Void
  ) {
    if ObservationEquality.shouldNotify(oldValue, newValue) {
      _withMutation(of: subject, keyPathProvider: keyPath, store)
    } else {
      store()
    }
  }

  /// Equatable-class overload of ``withMutation(of:keyPath:replacing:with:_:)``.
  @inlinable @inline(__always)
  public func withMutation<Subject: Observable, Member: Equatable & AnyObject>(
    of subject: Subject, keyPath: @autoclosure () -> KeyPath<Subject, Member>,
    replacing oldValue: Member,
    with newValue: Member, _ store: () -> Void
  ) {
    if ObservationEquality.shouldNotify(oldValue, newValue) {
      _withMutation(of: subject, keyPathProvider: keyPath, store)
    } else {
      store()
    }
  }
}
