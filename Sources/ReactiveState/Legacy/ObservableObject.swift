@_spi(Reflection) import Swift

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
  /// Finds the storage with a walk of the class's field metadata (as Combine does), reading only
  /// the `@Published` fields, so each call costs that walk; subscribe once and keep the token
  /// rather than calling it in a loop.
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
      // Last field first: the fast path returns the publisher once the *first* box holds it,
      // so that box must be the last one filled, or a caller could subscribe and then change
      // a property whose box does not hold the publisher yet (a lost send).
      for box in boxes.reversed() where box.objectWillChange == nil {
        box.objectWillChange = publisher
      }
      return publisher
    }
  }
}

/// Serializes first-time installation so concurrent first requests agree on one publisher.
private let installationLock = WordLock()

/// Calls `body` with the `@Published` storage of `object`, inherited fields first, until it
/// returns false. Walks the class metadata's field descriptors, superclasses included
/// (Combine's runtime field walk): only the `@Published` fields are read, so other stored
/// properties are never touched (no race with their writers, no read of a dead `unowned`
/// reference) and a `CustomReflectable` conformance does not hide them.
private func forEachPublishedBox(of object: AnyObject, _ body: (PublishedBoxBase) -> Bool) {
  let base = UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())
  // `_EachFieldOptions.classType` (its static member is not concurrency-safe to name).
  let classType = _EachFieldOptions(rawValue: 1 << 0)
  _ = _forEachField(of: type(of: object), options: classType) { _, offset, fieldType, _ in
    guard let provider = fieldType as? any PublishedBoxProviding.Type else { return true }
    return body(provider.publishedBox(at: base + offset))
  }
}

/// The first `@Published` storage of `object`.
private func firstPublishedBox(of object: AnyObject) -> PublishedBoxBase? {
  var first: PublishedBoxBase?
  forEachPublishedBox(of: object) { box in
    first = box
    return false
  }
  return first
}

/// All `@Published` storage of `object`.
private func publishedBoxes(of object: AnyObject) -> [PublishedBoxBase] {
  var boxes: [PublishedBoxBase] = []
  forEachPublishedBox(of: object) { box in
    boxes.append(box)
    return true
  }
  return boxes
}
