import CReactiveState

/// A cached handle to one observed property of one registrar, for accessors that can keep
/// per-instance state next to the value (`@Tracked` does): once set, a mutation finds the
/// property without materialising or comparing its key path.
///
/// Store one per property inside the observed object, starting as `_ObservedPropertyToken()`,
/// and pass it to ``ObservationRegistrar/_withMutation(of:keyPath:token:_:)``. Valid only with
/// the registrar and key path it was filled for: a token that reaches another registrar (its
/// storage copied into another object, even one allocated where a released object was) is
/// ignored there and refilled. A token copied to another property of the same object (with
/// its storage: `_a = _b`) is not detected in optimised builds: that property's reads and
/// writes then go to the other one's slot. Debug builds report such a write as a diagnostic.
/// Not for general use.
public struct _ObservedPropertyToken: Sendable {
  @usableFromInline nonisolated(unsafe) var filledSlot: Unmanaged<PropertySlot>?
  /// The serial of the registrar the slot belongs to (``PropertySlot/registrarSerial``; 0
  /// when empty). A serial, not the registrar's address: an address can be reused.
  @usableFromInline var owner: UInt64

  /// An empty token.
  @inlinable public init() {
    filledSlot = nil
    owner = 0
  }

  /// Whether the token has been filled.
  @inlinable public var isFilled: Bool { filledSlot != nil }

  /// The filled slot's identity (to tell whether a call refilled the token).
  @inlinable public var _identity: UnsafeRawPointer? {
    filledSlot.map { UnsafeRawPointer($0.toOpaque()) }
  }

  /// The slot, when the token was filled for `storage`.
  @inlinable @inline(__always)
  func slot(in storage: RegistrarStorage) -> Unmanaged<PropertySlot>? {
    owner != 0 && owner == storage.serial ? filledSlot : nil
  }

  /// The slot of `storage` the token names, filling it first when it is empty or was filled
  /// for another registrar.
  @inlinable @inline(__always)
  mutating func filledSlot(in storage: RegistrarStorage, keyPath: () -> AnyKeyPath)
    -> Unmanaged<PropertySlot>
  {
    if let cached = slot(in: storage) {
      if BuildConfiguration.isUnoptimised { storage.checkToken(naming: cached, for: keyPath()) }
      return cached
    }
    let slot = storage.slot(site: nil, keyPath: keyPath)
    filledSlot = slot
    owner = slot._withUnsafeGuaranteedRef { $0.registrarSerial }
    return slot
  }
}

extension ObservationRegistrar {
  /// ``access(_:keyPath:)`` with a property token: a filled token names the slot directly;
  /// an empty one falls back to a lookup by call site. Both arguments are evaluated only inside a
  /// tracking scope, and neither is kept (no closure context is allocated for a `keyPath`
  /// that is not a literal).
  @inlinable @inline(__always)
  public func _access<Subject: Observable, Member>(
    _ subject: Subject, keyPath: @autoclosure () -> KeyPath<Subject, Member>,
    token: @autoclosure () -> _ObservedPropertyToken
  ) {
    guard let scope = rs_current_scope() else { return }
    let slot = token().slot(in: storage)
    // A filled token's slot address stands in for a call site (it cannot equal a code
    // address): either way a repeated read is two compares.
    let site =
      slot.map { UnsafeRawPointer($0.toOpaque()) } ?? callSiteIdentity(keyPath)
    if isRepeatedRead(at: site, in: scope) { return }
    if let slot {
      storage.recordAccess(slot, in: scope)
    } else {
      Unmanaged<TrackingScope>.fromOpaque(scope)._withUnsafeGuaranteedRef {
        storage.recordAccess(site: site, keyPath: { keyPath() }, in: $0)
      }
    }
  }

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
    let slot = token.filledSlot(in: storage, keyPath: { keyPath() })
    let announced = storage.beginWrite(slot)
    defer { storage.didSet(slot, announced: announced) }
    return try mutation()
  }
}

extension ObservationRegistrar {
  /// The start of an in-place mutation (a `_modify` accessor) with a property token: records
  /// a read when tracking, then announces the change. Pair it with
  /// ``_didModify(token:)`` after the yield.
  ///
  /// `keyPath` is used only to fill an empty token (once per property), so an optimised
  /// accessor never materialises it afterwards. When the object was never observed and no
  /// scope is tracking, nothing happens and the token stays empty.
  @inlinable @inline(__always)
  public func _willModify<Subject: Observable, Member>(
    _ subject: Subject, keyPath: @autoclosure () -> KeyPath<Subject, Member>,
    token: inout _ObservedPropertyToken
  ) {
    let scope = rs_current_scope()
    guard scope != nil || storage.hasSlots else { return }
    let slot = token.filledSlot(in: storage, keyPath: { keyPath() })
    if let scope { storage.recordAccess(slot, in: scope) }
    storage.willSet(slot)
  }

  /// The end of an in-place mutation begun with ``_willModify(_:keyPath:token:)``: announces
  /// the stored change when the start did (the token is filled then).
  ///
  /// Unlike ``withMutation(of:keyPath:_:)``, it does not look for a first observation that
  /// started on another thread during the mutation: only a read of the same property could
  /// care, and that read would race with the in-place mutation of its storage.
  @inlinable @inline(__always)
  public func _didModify(token: _ObservedPropertyToken) {
    if let slot = token.slot(in: storage) { storage.didSet(slot) }
  }
}

extension RegistrarStorage {
  /// Debug builds: reports a token that names another property's slot than the one written
  /// (its storage was assigned from another property of the same object).
  @usableFromInline @inline(never)
  func checkToken(naming slot: Unmanaged<PropertySlot>, for keyPath: AnyKeyPath) {
    let named = slot._withUnsafeGuaranteedRef { $0.keyPath }
    guard named != keyPath else { return }
    ObservationDiagnostics.report(
      "A write of \(keyPath) notifies observers of \(named): its storage was assigned from "
        + "that property's (`_a = _b` with @Tracked), and its cached slot went with it. To fix: "
        + "assign the value (`a = b`), not the property wrapper's storage")
  }
}
