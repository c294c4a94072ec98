import CReactiveState

/// The `@Published` writes in progress on the calling thread: between a write's
/// `objectWillChange` and its store, work that must see the stored value (a view's update
/// hopping to the main actor from a background write) waits for the outermost write to end.
@usableFromInline
enum PublishedWriteScope {
  /// A `@Published` write begins (before its `objectWillChange`).
  @usableFromInline
  static func begin() {
    rs_current_thread().pointee.published_write_depth += 1
  }

  /// A `@Published` write has stored its value: the outermost one runs what waited for it.
  @usableFromInline
  static func end() {
    let thread = rs_current_thread()
    thread.pointee.published_write_depth -= 1
    guard thread.pointee.published_write_depth == 0,
      let waiting = thread.pointee.after_published_write
    else { return }
    thread.pointee.after_published_write = nil
    for action in Unmanaged<WaitingActions>.fromOpaque(waiting).takeRetainedValue().actions {
      action()
    }
  }

  /// Runs `action` once the `@Published` write in progress on this thread has stored its value,
  /// or now when none is (a direct `objectWillChange.send()`).
  static func afterCurrentWrite(_ action: @escaping () -> Void) {
    let thread = rs_current_thread()
    guard thread.pointee.published_write_depth > 0 else { return action() }
    if let waiting = thread.pointee.after_published_write {
      Unmanaged<WaitingActions>.fromOpaque(waiting).takeUnretainedValue().actions.append(action)
    } else {
      let waiting = WaitingActions()
      waiting.actions.append(action)
      thread.pointee.after_published_write = Unmanaged.passRetained(waiting).toOpaque()
    }
  }

  /// The actions waiting for the thread's outermost `@Published` write to store its value.
  private final class WaitingActions {
    var actions: [() -> Void] = []
  }
}
