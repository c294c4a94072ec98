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
  /// Finds the storage by reflection (the stand-in for Combine's runtime field walk), so each call
  /// costs a reflection pass; subscribe once and keep the token rather than calling it in a loop.
  public var objectWillChange: ObservableObjectPublisher {
    // Fast path: once installed, every box holds the publisher, so the first one found suffices.
    if let publisher = firstPublishedBox(of: self)?.objectWillChange {
      return publisher
    }
    return installationLock.withLock {
      let boxes = publishedBoxes(of: self)
      // No `@Published` storage: a throwaway publisher, as Combine does (documented above).
      guard !boxes.isEmpty else { return ObservableObjectPublisher() }
      let publisher =
        boxes.lazy.compactMap(\.objectWillChange).first ?? ObservableObjectPublisher()
      for box in boxes where box.objectWillChange == nil {
        box.objectWillChange = publisher
      }
      return publisher
    }
  }
}

/// Serializes first-time installation so concurrent first requests agree on one publisher.
private let installationLock = WordLock()

/// The reflection chain of `object`: its class, then each superclass.
private func classMirrors(of object: AnyObject) -> some Sequence<Mirror> {
  sequence(first: Mirror(reflecting: object)) { $0.superclassMirror }
}

/// The first `@Published` storage of `object`, subclass first.
private func firstPublishedBox(of object: AnyObject) -> PublishedBoxBase? {
  for mirror in classMirrors(of: object) {
    for child in mirror.children {
      if let provider = child.value as? any PublishedBoxProviding {
        return provider.publishedBox
      }
    }
  }
  return nil
}

/// All `@Published` storage of `object`, subclass first.
private func publishedBoxes(of object: AnyObject) -> [PublishedBoxBase] {
  classMirrors(of: object).flatMap { mirror in
    mirror.children.compactMap { ($0.value as? any PublishedBoxProviding)?.publishedBox }
  }
}
