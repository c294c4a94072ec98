/// A cached handle to one observed property of one registrar, for accessors that can keep
/// per-instance state next to the value (`@Tracked` does): once set, a mutation finds the
/// property without materialising or comparing its key path.
///
/// Store one per property inside the observed object, starting as `_ObservedPropertyToken()`,
/// and pass it to ``ObservationRegistrar/_withMutation(of:keyPath:token:_:)``. Valid only with
/// the registrar and key path it was filled for. Not for general use.
public struct _ObservedPropertyToken: Sendable {
  @usableFromInline nonisolated(unsafe) var slot: Unmanaged<PropertySlot>?

  /// An empty token.
  @inlinable public init() { slot = nil }

  /// Whether the token has been filled.
  @inlinable public var isFilled: Bool { slot != nil }
}

extension ObservationRegistrar {
  /// ``withMutation(of:keyPath:_:)`` with a property token: the first observed mutation fills
  /// `token`; later ones use it directly. The slot a token refers to lives as long as this
  /// registrar, so the token must live inside the same object.
  @inlinable @inline(__always)
  public func _withMutation<Subject: Observable, Member, T>(
    of subject: Subject, keyPath: @autoclosure () -> KeyPath<Subject, Member>,
    token: inout _ObservedPropertyToken, _ mutation: () throws -> T
  ) rethrows -> T {
    guard storage.hasSlots else {
      let result = try mutation()
      if storage.hasSlots { storage.lateMutation(site: nil, keyPath: { keyPath() }) }
      return result
    }
    let slot: Unmanaged<PropertySlot>
    if let cached = token.slot {
      slot = cached
    } else {
      slot = storage.slot(site: nil, keyPath: { keyPath() })
      token.slot = slot
    }
    storage.willSet(slot)
    defer { storage.didSet(slot) }
    return try mutation()
  }
}

extension ObservationRegistrar {
  /// ``willSet(_:keyPath:)`` with a property token (for `_modify` accessors); pair it with
  /// ``_didSet(_:keyPath:token:)``.
  @inlinable @inline(__always)
  public func _willSet<Subject: Observable, Member>(
    _ subject: Subject, keyPath: @autoclosure () -> KeyPath<Subject, Member>,
    token: inout _ObservedPropertyToken
  ) {
    guard storage.hasSlots else { return }
    if token.slot == nil { token.slot = storage.slot(site: nil, keyPath: { keyPath() }) }
    storage.willSet(token.slot!)
  }

  /// ``didSet(_:keyPath:)`` with the token ``_willSet(_:keyPath:token:)`` used.
  @inlinable @inline(__always)
  public func _didSet<Subject: Observable, Member>(
    _ subject: Subject, keyPath: @autoclosure () -> KeyPath<Subject, Member>,
    token: _ObservedPropertyToken
  ) {
    if let slot = token.slot {
      storage.didSet(slot)
    } else if storage.hasSlots {
      storage.lateMutation(site: nil, keyPath: { keyPath() })
    }
  }
}
