/// An object that announces *that* it is about to change, Combine style.
///
/// This is the coarse legacy model (Combine does not exist on Linux): a subscriber of
/// ``objectWillChange`` is notified of every change of the object, whatever it read. Prefer
/// ``Observable`` models, which notify only readers of the changed property.
///
/// Contract:
/// - ``objectWillChange`` sends before each change, so subscribers read the old state.
/// - If the class does not implement ``objectWillChange`` itself, the default implementation
///   returns one publisher per object, shared by all of its `@Published` properties (including
///   inherited ones). The publisher is created on first request and stored *inside* the object's
///   `@Published` storage, so it lives exactly as long as the object: no side table, no leak.
/// - A class with no `@Published` property has nowhere to keep that publisher; it must declare
///   its own (`let objectWillChange = ObservableObjectPublisher()`) and call `send()` itself.
///   Likewise a hand-written `objectWillChange` is not sent by `@Published` (Combine's rule).
public protocol ObservableObject: AnyObject {
  /// Sends before any change of the object.
  var objectWillChange: ObservableObjectPublisher { get }
}

extension ObservableObject {
  /// The object's shared publisher, installed into its `@Published` storage on first request.
  ///
  /// Finds the storage through the class's field metadata (as Combine does), reading only the
  /// `@Published` fields. The metadata walk runs once per class; a call then costs a lookup of
  /// the class in a locked table and a read of the first field's storage.
  public var objectWillChange: ObservableObjectPublisher {
    // Fast path: once installed, every box holds the publisher, so the first one found suffices.
    let fields = PublishedFields(of: self)
    if let publisher = fields.firstBox(of: self)?.objectWillChange {
      return publisher
    }
    return installationLock.withLock {
      let boxes = fields.boxes(of: self)
      // No `@Published` storage: a throwaway publisher, as Combine does (documented above).
      guard !boxes.isEmpty else { return ObservableObjectPublisher() }
      let publisher =
        boxes.lazy.compactMap(\.objectWillChange).first ?? ObservableObjectPublisher()
      // Last field first: the fast path returns the publisher once the *first* box holds it,
      // so that box must be the last one filled, or a caller could subscribe and then change
      // a property whose box does not hold the publisher yet (a lost send).
      for box in boxes.reversed() { box.join(publisher) }
      return publisher
    }
  }
}

/// Serializes first-time installation so concurrent first requests agree on one publisher, and
/// orders it with storage joining its object (`joinObjectPublisher(_:of:)`).
private let installationLock = WordLock()

/// Gives `box`, a `@Published` storage of `object` written for the first time, the object's
/// publisher if one was installed (into a sibling field, before `box` replaced its field's
/// storage), and marks every `@Published` storage of the object as joined, so only storage that
/// replaces a field later walks again: one walk per object for objects nobody subscribes to.
/// A class with its own `objectWillChange` has nothing installed, so nothing is found.
@usableFromInline
func joinObjectPublisher(_ box: PublishedBoxBase, of object: AnyObject)
  -> ObservableObjectPublisher?
{
  installationLock.withLock {
    let boxes = PublishedFields(of: object).boxes(of: object)
    let publisher = boxes.lazy.compactMap(\.objectWillChange).first
    for sibling in boxes { sibling.join(publisher) }
    // Not among `boxes` if another thread replaced the field's storage meanwhile.
    box.join(publisher)
    return box.objectWillChange
  }
}
