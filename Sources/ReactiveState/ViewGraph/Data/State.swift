/// Storage owned by a view's identity, as SwiftUI's `@State`.
///
/// The initial value is used once per identity: when the same view identity is rebuilt by its
/// parent with another initial value, the stored value is kept. A new identity (`.id` change,
/// branch flip, `ForEach` element removed and re-added) starts from the initial value again.
/// One view value shown at several places (stored by its parent) has state at each.
/// Writing a value equal to the current one does nothing: `===` decides for an object of a class
/// that is `Observable` or not `Equatable` (a view observes the instance it reads, so another one
/// equal by its `==` is a change), `==` for any other `Equatable` value; a value without
/// equality re-evaluates the views that read the state at every write. Before the view is
/// mounted, reads return the initial value; writes are ignored and `$x` is a constant binding,
/// both reported as an ``ObservationDiagnostic``. After its identity ends, writes are dropped:
/// silently from the clean-up of the views that ended with it (their `onDisappear` or
/// `onDismiss` actions, their `.task`s finishing after cancellation), as a
/// ``RuntimeIssue/Kind/writeToEndedIdentity`` from anywhere else (a captured binding or
/// closure that outlived the view). Writing during `body` is a runtime issue and the write is
/// dropped.
@MainActor
@propertyWrapper
public struct State<Value>: DynamicProperty {
  let handle: StateHandle<Value>

  /// State starting from `wrappedValue` (`@State var x = 0`).
  public init(wrappedValue: Value) { handle = StateHandle(initial: wrappedValue) }

  /// State starting from `initialValue` (`_x = State(initialValue: …)` in an `init`).
  public init(initialValue: Value) { handle = StateHandle(initial: initialValue) }

  /// The identity's current value; reading it in `body` makes the view depend on it.
  public var wrappedValue: Value {
    get {
      // Not `cell?.value ?? initial`: unspecialised, that looks up `Value?`'s metadata on
      // every read.
      if let cell = handle.cell { return cell.value }
      return handle.initial
    }
    nonmutating set {
      guard let cell = handle.cell else {
        ObservationDiagnostics.report(Self.notInstalledMessage("write ignored"))
        return
      }
      cell.set(newValue)
    }
  }

  /// A binding to the identity's storage. Creating it reads nothing, so a parent that only
  /// passes `$x` down does not depend on `x`. Before mounting it is a constant binding.
  public var projectedValue: Binding<Value> {
    guard let cell = handle.cell else {
      ObservationDiagnostics.report(Self.notInstalledMessage("a constant binding"))
      return .constant(handle.initial)
    }
    return Binding(
      get: { cell.value }, set: { cell.set($0) },
      identity: BindingIdentity(root: cell, path: []))
  }
}

extension State {
  /// What a write or a projection before mounting reports.
  static func notInstalledMessage(_ outcome: String) -> String {
    "State<\(Value.self)> used outside a view installed in a host (\(outcome)): a view's "
      + "state exists once the host has mounted it. To fix: read, write and project state in "
      + "body or in an action, not in the view's init or on a view value that is not shown"
  }
}

extension State where Value: ExpressibleByNilLiteral {
  /// State starting from `nil`.
  public init() { self.init(wrappedValue: nil) }
}

extension State: InstallableProperty, NodeOwnedProperty {
  var link: PropertyLink? { handle }

  func withNewLink() -> State { State(initialValue: handle.initial) }

  func install(in node: ViewNode, slot: Int, label: String) -> String? {
    if let existing = node.slots[slot] {
      // A node's type never changes, and its type's plan numbers the slots: this slot holds
      // this property's cell. No checked cast (it would look up `StateCell<Value>`'s
      // metadata on every evaluation).
      assert(existing is StateCell<Value>, "slot \(slot) of \(node.typeName) is not \(label)'s")
      handle.cell = unsafeDowncast(existing, to: StateCell<Value>.self)
    } else {
      let cell = StateCell(handle.initial, node: node, label: label)
      node.slots[slot] = cell
      handle.cell = cell
    }
    return nil
  }
}

/// The reference a `State` value carries, so every copy of the view struct reaches the
/// identity's storage once the host linked it.
@MainActor
final class StateHandle<Value>: PropertyLink {
  let initial: Value
  @exclusivity(unchecked) var cell: StateCell<Value>?
  init(initial: Value) { self.initial = initial }
}
