#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One view identity's subscription to a legacy object's `objectWillChange`: every `send()`
/// invalidates the view, whatever it read (object-level, the coarse legacy rule). Held in a
/// node slot; re-subscribed when the instance changes; cancelled when the identity ends.
@MainActor
final class LegacySubscription: KillableCell {
  private(set) var object: AnyObject?
  private var cancellable: AnyCancellable?
  private let reference: WeakNodeReference
  private let typeName: String

  init(node: ViewNode, typeName: String) {
    reference = node.reference
    self.typeName = typeName
  }

  /// Subscribes to `object` unless it is the one already subscribed to.
  func subscribe(to object: some ObservableObject) {
    guard self.object !== object else { return }
    cancellable?.cancel()
    self.object = object
    let reference = reference
    let typeName = typeName
    cancellable = object.objectWillChange.sink { _ in
      if ViewGraphRuntime.isOnMainActor {
        MainActor.assumeIsolated {
          LegacySubscription.objectWillChange(reference, typeName, fromBackground: false)
        }
      } else {
        // Sent before the store: the hop starts once a `@Published` write has stored its
        // value, or the main actor could re-evaluate the view first and show the old value
        // with nothing left to update it.
        PublishedWriteScope.afterCurrentWrite {
          Task { @MainActor in
            LegacySubscription.objectWillChange(reference, typeName, fromBackground: true)
          }
        }
      }
    }
  }

  /// Stops delivering the subscribed object's changes; a later ``subscribe(to:)`` starts again.
  func unsubscribe() {
    kill()
    object = nil
  }

  func kill() {
    cancellable?.cancel()
    cancellable = nil
  }

  private static func objectWillChange(
    _ reference: WeakNodeReference, _ typeName: String, fromBackground: Bool
  ) {
    guard let node = reference.node, node.isLive else { return }
    let host = node.host
    if fromBackground {
      host.record(
        .publishedFromBackgroundThread,
        "\(typeName) published a change from a background thread, which is not allowed; "
          + "\(node.typeName) was updated on the main actor. To fix: make the change on the "
          + "main actor (mark the model or the method @MainActor, or use await MainActor.run)",
        node: node)
    }
    if let updating = ViewGraphRuntime.updatingNode {
      host.record(
        .objectWillChangeDuringUpdate,
        "\(typeName).objectWillChange was sent while \(updating.typeName) was being evaluated "
          + "(a @Published property written during body); \(node.typeName) will update in a "
          + "later pass. To fix: move the write out of body (into an action, onAppear, "
          + "onChange or task)",
        node: updating)
    }
    host.markDirty(node, cause: .objectWillChange(type: typeName), forcesRun: true)
  }
}

extension ViewNode {
  /// The ``LegacySubscription`` in `slot` (created on first use).
  func legacySubscription(slot: Int, typeName: String) -> LegacySubscription {
    if let existing = slots[slot] as? LegacySubscription { return existing }
    let created = LegacySubscription(node: self, typeName: typeName)
    slots[slot] = created
    return created
  }
}
