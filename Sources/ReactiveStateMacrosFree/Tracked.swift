/// A stored class property that reports reads and writes to its object's registrar — the
/// macro-free counterpart of a property of an `@Observable` class.
///
/// ```swift
/// final class Person: TrackedObservable, @unchecked Sendable {
///   let observationRegistrar = ObservationRegistrar()
///   @Tracked var name = ""
///   @Tracked var friends: [Person] = []
///   var cache: [String: Int] = [:]  // not tracked: the stand-in for `@ObservationIgnored`
/// }
/// ```
///
/// Contract (the same as the `@Observable` macro's accessors unless noted):
/// - **Get** records a read of `\Host.property` (the key path is rooted at the *declaring* class,
///   so `\Base.name` is what a subclass instance reports too).
/// - **Set** stores the value and notifies unless the macro's equality rule says nothing changed:
///   `Equatable` values compare with `==` (so `Double.nan` always notifies), class references
///   with `===`, `Equatable` classes with `==`, anything else always notifies. The rule is chosen
///   statically from the declared type when the property is initialized (a generic `T` property
///   always notifies). User `willSet`/`didSet` run even when nothing changed.
/// - **In-place mutation** (`+=`, `append`, mutating methods, `inout`) records a read, notifies
///   exactly once, always (even for `+= 0`), and mutates the stored value without copying it
///   (on a property without observers: see below).
/// - **Classes only**: in a struct, `wrappedValue` is unavailable and the use is a compile error.
///   The class must adopt ``TrackedObservable`` (or, storing a `MainActorObservationRegistrar`,
///   ``MainActorTrackedObservable``).
/// - **No composition**: it cannot be combined with another property wrapper on one property;
///   the compiler rejects both orders (with unlocated `<unknown>:0` errors when `@Tracked` is
///   the outer one).
/// - **Sendable**: Swift 6 rejects a `Sendable` class with this (mutable) storage; the host must be
///   `@unchecked Sendable` (and then synchronize its writes itself) or actor-isolated, e.g.
///   `@MainActor`.
/// - **Ignoring a property**: there is no `@ObservationIgnored`; declare a plain stored property.
/// - **Observers differ slightly**: with a `didSet` that reads `oldValue`, the compiler fetches
///   the old value through the getter, so an assignment inside a tracking scope records a read
///   (a `willSet` alone, or a `didSet` without `oldValue`, records none, as with the macro); the
///   user's `willSet` runs before the registrar's (the macro runs it after) and `didSet` after
///   the registrar's; with any `willSet`/`didSet`, in-place mutation goes through get + set: it
///   copies, and the equality rule applies, so a mutation that leaves the value equal (`+= 0`)
///   does not notify (the macro's notifies).
/// - **Storage stays with its property**: assigning one property's storage to another of the
///   same object (`_a = _b`) moves the cached slot token with it, so `a`'s reads and writes then
///   go to `b`'s observers (debug builds report such a write). Assign the value (`a = b`).
///   Storage assigned from another object is detected and refilled.
/// - Costs 32 bytes per property beside the value: the equality rule (a metatype, 16 bytes)
///   and the cached slot token (16 bytes).
@propertyWrapper
public struct Tracked<Value> {
  /// The value, read and written in place by the enclosing-instance subscript.
  @usableFromInline
  var storedValue: Value

  /// The macro's equality rule for `Value`, fixed by the initializer overload. A metatype,
  /// not a closure: calling it costs no reference counting.
  @usableFromInline
  let changeRule: any _TrackedChangeRule<Value>.Type

  /// The property's slot in the host's registrar, filled by the first observed write.
  @usableFromInline
  var token = _ObservedPropertyToken()

  /// Storage for a property whose type has no equality: every assignment notifies.
  @inlinable
  public init(wrappedValue: Value) {
    storedValue = wrappedValue
    changeRule = _NotifyAlways<Value>.self
  }

  /// Unavailable: `@Tracked` is only usable on properties of classes.
  @available(
    *, unavailable,
    message:
      "@Tracked is only available on properties of classes that adopt TrackedObservable or MainActorTrackedObservable"
  )
  public var wrappedValue: Value {
    get { fatalError("unreachable") }
    set { fatalError("unreachable") }
  }

  /// The accessors of a `@Tracked` class property (called by the compiler, not by users).
  @inlinable
  public static subscript<Host: _TrackedHost>(
    _enclosingInstance host: Host,
    wrapped wrapped: ReferenceWritableKeyPath<Host, Value>,
    storage storage: ReferenceWritableKeyPath<Host, Tracked<Value>>
  ) -> Value {
    // Forced inline: only once inlined into the property's accessor are `wrapped` and `storage`
    // literals that the optimizer folds into direct field accesses. The setter body is too large
    // for the inliner's heuristics, and un-inlined writes measured ~5x slower.
    @inline(__always) get {
      host._trackedRegistrar._access(
        host, keyPath: wrapped, token: host[keyPath: storage].token)
      return host[keyPath: storage].storedValue
    }
    @inline(__always) set {
      let rule = host[keyPath: storage].changeRule
      guard _shouldNotify(by: rule, host[keyPath: storage].storedValue, newValue) else {
        host[keyPath: storage].storedValue = newValue
        return
      }
      // Inside withExtendedLifetime the optimizer treats `host` as alive throughout, so it reads
      // the registrar without retaining it: one retain/release pair less per write (callgrind:
      // 194 instructions per observed write against 228; the main-actor round trip 57 ns
      // against 72, where atomics are dear).
      withExtendedLifetime(host) {
        // One registrar call, and after the first observed write no key-path lookup at all.
        var token = host[keyPath: storage].token
        let filled = token._identity
        host._trackedRegistrar._withMutation(of: host, keyPath: wrapped, token: &token) {
          host[keyPath: storage].storedValue = newValue
        }
        if token._identity != filled { host[keyPath: storage].token = token }
      }
    }
    @inline(__always) _modify {
      let registrar = host._trackedRegistrar
      var token = host[keyPath: storage].token
      let filled = token._identity
      // One use of `wrapped`, before the yield, and only for an empty token: any other use
      // makes the optimizer materialise the key path on every in-place mutation.
      registrar._willModify(host, keyPath: wrapped, token: &token)
      if token._identity != filled { host[keyPath: storage].token = token }
      defer { registrar._didModify(token: token) }
      yield &host[keyPath: storage].storedValue
    }
  }
}

extension Tracked where Value: Equatable {
  /// Storage for an `Equatable` property: assigning an `==` value does not notify.
  @inlinable
  public init(wrappedValue: Value) {
    storedValue = wrappedValue
    changeRule = _NotifyUnlessEqual<Value>.self
  }
}

extension Tracked where Value: AnyObject {
  /// Storage for a class-reference property: assigning the same instance does not notify.
  @inlinable
  public init(wrappedValue: Value) {
    storedValue = wrappedValue
    changeRule = _NotifyUnlessIdentical<Value>.self
  }
}

extension Tracked where Value: Equatable & AnyObject {
  /// Storage for an `Equatable` class property: assigning an `==` instance does not notify, even
  /// a different one (the macro's rule).
  @inlinable
  public init(wrappedValue: Value) {
    storedValue = wrappedValue
    changeRule = _NotifyUnlessEqual<Value>.self
  }
}
