import CReactiveState

/// Records reads of an observable object's properties and notifies observers of writes.
///
/// A drop-in replacement for the toolchain's `Observation.ObservationRegistrar` (same
/// members and semantics): store one per observable object and call it from every
/// observable property's accessors.
///
/// ```swift
/// final class Model: Observable {
///   private let registrar = ObservationRegistrar()
///   private var _name = ""
///   var name: String {
///     get { registrar.access(self, keyPath: \.name); return _name }
///     set { registrar.withMutation(of: self, keyPath: \.name) { _name = newValue } }
///   }
/// }
/// ```
///
/// The key-path parameters are autoclosures: a call written exactly like Observation's
/// (`registrar.access(self, keyPath: \.name)`) compiles unchanged, and the key path is only
/// materialised (≈25 ns for a literal on this toolchain) when it is needed — inside a
/// tracking scope, or when the object has observed properties.
///
/// Identity of an observed property is (registrar instance, key-path value); the `subject`
/// argument is ignored, as in Observation. Costs: an untracked read or a write of an object
/// that was never observed is a thread-local or atomic load and a branch; bookkeeping starts
/// at the first tracked read of a property. Like Observation's, the registrar is equal to and
/// hashes like every other registrar and encodes nothing, so it never affects its host's
/// synthesized `Equatable`, `Hashable` or `Codable` conformances.
public struct ObservationRegistrar: Sendable {
  @usableFromInline let storage: RegistrarStorage

  /// Creates a registrar for one observable object.
  public init() { storage = RegistrarStorage() }

  /// The registrar behind a ``MainActorObservationRegistrar``.
  init(confinedToMainThread: Void) { storage = RegistrarStorage(confinedToMainThread: ()) }

  /// Records a read of `keyPath` when called inside a tracking scope; otherwise does nothing.
  @inlinable @inline(__always)
  public func access<Subject: Observable, Member>(
    _ subject: Subject, keyPath: @autoclosure () -> KeyPath<Subject, Member>
  ) {
    _access(subject, keyPathProvider: keyPath)
  }

  /// ``access(_:keyPath:)`` for wrappers that received the key path as an autoclosure
  /// themselves (forwarding it as is keeps its call-site identity).
  @inlinable @inline(__always)
  public func _access<Subject: Observable, Member>(
    _ subject: Subject, keyPathProvider keyPath: () -> KeyPath<Subject, Member>
  ) {
    if let scope = rs_current_scope() {
      let site = callSiteIdentity(keyPath)
      if !isRepeatedRead(at: site, in: scope) {
        Unmanaged<TrackingScope>.fromOpaque(scope)._withUnsafeGuaranteedRef {
          storage.recordAccess(site: site, keyPath: { keyPath() }, in: $0)
        }
      }
    }
  }

  /// Whether `scope`'s last recorded read was of this registrar at `site` (a call site, or a
  /// slot's address): a repeated read costs two compares and no call.
  @inlinable @inline(__always)
  func isRepeatedRead(at site: UnsafeRawPointer?, in scope: UnsafeMutableRawPointer) -> Bool {
    guard let site else { return false }
    let storagePointer = UInt(bitPattern: Unmanaged.passUnretained(storage).toOpaque())
    return Unmanaged<TrackingScope>.fromOpaque(scope)._withUnsafeGuaranteedRef {
      $0.lastSite == UInt(bitPattern: site) && $0.lastStorage == storagePointer
        && $0.lastStorageEpoch == rs_storage_epoch_load()
    }
  }

  /// Announces that `keyPath` is about to change: one-shot observers of it fire now, before
  /// the caller stores the new value.
  @inlinable @inline(__always)
  public func willSet<Subject: Observable, Member>(
    _ subject: Subject, keyPath: @autoclosure () -> KeyPath<Subject, Member>
  ) {
    _willSet(subject, keyPathProvider: keyPath)
  }

  /// ``willSet(_:keyPath:)`` for wrappers that forward a key-path autoclosure.
  @inlinable @inline(__always)
  public func _willSet<Subject: Observable, Member>(
    _ subject: Subject, keyPathProvider keyPath: () -> KeyPath<Subject, Member>
  ) {
    if storage.hasSlots {
      _ = storage.willSet(site: callSiteIdentity(keyPath), keyPath: { keyPath() })
    }
  }

  /// Announces that `keyPath` has changed (the new value is stored): post-change observers
  /// run now. Ends a ``willSet(_:keyPath:)`` of the same property, on any thread. A `didSet`
  /// without one is not supported: pending one-shots fire, and after an earlier announced
  /// write of the property it also looks written (a write in flight) until its next write.
  @inlinable @inline(__always)
  public func didSet<Subject: Observable, Member>(
    _ subject: Subject, keyPath: @autoclosure () -> KeyPath<Subject, Member>
  ) {
    _didSet(subject, keyPathProvider: keyPath)
  }

  /// ``didSet(_:keyPath:)`` for wrappers that forward a key-path autoclosure.
  @inlinable @inline(__always)
  public func _didSet<Subject: Observable, Member>(
    _ subject: Subject, keyPathProvider keyPath: () -> KeyPath<Subject, Member>
  ) {
    if storage.hasSlots {
      storage.didSetOfPair(storage.slot(site: callSiteIdentity(keyPath), keyPath: { keyPath() }))
    }
  }

  /// Runs `mutation` between ``willSet(_:keyPath:)`` and ``didSet(_:keyPath:)``; `didSet`
  /// runs even when `mutation` throws.
  @inlinable @inline(__always)
  public func withMutation<Subject: Observable, Member, T>(
    of subject: Subject, keyPath: @autoclosure () -> KeyPath<Subject, Member>,
    _ mutation: () throws -> T
  ) rethrows -> T {
    try _withMutation(of: subject, keyPathProvider: keyPath, mutation)
  }

  /// ``withMutation(of:keyPath:_:)`` for wrappers that received the key path as an autoclosure
  /// themselves: forwarding `keyPath` as is keeps its call-site identity (re-wrapping it as
  /// `keyPath()` would hide it and materialise the key path on every write).
  @inlinable @inline(__always)
  public func _withMutation<Subject: Observable, Member, T>(
    of subject: Subject, keyPathProvider keyPath: () -> KeyPath<Subject, Member>,
    _ mutation: () throws -> T
  ) rethrows -> T {
    guard storage.hasSlots else {
      let result = try mutation()
      // A first tracked read may have started meanwhile on another thread.
      if storage.hasSlots {
        storage.lateMutation(site: callSiteIdentity(keyPath), keyPath: { keyPath() })
      }
      return result
    }
    let (slot, announced) = storage.beginWrite(
      site: callSiteIdentity(keyPath), keyPath: { keyPath() })
    defer { storage.didSet(slot, announced: announced) }
    return try mutation()
  }
}

extension ObservationRegistrar: Codable {
  /// Decodes nothing: a decoded registrar is a fresh one.
  public init(from decoder: any Decoder) throws { self.init() }

  /// Encodes nothing.
  public func encode(to encoder: any Encoder) {}
}

extension ObservationRegistrar: Hashable {
  /// Always true: registrars never make their hosts unequal.
  public static func == (lhs: Self, rhs: Self) -> Bool { true }

  /// Hashes nothing.
  public func hash(into hasher: inout Hasher) {}
}
