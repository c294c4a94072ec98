/// The storage of one `@State` property of one view identity. It is observable, so `@State`
/// reads are tracked by the same registrar mechanism as model properties.
@MainActor
final class StateCell<Value>: Observable {
  private let registrar = ObservationRegistrar()
  @exclusivity(unchecked) private var storage: Value
  /// The registrar's slot for ``value``, filled at the first tracked read or observed write.
  /// `\.value` of a generic class has no constant key path: without the token, every read
  /// would instantiate the key path at run time to find the slot.
  @exclusivity(unchecked) private var valueToken = _ObservedPropertyToken()
  /// False once the identity ended: later writes (from captured bindings or closures) are dropped.
  var isLive = true
  /// The removal that ended the identity (see ``ViewGraphRuntime/removalInProgress``).
  var endedInRemoval = 0
  /// The host, to report writes; `weak` because a captured binding can keep the cell after the
  /// host is gone. The cell keeps no reference to its node: ``isLive`` says whether the identity
  /// lasts (a node freed without teardown belongs to a freed host), and the node's name is
  /// copied.
  private weak var host: ViewHost?
  private let label: String
  private let viewName: String
  private let viewPath: ViewPath

  init(_ initial: Value, node: ViewNode, label: String) {
    storage = initial
    self.host = node.host
    self.label = label
    viewName = node.typeName
    viewPath = node.location
  }

  /// The current value; reading it inside a body makes that body depend on it.
  var value: Value {
    registrar._access(self, keyPath: \.value, token: filledValueToken())
    return storage
  }

  /// Whether the running code is an end-of-life action or a `.task` of the views whose
  /// removal ended this identity.
  private var isCleanUpOfItsRemoval: Bool {
    endedInRemoval != 0
      && (endedInRemoval == ViewGraphRuntime.endOfLifeActionRemoval
        || endedInRemoval == TaskOwner.current?.endedInRemoval)
  }

  /// ``valueToken``, filled first if empty. Called only inside a tracking scope (the token
  /// argument of `_access` is evaluated there), where the untokened read would have created
  /// the slot too.
  private func filledValueToken() -> _ObservedPropertyToken {
    _ = valueToken.filledSlot(in: registrar.storage, keyPath: { \StateCell.value })
    return valueToken
  }

  /// Whether writing `newValue` over `oldValue` changes nothing a reader could see: the same
  /// object for an `Observable` class or an optional of one (its readers observe that
  /// instance, whatever its `==` says), else equal by `ValueEquality.knownEqual`. The dynamic
  /// types decide too: a state of existential type may hold a model.
  private static func isUnchanged(_ oldValue: Value, _ newValue: Value) -> Bool {
    if ViewEquality.isObservableClass(Value.self)
      || ViewEquality.isObservableClass(type(of: oldValue as Any))
      || ViewEquality.isObservableClass(type(of: newValue as Any))
    {
      return ViewEquality.identical(oldValue, newValue)
    }
    return ValueEquality.knownEqual(oldValue, newValue) == true
  }

  /// Writes `newValue` unless the identity ended, a view update is running (a runtime issue) or
  /// the value is equal to the current one. A write after the identity ended is a runtime
  /// issue unless it is clean-up of the views that ended with it: their `onDisappear` or
  /// `onDismiss` actions, or their `.task`s finishing after cancellation.
  func set(_ newValue: Value) {
    guard isLive, let host else {
      if isCleanUpOfItsRemoval { return }
      host?.recordIssue(
        .writeToEndedIdentity,
        "\(viewName).\(label) was written after its view's identity ended (a captured binding "
          + "or closure outlived it); the write was ignored. To fix: end the work holding it "
          + "in onDisappear, or use .task, which is cancelled with the view",
        viewPath: viewPath.text)
      return
    }
    if let updating = ViewGraphRuntime.updatingNode {
      host.record(
        .stateWriteDuringUpdate,
        "Modifying state during view update: \(viewName).\(label) written while "
          + "\(updating.typeName) was being evaluated; the write was dropped. To fix: write "
          + "state from an action, onAppear, onChange or task, not from body",
        node: updating)
      return
    }
    if Self.isUnchanged(storage, newValue) { return }
    ViewGraphRuntime.withCause(.state(view: viewName, property: label)) {
      // A local copy: observers notified during the write may read the cell, and so the token.
      var token = valueToken
      registrar._withMutation(of: self, keyPath: \.value, token: &token) { storage = newValue }
      valueToken = token
    }
  }
}
