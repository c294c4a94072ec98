/// What kind of interaction a control supports, for ``ViewHost`` lookups.
enum ControlKind: String {
  case button = "Button"
  case textField = "TextField"
  case toggle = "Toggle"
  case stepper = "Stepper"
}

/// A view the host can find by label and act on.
@MainActor
protocol ControlView {
  var controlKind: ControlKind { get }
  /// The label used to find the control: its title, or the text of its label views.
  func controlLabel(_ node: ViewNode) -> String
}

extension ControlView {
  /// The concatenated `Text` contents below `node` (a control's label content).
  func labelText(_ node: ViewNode) -> String {
    var texts: [String] = []
    node.host.forEachNode(under: node) { descendant in
      if let text = descendant.leafView as? Text { texts.append(text.content) }
    }
    return texts.joined(separator: " ")
  }
}

/// A control that performs an action when tapped (``ViewHost/tap(_:occurrence:)``).
public struct Button<Label: View>: View, PrimitiveView, ControlView {
  let action: @MainActor () -> Void
  let label: Label
  let title: String?

  /// A button whose label is built by `label`.
  public init(action: @escaping @MainActor () -> Void, @ViewBuilder label: () -> Label) {
    self.action = action
    self.label = label()
    title = nil
  }

  var controlKind: ControlKind { .button }
  func controlLabel(_ node: ViewNode) -> String { title ?? labelText(node) }
  func makeChildren(_ node: ViewNode) -> [ChildSpec] {
    [ChildSpec(component: .slot(0), view: label)]
  }
  func renderLine(_ node: ViewNode) -> String? {
    title.map { "Button \(quoted($0))" } ?? "Button"
  }
  /// A titled button renders on one line; its label `Text` is not repeated below it.
  var rendersChildren: Bool { title == nil }
}

extension Button where Label == Text {
  /// A button titled `title`.
  public init<S: StringProtocol>(_ title: S, action: @escaping @MainActor () -> Void) {
    self.action = action
    label = Text(title)
    self.title = String(title)
  }
}

/// An editable text field bound to a string (``ViewHost/setText(_:in:occurrence:)``). Renders its value as
/// read at its last update, so the rendered tree shows what the bound source committed.
public struct TextField: View, PrimitiveView, ControlView {
  let title: String
  let text: Binding<String>

  /// A field titled `title` editing `text`.
  public init<S: StringProtocol>(_ title: S, text: Binding<String>) {
    self.title = String(title)
    self.text = text
  }

  var controlKind: ControlKind { .textField }
  var skipsWhenEqual: Bool { true }
  func controlLabel(_ node: ViewNode) -> String { title }
  func makeChildren(_ node: ViewNode) -> [ChildSpec] {
    node.controlValue = text.wrappedValue
    return []
  }
  func renderLine(_ node: ViewNode) -> String? {
    "TextField \(quoted(title)) text=\(quoted(node.controlValue ?? ""))"
  }
}

/// A switch bound to a Boolean (``ViewHost/toggle(_:occurrence:)``).
public struct Toggle: View, PrimitiveView, ControlView {
  let title: String
  let isOn: Binding<Bool>

  /// A toggle titled `title` editing `isOn`.
  public init<S: StringProtocol>(_ title: S, isOn: Binding<Bool>) {
    self.title = String(title)
    self.isOn = isOn
  }

  var controlKind: ControlKind { .toggle }
  var skipsWhenEqual: Bool { true }
  func controlLabel(_ node: ViewNode) -> String { title }
  func makeChildren(_ node: ViewNode) -> [ChildSpec] {
    node.controlValue = String(isOn.wrappedValue)
    return []
  }
  func renderLine(_ node: ViewNode) -> String? {
    "Toggle \(quoted(title)) isOn=\(node.controlValue ?? "?")"
  }
}

/// Increment/decrement buttons for a value (``ViewHost/increment(_:occurrence:)``,
/// ``ViewHost/decrement(_:occurrence:)``), clamped to an optional range (an integer also to
/// its type's range, so a step never traps on overflow). A step never moves the value against
/// its direction: pressing increment on a value already above the range does nothing (the
/// side is unavailable there), as decrement below it.
public struct Stepper: View, PrimitiveView, ControlView {
  let title: String
  let read: @MainActor () -> String
  let step: @MainActor (_ up: Bool) -> Void

  /// A stepper titled `title` changing `value` by `step` within `bounds`.
  public init<S: StringProtocol, V: Strideable>(
    _ title: S, value: Binding<V>, in bounds: ClosedRange<V>? = nil, step: V.Stride = 1
  ) {
    self.title = String(title)
    read = { String(describing: value.wrappedValue) }
    self.step = { up in
      let current = value.wrappedValue
      let intended = current.advanced(by: up ? step : -step)
      var next = intended
      if let bounds { next = min(max(next, bounds.lowerBound), bounds.upperBound) }
      value.wrappedValue = Self.landing(next, from: current, rising: intended > current)
    }
  }

  /// A stepper titled `title` changing the integer `value` by `step` within `bounds`, or
  /// within the type's own range without them: a step past `V.max` (or `V.min`) stops there
  /// instead of trapping on overflow, as a stepper at the end of its range does nothing.
  public init<S: StringProtocol, V: FixedWidthInteger>(
    _ title: S, value: Binding<V>, in bounds: ClosedRange<V>? = nil, step: V.Stride = 1
  ) {
    self.title = String(title)
    read = { String(describing: value.wrappedValue) }
    self.step = { up in
      let limits = bounds ?? V.min...V.max
      // In the type's own arithmetic, with overflow reported: a step whose size does not
      // fit `V`, or that passes `V.max` or `V.min`, lands on that limit.
      let rises = up == (step >= 0)
      let current = value.wrappedValue
      var next = rises ? V.max : V.min
      if let size = V(exactly: step.magnitude) {
        let moved =
          rises ? current.addingReportingOverflow(size) : current.subtractingReportingOverflow(size)
        if !moved.overflow { next = moved.partialValue }
      }
      let clamped = min(max(next, limits.lowerBound), limits.upperBound)
      value.wrappedValue = Self.landing(clamped, from: current, rising: rises)
    }
  }

  /// Where a step from `current` lands: `clamped`, unless clamping turned the step around
  /// (`current` was already past the limit it moves toward), then `current`.
  private static func landing<V: Comparable>(_ clamped: V, from current: V, rising: Bool) -> V {
    (rising ? clamped < current : clamped > current) ? current : clamped
  }

  var controlKind: ControlKind { .stepper }
  func controlLabel(_ node: ViewNode) -> String { title }
  func makeChildren(_ node: ViewNode) -> [ChildSpec] {
    node.controlValue = read()
    return []
  }
  func renderLine(_ node: ViewNode) -> String? {
    "Stepper \(quoted(title)) value=\(node.controlValue ?? "?")"
  }
}
