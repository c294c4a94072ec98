/// A view that runs an action after the update pass in which a value changed, as SwiftUI's
/// `onChange(of:initial:_:)`.
///
/// The value is compared with `==` each time the view is updated; when it differs from the one
/// seen last, `action(old, new)` runs after the pass, outside any tracking scope (so its reads
/// create no dependency). With `initial: true` it also runs once when the view appears. State
/// written by the action is applied in a follow-up pass of the same flush; a chain of such
/// writes that never settles stops after ``ViewHost/maxPassesPerFlush`` passes with
/// ``RuntimeIssue/Kind/updateLoop``.
public struct OnChangeView<Content: View, Value: Equatable>: View, PrimitiveView {
  let content: Content
  let value: Value
  let initial: Bool
  let action: @MainActor (Value, Value) -> Void

  func makeChildren(_ node: ViewNode) -> [ChildSpec] {
    let box = node.onChangeBox(Value.self)
    if let previous = box.previous {
      if previous != value {
        let (old, new, action) = (previous, value, action)
        node.host.enqueueEffect { action(old, new) }
      }
    } else if initial {
      let (new, action) = (value, action)
      node.host.enqueueEffect { action(new, new) }
    }
    box.previous = value
    return [ChildSpec(component: .slot(0), view: content)]
  }
}

/// The last value an ``OnChangeView`` node saw.
@MainActor
final class OnChangeBox<Value> {
  var previous: Value?
}

extension ViewNode {
  /// The node's ``OnChangeBox`` (created on first use; lives as long as the identity).
  func onChangeBox<Value>(_ type: Value.Type) -> OnChangeBox<Value> {
    if let box = slots[-1] as? OnChangeBox<Value> { return box }
    let box = OnChangeBox<Value>()
    slots[-1] = box
    return box
  }
}

extension View {
  /// Runs `action(old, new)` after the update in which `value` changed (see ``OnChangeView``).
  public func onChange<Value: Equatable>(
    of value: Value, initial: Bool = false,
    _ action: @escaping @MainActor (_ oldValue: Value, _ newValue: Value) -> Void
  ) -> OnChangeView<Self, Value> {
    OnChangeView(content: self, value: value, initial: initial, action: action)
  }

  /// Runs `action()` after the update in which `value` changed.
  public func onChange<Value: Equatable>(
    of value: Value, initial: Bool = false, _ action: @escaping @MainActor () -> Void
  ) -> OnChangeView<Self, Value> {
    OnChangeView(content: self, value: value, initial: initial, action: { _, _ in action() })
  }
}
