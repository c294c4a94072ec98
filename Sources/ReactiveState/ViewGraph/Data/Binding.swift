/// A two-way reference to a value owned elsewhere (a `@State`, a model property, or custom
/// `get`/`set` closures), as SwiftUI's `Binding`.
///
/// Reading `wrappedValue` inside a body makes that body depend on the source; creating or
/// passing a binding reads nothing. `$binding.field` derives a binding to a member that writes
/// through to the source.
@MainActor
@propertyWrapper
@dynamicMemberLookup
public struct Binding<Value> {
  private let getValue: @MainActor () -> Value
  private let setValue: @MainActor (Value) -> Void
  /// The source this binding projects, when known; two bindings with equal identities (the
  /// same source, equal snapshots) are interchangeable, which lets the host skip a child
  /// whose only changed input is a fresh binding to the same source and value.
  let identity: BindingIdentity?

  /// A binding with custom accessors (adapters, validation, trimming).
  public init(get: @escaping @MainActor () -> Value, set: @escaping @MainActor (Value) -> Void) {
    self.init(get: get, set: set, identity: nil)
  }

  init(
    get: @escaping @MainActor () -> Value, set: @escaping @MainActor (Value) -> Void,
    identity: BindingIdentity?
  ) {
    getValue = get
    setValue = set
    self.identity = identity
  }

  /// A binding to an immutable value: writes are ignored and nothing is ever invalidated.
  public static func constant(_ value: Value) -> Binding<Value> {
    Binding(get: { value }, set: { _ in })
  }

  /// Creates the `@Binding` property of a view from a binding (`_x = binding` or
  /// the memberwise initializer's `x:` argument).
  public init(projectedValue: Binding<Value>) { self = projectedValue }

  /// The source's current value.
  public var wrappedValue: Value {
    get { getValue() }
    nonmutating set { setValue(newValue) }
  }

  /// The binding itself (`$x` of a `@Binding var x`).
  public var projectedValue: Binding<Value> { self }

  /// A binding to a member of the value, writing through to the source.
  public subscript<Member>(dynamicMember keyPath: WritableKeyPath<Value, Member>) -> Binding<Member>
  {
    let getValue = getValue
    let setValue = setValue
    return Binding<Member>(
      get: { getValue()[keyPath: keyPath] },
      set: { newValue in
        var value = getValue()
        value[keyPath: keyPath] = newValue
        setValue(value)
      },
      identity: identity?.appending(keyPath))
  }
}

/// The source of a ``Binding``: a root object and the key paths leading from it, and the
/// root property's value when the binding was made, when that is `Equatable` (a `@Bindable`
/// projection's; a `@State` cell is always observed and needs none).
struct BindingIdentity: Equatable {
  let root: AnyObject
  let path: [AnyKeyPath]
  let snapshot: BindingSnapshot?

  init(root: AnyObject, path: [AnyKeyPath], snapshot: BindingSnapshot? = nil) {
    self.root = root
    self.path = path
    self.snapshot = snapshot
  }

  /// A member's binding keeps the root's snapshot: an equal root value has equal members.
  func appending(_ keyPath: AnyKeyPath) -> BindingIdentity {
    BindingIdentity(root: root, path: path + [keyPath], snapshot: snapshot)
  }

  /// The same source, with equal snapshots (or none on both sides).
  static func == (lhs: BindingIdentity, rhs: BindingIdentity) -> Bool {
    guard lhs.root === rhs.root, lhs.path == rhs.path else { return false }
    switch (lhs.snapshot, rhs.snapshot) {
    case (nil, nil): return true
    case (let left?, let right?): return left.matches(right)
    default: return false
    }
  }
}

/// A value a binding read when it was made (see ``BindingIdentity``): a reference, so a
/// binding without one stays a word smaller and copies without value-witness calls.
class BindingSnapshot {
  /// Whether `other` holds a value of the same type that is `==` to this one.
  func matches(_ other: BindingSnapshot) -> Bool { false }
}

/// A ``BindingSnapshot`` of an `Equatable` value.
final class EquatableBindingSnapshot<Value: Equatable>: BindingSnapshot {
  let value: Value
  init(_ value: Value) { self.value = value }

  override func matches(_ other: BindingSnapshot) -> Bool {
    (other as? EquatableBindingSnapshot<Value>)?.value == value
  }
}
