import ReactiveState
import Synchronization

/// A class's cached computed property: a `Computed` of the instance, created on first access.
///
/// ```swift
/// final class Cart: TrackedObservable, @unchecked Sendable {
///   let observationRegistrar = ObservationRegistrar()
///   @Tracked var prices: [Int] = []
///   @Derived({ (cart: Cart) in cart.prices.reduce(0, +) }) var total: Int
/// }
/// ```
///
/// Contract:
/// - **Lazy and cached**: the derivation runs on the first read of the property and again
///   only when something it read changed and the property is read again.
/// - **Observed like a stored property**, with equality cut-off: reading it in a tracking
///   scope is a dependency, and a recomputation whose result is `==` the cached one (for
///   `Equatable` values; or under `isEqual`) changes nothing downstream and is dropped: reads
///   keep returning the cached value until a result differs from it. Other values count
///   every recomputation as a change.
/// - **Read-only**; the derivation receives the instance and must not write to it.
/// - **In the class's `deinit`**, a value that needs recomputing is computed on the spot and
///   not cached (the weakly held instance is gone by then); a current one is read as usual.
/// - **Any thread**: the first access creates the value once even when several threads race
///   to it (the losers' candidates are discarded unused).
/// - **Lifetime**: the value holds the instance weakly — no cycle — and the instance may be
///   released while another thread computes it (see `Computed.init(_:of:isEqual:_:)`).
/// - `$property` is the underlying `Computed` (e.g. to pass it on, or to read it with `get()`).
/// - Diagnostics (a derivation that reads itself) name the property by its class, its type
///   and where it is declared, such as `@Derived Cart.Int at MyApp/Cart.swift:12`. The read
///   that closes the cycle (and a derivation that throws) traps in the getter: read through
///   `$property.get()` to handle it.
/// - A read of a current value costs a load, a branch and the `Computed` read; the first read
///   of each instance's property creates its `Computed`.
/// - Classes only, as `@Tracked`: the instance reaches the wrapper through the
///   enclosing-instance subscript, so a struct's use is a compile error.
/// - **Storage assigned from another instance** (`_total = other._total`, as a copying
///   initialiser might do) is shared: the first instance to read the property keeps the
///   cached `Computed`; the others' reads compute on the spot, uncached (their reads are
///   tracked directly), their `$total` is a new `Computed` each time, and a diagnostic names
///   the property. The instance is known by its address, so an instance allocated where the
///   first one was released, holding the same storage, is taken for it. Leave the storage
///   out of such an initialiser: each instance makes its own.
@propertyWrapper
public struct Derived<Host: AnyObject, Value> {
  @usableFromInline let storage: _DerivedStorage<Host, Value>

  /// A property without equality cut-off: every recomputation counts as a change.
  @inlinable
  public init(
    _ derive: @escaping (Host) -> Value, fileID: StaticString = #fileID, line: UInt = #line
  ) {
    self.init(isEqual: { _, _ in false }, derive, fileID: fileID, line: line)
  }

  /// A property whose recomputations are cut off when `isEqual(old, new)`.
  @inlinable
  public init(
    isEqual: @escaping (Value, Value) -> Bool, _ derive: @escaping (Host) -> Value,
    fileID: StaticString = #fileID, line: UInt = #line
  ) {
    storage = _DerivedStorage(derive, fileID: fileID, line: line) { host, name in
      Computed(name, of: host, isEqual: isEqual, derive)
    }
  }

  /// Unavailable: `@Derived` is only usable on properties of classes.
  @available(*, unavailable, message: "@Derived is only available on properties of classes")
  public var wrappedValue: Value { fatalError("unreachable") }

  /// The getter of a `@Derived` class property (called by the compiler, not by users).
  /// Forced inline, as `Tracked`'s accessors: only inlined into the property's getter do the
  /// key paths become literals the optimizer folds into a field access.
  @inlinable @inline(__always)
  public static subscript(
    _enclosingInstance host: Host,
    wrapped wrapped: KeyPath<Host, Value>,
    storage storage: ReferenceWritableKeyPath<Host, Derived<Host, Value>>
  ) -> Value {
    let derived = Unmanaged.passUnretained(host[keyPath: storage].storage)
    do {
      // Unretained: the host owns its storage, which owns the value.
      guard let value = derived._withUnsafeGuaranteedRef({ $0.computed(of: host) }) else {
        return derived.takeUnretainedValue().deriveForCopiedStorage(host)
      }
      return try value._withUnsafeGuaranteedRef { try $0.get() }
    } catch is DerivedObjectReleased {
      // Only inside the host's deinitialiser: computed on the spot, not cached.
      return derived.takeUnretainedValue().derive(host)
    } catch {
      fatalError("\(error)")
    }
  }

  /// Unavailable: `$property` is only available on properties of classes.
  @available(*, unavailable, message: "@Derived is only available on properties of classes")
  public var projectedValue: Computed<Value> { fatalError("unreachable") }

