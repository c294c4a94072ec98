/// The part of `@Published` storage that ``ObservableObject``'s default `objectWillChange` finds
/// through the class's field metadata: the object-wide publisher, shared by every `@Published`
/// property of one object.
@usableFromInline
class PublishedBoxBase: @unchecked Sendable {
  @usableFromInline let lock = WordLock()
  @usableFromInline var installedPublisher: ObservableObjectPublisher?

  @usableFromInline
  init() {}

  /// The object's publisher once someone asked for `objectWillChange`; `nil` before.
  @inlinable
  var objectWillChange: ObservableObjectPublisher? {
    get { lock.withLock { installedPublisher } }
    set { lock.withLock { installedPublisher = newValue } }
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
  /// The caller stores the value afterwards, so subscribers still read the old value.
  @inlinable
  func willSet(_ newValue: Value) {
    objectWillChange?.send()
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
