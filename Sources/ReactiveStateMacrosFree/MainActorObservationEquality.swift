import ReactiveState

extension MainActorObservationRegistrar {
  /// A hand-written setter with the macro's equality rule, as on `ObservationRegistrar`: runs
  /// `store` as a mutation when ``ObservationEquality`` says `newValue` differs from
  /// `oldValue`, and without notifying otherwise (user `willSet`/`didSet` logic in `store`
  /// still runs).
  @inlinable @inline(__always)
  public func withMutation<Subject: Observable, Member>(
    of subject: Subject, keyPath: @autoclosure () -> KeyPath<Subject, Member>,
    replacing oldValue: Member, with newValue: Member, _ store: () -> Void
  ) {
    guard ObservationEquality.shouldNotify(oldValue, newValue) else { return store() }
    _withMutation(of: subject, keyPathProvider: keyPath, store)
  }

  /// Equatable overload of ``withMutation(of:keyPath:replacing:with:_:)``.
  @inlinable @inline(__always)
  public func withMutation<Subject: Observable, Member: Equatable>(
    of subject: Subject, keyPath: @autoclosure () -> KeyPath<Subject, Member>,
    replacing oldValue: Member, with newValue: Member, _ store: () -> Void
  ) {
    guard ObservationEquality.shouldNotify(oldValue, newValue) else { return store() }
    _withMutation(of: subject, keyPathProvider: keyPath, store)
  }

  /// Class-identity overload of ``withMutation(of:keyPath:replacing:with:_:)``.
  @inlinable @inline(__always)
  public func withMutation<Subject: Observable, Member: AnyObject>(
    of subject: Subject, keyPath: @autoclosure () -> KeyPath<Subject, Member>,
    replacing oldValue: Member, with newValue: Member, _ store: () -> Void
  ) {
    guard ObservationEquality.shouldNotify(oldValue, newValue) else { return store() }
    _withMutation(of: subject, keyPathProvider: keyPath, store)
  }

  /// Equatable-class overload of ``withMutation(of:keyPath:replacing:with:_:)``.
  @inlinable @inline(__always)
  public func withMutation<Subject: Observable, Member: Equatable & AnyObject>(
    of subject: Subject, keyPath: @autoclosure () -> KeyPath<Subject, Member>,
    replacing oldValue: Member, with newValue: Member, _ store: () -> Void
  ) {
    guard ObservationEquality.shouldNotify(oldValue, newValue) else { return store() }
    _withMutation(of: subject, keyPathProvider: keyPath, store)
  }
}
