/// A key for a value in ``EnvironmentValues``, as SwiftUI's `EnvironmentKey`.
public protocol EnvironmentKey {
  /// The value's type.
  associatedtype Value
  /// The value seen by views with no ancestor setting this key.
  static var defaultValue: Value { get }
}

/// The values a view inherits from its ancestors, as SwiftUI's `EnvironmentValues`.
///
/// Extend it with computed properties over ``subscript(_:)`` to declare keys usable with
/// `@Environment(\.key)` and `.environment(\.key, value)`. Each key set by a `.environment`
/// modifier is an observable cell: reading it inside a body makes that body (and only it)
/// depend on that key; a lookup without an ancestor value returns the key's default.
@MainActor
public struct EnvironmentValues {
  /// Values provided by ancestors, by key type (or object type for `.environment(object)`).
  var cells: [ObjectIdentifier: EnvironmentCell] = [:]
  /// Values written to this copy (by a `.environment(\.key, value)` modifier), by key.
  var writes: [ObjectIdentifier: (name: String, value: Any)] = [:]

  /// Empty values: every key reads its default.
  public init() {}

  /// The value for `key`: the nearest ancestor's, or the key's default.
  public subscript<Key: EnvironmentKey>(key: Key.Type) -> Key.Value {
    get {
      let id = ObjectIdentifier(key)
      if let written = writes[id] { return written.value as! Key.Value }
      if let cell = cells[id] { return cell.value as! Key.Value }
      return Key.defaultValue
    }
    set { writes[ObjectIdentifier(key)] = (String(describing: key), newValue) }
  }

  /// The object provided by `.environment(object)` for `type`, or nil. Tracked like a key.
  func object(_ type: Any.Type) -> AnyObject? {
    cells[ObjectIdentifier(type)].map { $0.value as AnyObject }
  }

  /// True when an ancestor provided `type` with `.environment(object)`.
  func hasObject(_ type: Any.Type) -> Bool { cells[ObjectIdentifier(type)] != nil }
}

/// One environment value set by one modifier node; observable so readers depend on it alone.
@MainActor
final class EnvironmentCell: Observable {
  private let registrar = ObservationRegistrar()
  private var storage: Any
  let name: String

  init(_ value: Any, name: String) {
    storage = value
    self.name = name
  }

  /// The current value, tracked.
  var value: Any {
    registrar.access(self, keyPath: \.value)
    return storage
  }

  /// Replaces the value when it differs (`===` for objects, `==` for other Equatable values,
  /// always otherwise), invalidating exactly the views that read it.
  func update(_ newValue: Any) {
    if Self.isUnchanged(storage, newValue) { return }
    ViewGraphRuntime.withCause(.environment(key: name)) {
      registrar.withMutation(of: self, keyPath: \.value) { storage = newValue }
    }
  }

  /// Whether `newValue` leaves the cell's readers nothing new to see. Objects compare by
  /// identity even when `Equatable`: a reader observes the instance it was given, so another
  /// instance equal by its `==` (by id, say) must still reach the readers of an injected model
  /// or `@EnvironmentObject`, or they keep showing and observing the old one.
  private static func isUnchanged(_ oldValue: Any, _ newValue: Any) -> Bool {
    // Through optionals too: an optional object's `==` is its object's.
    if ViewEquality.unwrappedType(type(of: oldValue)) is AnyClass,
      ViewEquality.unwrappedType(type(of: newValue)) is AnyClass
    {
      return ViewEquality.identical(oldValue, newValue)
    }
    return ValueEquality.knownEqual(oldValue, newValue) == true
  }
}
