/// The part of `@Published` storage that ``ObservableObject``'s default `objectWillChange` finds
/// through the class's field metadata: the object-wide publisher, shared by every `@Published`
/// property of one object.
@usableFromInline
class PublishedBoxBase: @unchecked Sendable {
  @usableFromInline let lock = WordLock()
  @usableFromInline var installedPublisher: ObservableObjectPublisher?
  /// Whether this storage has looked for its object's publisher: set by ``join(_:)``, at the
  /// install and at its first write (`publisherForWrite(in:)`), which looks.
  @usableFromInline var hasJoinedObject = false

  @usableFromInline
  init() {}

  /// The object's publisher once someone asked for `objectWillChange`; `nil` before.
  @inlinable
  var objectWillChange: ObservableObjectPublisher? { lock.withLock { installedPublisher } }

  /// The publisher a write of this storage through `host` sends, if any.
  ///
  /// Storage assigned to a field after the object's publisher was installed
  /// (`_name = Published(initialValue:)`) did not exist when the install filled every field, so
  /// its first write looks for the object's publisher among its sibling fields
  /// (`joinObjectPublisher(_:of:)`): without that look, the new storage's writes would go
  /// unannounced to subscribers of the object. Every later write is one locked read.
  @inlinable
  func publisherForWrite(in host: AnyObject) -> ObservableObjectPublisher? {
    let (publisher, joined) = lock.withLock { (installedPublisher, hasJoinedObject) }
    return joined ? publisher : joinObjectPublisher(self, of: host)
  }

  /// Takes `publisher` (when this storage has none yet) and marks the storage as joined: the
  /// install fills every field with it, and a first write joins its field to the object's.
  func join(_ publisher: ObservableObjectPublisher?) {
    lock.withLock {
      if installedPublisher == nil { installedPublisher = publisher }
      hasJoinedObject = true
    }
  }
}

/// Heap storage of one `@Published` property: its value and its value subscribers (`$name`).
///
/// The value itself is not synchronized, exactly like a plain stored property of the host; the
/// publisher fields are.
@usableFromInline
final class PublishedBox<Value>: PublishedBoxBase, @unchecked Sendable {
  @usableFromInline
  var value: Value

  @usableFromInline let valueSubscribers = SubscriberList<Value>()

  @usableFromInline
  init(_ value: Value) {
    self.value = value
  }

  /// Combine's willSet edge: `objectWillChange` first, then the new value to `$name` subscribers.
  /// The caller stores the value afterwards, so subscribers still read the old value. `host` is
  /// the object whose field holds this storage.
  @inlinable
  func willSet(_ newValue: Value, in host: AnyObject) {
    publisherForWrite(in: host)?.send()
    valueSubscribers.send(newValue)
  }

}

/// Lets the field walk find a `@Published` property's box without knowing its `Value`.
protocol PublishedBoxProviding {
  var publishedBox: PublishedBoxBase { get }
}

extension PublishedBoxProviding {
  /// The box of the storage of this type stored at `address` (a field of an object).
  static func publishedBox(at address: UnsafeRawPointer) -> PublishedBoxBase {
    address.load(as: Self.self).publishedBox
  }
}
