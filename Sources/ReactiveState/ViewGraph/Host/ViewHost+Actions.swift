/// Why a ``ViewHost`` action could not be performed.
public enum ViewHostError: Error, Equatable, CustomStringConvertible {
  /// No live control of the requested kind has this label.
  case notFound(String)
  /// Several live controls of the requested kind have this label.
  case ambiguous(String, count: Int)
  /// The control is inside a `.disabled(true)` view.
  case disabled(String)

  /// A sentence naming the label.
  public var description: String {
    switch self {
    case .notFound(let label): "no control labelled \(quoted(label))"
    case .ambiguous(let label, let count): "\(count) controls labelled \(quoted(label))"
    case .disabled(let label): "the control labelled \(quoted(label)) is disabled"
    }
  }
}

/// A control editing a string.
@MainActor
protocol TextControl {
  var textBinding: Binding<String> { get }
}

extension TextField: TextControl {
  var textBinding: Binding<String> { text }
}

extension SearchableView: TextControl {
  var textBinding: Binding<String> { text }
}

extension ViewHost {
  /// Taps the button whose title (or label text) is `label`, then updates (automatic mode).
  /// When several controls share the label, `occurrence` picks one (0-based, tree order);
  /// without it such a lookup throws ``ViewHostError/ambiguous(_:count:)``. After ``close()``
  /// no control is live: an action throws ``ViewHostError/notFound(_:)``. The same applies to
  /// every action below.
  public func tap(_ label: String, occurrence: Int? = nil) throws {
    let node = try control(.button, label, occurrence)
    guard let button = node.leafView as? any ButtonAction else { return }
    perform { button.run() }
  }

  /// Replaces the text of the text field (or search field) labelled `label`.
  public func setText(_ text: String, in label: String, occurrence: Int? = nil) throws {
    let node = try control(.textField, label, occurrence)
    guard let field = node.leafView as? any TextControl else { return }
    perform { field.textBinding.wrappedValue = text }
  }

  /// Appends `text` to the text field labelled `label` in one edit.
  public func type(_ text: String, into label: String, occurrence: Int? = nil) throws {
    let node = try control(.textField, label, occurrence)
    guard let field = node.leafView as? any TextControl else { return }
    perform { field.textBinding.wrappedValue += text }
  }

  /// Flips the toggle labelled `label`.
  public func toggle(_ label: String, occurrence: Int? = nil) throws {
    let node = try control(.toggle, label, occurrence)
    guard let toggle = node.leafView as? Toggle else { return }
    perform { toggle.isOn.wrappedValue.toggle() }
  }

  /// Presses the increment side of the stepper labelled `label`.
  public func increment(_ label: String, occurrence: Int? = nil) throws {
    let node = try control(.stepper, label, occurrence)
    guard let stepper = node.leafView as? Stepper else { return }
    perform { stepper.step(true) }
  }

  /// Presses the decrement side of the stepper labelled `label`.
  public func decrement(_ label: String, occurrence: Int? = nil) throws {
    let node = try control(.stepper, label, occurrence)
    guard let stepper = node.leafView as? Stepper else { return }
    perform { stepper.step(false) }
  }

  /// The value a control showed at its last update (text, `true`/`false`, stepper value), or
  /// nil when no control has that label, or more than one does and no `occurrence` picks one
  /// (an index among them in tree order, as for the actions).
  public func value(of label: String, occurrence: Int? = nil) -> String? {
    let matches = allNodes().filter { node in
      guard let control = node.leafView as? any ControlView else { return false }
      return control.controlLabel(node) == label
    }
    if let occurrence {
      return matches.indices.contains(occurrence) ? matches[occurrence].controlValue : nil
    }
    return matches.count == 1 ? matches[0].controlValue : nil
  }

  /// True when the control labelled `label` exists and is inside a `.disabled(true)` view.
  public func isDisabled(_ label: String) -> Bool {
    allNodes().contains { node in
      guard let control = node.leafView as? any ControlView, control.controlLabel(node) == label
      else { return false }
      return isDisabled(node)
    }
  }

  private func control(_ kind: ControlKind, _ label: String, _ occurrence: Int?) throws
    -> ViewNode
  {
    // Live nodes only: `close()` releases the ended tree after its `onDisappear` actions run.
    let matches = allNodes().filter { node in
      guard node.isLive, let control = node.leafView as? any ControlView,
        control.controlKind == kind
      else { return false }
      return control.controlLabel(node) == label
    }
    let node: ViewNode
    if let occurrence {
      guard matches.indices.contains(occurrence) else { throw ViewHostError.notFound(label) }
      node = matches[occurrence]
    } else {
      guard let only = matches.first else { throw ViewHostError.notFound(label) }
      guard matches.count == 1 else { throw ViewHostError.ambiguous(label, count: matches.count) }
      node = only
    }
    guard !isDisabled(node) else { throw ViewHostError.disabled(label) }
    return node
  }

  private func isDisabled(_ node: ViewNode) -> Bool {
    var current: ViewNode? = node
    while let candidate = current {
      if let modifier = candidate.leafView as? any AttributeCarrying, modifier.disablesControls {
        return true
      }
      current = candidate.parent
    }
    return false
  }
}

/// A button's action, type-erased over its label.
@MainActor
protocol ButtonAction {
  func run()
}

extension Button: ButtonAction {
  func run() { action() }
}
