/// A class property that announces changes the Combine way, for ``ObservableObject`` models.
///
/// Contract:
/// - Classes only (it reaches the host through the enclosing-instance subscript); use in a struct
///   is a compile error (`'wrappedValue' is unavailable`). It cannot be combined with other
///   property wrappers.
/// - Every assignment — equal or not — first sends the host's `objectWillChange` (if anyone has
///   asked for it), then delivers the new value to `$name` subscribers, then stores. Subscribers
///   therefore read the **old** value. There is no equality check (Combine's rule).
/// - In-place mutation (`+=`, `append`, mutating methods) works on a copy and assigns it, as
///   Combine's does: code run inside the mutation (a `removeAll(where:)` predicate, a
///   subscriber of a sibling property's change) may read the property and sees the old value,
///   and `$name` subscribers get the new value before it is stored. The price is Combine's
///   too: mutating one element of a published array copies the array.
/// - Storage assigned outside `init` (`_name = Published(initialValue: x)`) after someone asked
///   for `objectWillChange` stays announced while another `@Published` field of the object
///   holds the object's publisher: its first write finds it there. The object has no other
///   place to keep it, so replacing the storage of its only `@Published` property (or of all
///   of them) leaves the new storage without it, and the next `objectWillChange` request makes
///   a new publisher: subscribe again. Each object's first write of a `@Published` property
///   makes that look for all its fields (a lookup of the class's field layout, then one read
///   per field); later writes do not.
/// - The value is not synchronized, like any stored property; the publishers are thread-safe.
///   Under Swift 6 checking the host must be `@unchecked Sendable` or actor-isolated.
/// - Every object notifies every subscriber of its `objectWillChange` for any change, whatever
///   they read: this is the coarse baseline that ``Observable`` tracking improves on.
@propertyWrapper
public struct Published<Value> {
  @usableFromInline
  let box: PublishedBox<Value>

  /// Creates the storage with an initial value (the `= value` of the declaration).
  @inlinable
  public init(wrappedValue: Value) {
    box = PublishedBox(wrappedValue)
  }

  /// Creates the storage with an initial value (Combine's spelling).
  @inlinable
  public init(initialValue: Value) {
    self.init(wrappedValue: initialValue)
  }

  /// Unavailable: `@Published` is only usable on class properties.
  @available(*, unavailable, message: "@Published is only available on properties of classes")
  public var wrappedValue: Value {
    get { fatalError("unreachable") }
    set { fatalError("unreachable") }
  }

  /// Unavailable: `$name` is only usable on class properties.
  @available(*, unavailable, message: "@Published is only available on properties of classes")
  public var projectedValue: Publisher {
    fatalError("unreachable")
  }

  /// The accessors of a `@Published` class property (called by the compiler).
  @inlinable
  public static subscript<Host: AnyObject>(
    _enclosingInstance host: Host,
    wrapped wrapped: ReferenceWritableKeyPath<Host, Value>,
    storage storage: ReferenceWritableKeyPath<Host, Published<Value>>
  ) -> Value {
    // Forced inline so the storage key path folds into a direct field access.
    @inline(__always) get {
      host[keyPath: storage].box.value
    }
    // No `_modify`: yielding the stored value would hold exclusive access to it for the
    // whole mutation, so any read of the property from inside it would trap.
    @inline(__always) set {
      let box = host[keyPath: storage].box
      PublishedWriteScope.begin()
      box.willSet(newValue, in: host)
      box.value = newValue
      PublishedWriteScope.end()
    }
  }

  /// `$name`: the publisher of this property's values (called by the compiler).
  @inlinable
  public static subscript<Host: AnyObject>(
    _enclosingInstance host: Host,
    projected projected: KeyPath<Host, Publisher>,
    storage storage: ReferenceWritableKeyPath<Host, Published<Value>>
  ) -> Publisher {
    Publisher(box: host[keyPath: storage].box)
  }
}

extension Published: PublishedBoxProviding {
  var publishedBox: PublishedBoxBase { box }
}

extension Published {
  /// The publisher behind `$name`, shaped like Combine's `Published.Publisher`.
  ///
  /// Contract: ``sink(receiveValue:)`` first delivers the current value synchronously, then every
  /// new value at the property's willSet edge (before it is stored), on the mutating thread, until
  /// the token is cancelled or deallocated.
  public struct Publisher {
    /// The element type: the property's values.
    public typealias Output = Value
    /// This publisher never fails.
    public typealias Failure = Never

    @usableFromInline
    let box: PublishedBox<Value>

    @usableFromInline
    init(box: PublishedBox<Value>) {
      self.box = box
    }

    /// Subscribes `receiveValue`: called now with the current value, then with each new value.
    public func sink(receiveValue: @escaping (Value) -> Void) -> AnyCancellable {
      // Subscribed before the current value is delivered (as Combine's subscription is): a
      // value set during that delivery — by the subscriber itself or by another thread it
      // waits for — reaches the subscriber too instead of no one.
      let current = box.value
      let token = box.valueSubscribers.subscribe(receiveValue)
      receiveValue(current)
      return token
    }
  }
}