  /// `$property`: the property's `Computed` (called by the compiler).
  @inlinable
  public static subscript(
    _enclosingInstance host: Host,
    projected projected: KeyPath<Host, Computed<Value>>,
    storage storage: ReferenceWritableKeyPath<Host, Derived<Host, Value>>
  ) -> Computed<Value> {
    let derived = host[keyPath: storage].storage
    return derived.computed(of: host)?.takeUnretainedValue() ?? derived.uncached(for: host)
  }
}

extension Derived where Value: Equatable {
  /// A property with `==` equality cut-off.
  @inlinable
  public init(
    _ derive: @escaping (Host) -> Value, fileID: StaticString = #fileID, line: UInt = #line
  ) {
    storage = _DerivedStorage(derive, fileID: fileID, line: line) { host, name in
      Computed(name, of: host, derive)
    }
  }
}

/// The storage of a ``Derived`` property: its `Computed`, created once on first access. Not
/// for direct use.
public final class _DerivedStorage<Host: AnyObject, Value>: @unchecked Sendable {
  /// The derivation.
  @usableFromInline let derive: (Host) -> Value
  /// Makes the value for an instance and a diagnostic name.
  private let make: (Host, String) -> Computed<Value>
  /// Where the property is declared (for its diagnostic name).
  private let fileID: StaticString
  private let line: UInt
  /// The value's address, retained, once created (0 before).
  private let created = Atomic<UInt>(0)
  /// The address of the instance the value derives from (the first to read it), claimed
  /// before the value is published (0 before). Other instances may hold this storage too
  /// (assigned from one to another).
  private let owner = Atomic<UInt>(0)
  /// Whether the diagnostic for storage assigned from another instance was reported.
  private let reportedCopy = Atomic<Bool>(false)

  @usableFromInline
  init(
    _ derive: @escaping (Host) -> Value, fileID: StaticString, line: UInt,
    make: @escaping (Host, String) -> Computed<Value>
  ) {
    self.derive = derive
    self.fileID = fileID
    self.line = line
    self.make = make
  }

  deinit {
    let bits = created.load(ordering: .acquiring)
    if bits != 0 {
      Unmanaged<Computed<Value>>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!).release()
    }
  }

  /// The value of `host`'s property, created on first use (unretained: this storage owns it);
  /// nil when this storage belongs to another instance.
  @inlinable @inline(__always)
  public func computed(of host: Host) -> Unmanaged<Computed<Value>>? {
    if let existing = UnsafeRawPointer(bitPattern: createdBits), ownerBits == Self.address(host) {
      return Unmanaged<Computed<Value>>.fromOpaque(existing)
    }
    return create(for: host).map { .passUnretained($0) }
  }

  @usableFromInline var createdBits: UInt { created.load(ordering: .acquiring) }
  @usableFromInline var ownerBits: UInt { owner.load(ordering: .relaxed) }

  @usableFromInline @inline(__always)
  static func address(_ host: Host) -> UInt {
    UInt(bitPattern: Unmanaged.passUnretained(host).toOpaque())
  }

  /// The name diagnostics give the value.
  private var name: String { "@Derived \(Host.self).\(Value.self) at \(fileID):\(line)" }

  /// A read by an instance this storage does not belong to: computed on the spot.
  @usableFromInline @inline(never)
  func deriveForCopiedStorage(_ host: Host) -> Value {
    reportCopy()
    return derive(host)
  }

  /// `$property` for an instance this storage does not belong to: a new value, not cached.
  @usableFromInline @inline(never)
  func uncached(for host: Host) -> Computed<Value> {
    reportCopy()
    return make(host, name)
  }

  private func reportCopy() {
    guard !reportedCopy.exchange(true, ordering: .relaxed) else { return }
    ObservationDiagnostics._report(
      "\(name) is read by an instance that shares its storage with another one (assigned "
        + "from one to the other), which keeps the cached value: it is computed on each read, "
        + "uncached. To fix: do not assign the @Derived storage "
        + "(`_property = other._property`); each instance makes its own")
  }

  /// Creates the value; when another thread published one first, discards this one (never
  /// computed) and returns the published one. Nil when the storage belongs to another
  /// instance.
  @usableFromInline @inline(never)
  func create(for host: Host) -> Computed<Value>? {
    let address = Self.address(host)
    let claimed = owner.compareExchange(expected: 0, desired: address, ordering: .relaxed)
    guard claimed.exchanged || claimed.original == address else { return nil }
    if let existing = UnsafeRawPointer(bitPattern: createdBits) {
      return Unmanaged<Computed<Value>>.fromOpaque(existing).takeUnretainedValue()
    }
    let candidate = Unmanaged.passRetained(make(host, name))
    let bits = UInt(bitPattern: candidate.toOpaque())
    let (won, published) = created.compareExchange(
      expected: 0, desired: bits, ordering: .acquiringAndReleasing)
    if won { return candidate.takeUnretainedValue() }
    candidate.release()
    return Unmanaged<Computed<Value>>.fromOpaque(UnsafeRawPointer(bitPattern: published)!)
      .takeUnretainedValue()
  }
}
