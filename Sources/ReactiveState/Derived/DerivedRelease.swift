import CReactiveState

/// Releasing a chain of derived values in constant stack space.
///
/// A derivation that reads another derived value captures it, so the last reference to the
/// end of a chain frees the whole chain: freeing one value releases its derivation, which
/// frees the value before it, and so on — one nested deinitialisation per value, which
/// overflows a thread's stack after a few thousand. Instead, a value freed while another is
/// being freed on the same thread keeps its derivation alive in a per-thread queue, so its
/// own release stops there; the outermost value's release then empties the queue in a loop
/// (each entry it drops may queue the next).
///
/// A ``Computed`` calls ``begin(keeping:)`` at the start of its deinitialiser and its last
/// stored property, a ``DerivedReleaseScope``, calls ``end()`` after the other properties —
/// the derivation among them — have been released. That relies on Swift destroying a class's
/// stored properties in declaration order, which `DeepChainReleaseTests` would catch
/// changing (the chain's release would nest again and overflow its small thread stack).
enum DerivedRelease {
  /// Start of a derived value's deinitialiser: inside another one's release, `captures` (a
  /// copy of its derivation) is kept until the outermost release drains the queue.
  @inline(__always)
  static func begin<Captures>(keeping captures: Captures) {
    let thread = rs_current_thread()
    thread.pointee.derived_release_depth += 1
    if thread.pointee.derived_release_depth > 1 { keep(captures) }
  }

  @inline(never)
  private static func keep(_ captures: Any) {
    let thread = rs_current_thread()
    let queue: Unmanaged<DerivedReleaseQueue>
    if let existing = thread.pointee.derived_release_queue {
      queue = Unmanaged.fromOpaque(existing)
    } else {
      queue = Unmanaged.passRetained(DerivedReleaseQueue())
      thread.pointee.derived_release_queue = queue.toOpaque()
    }
    queue._withUnsafeGuaranteedRef { $0.entries.append(captures) }
  }

  /// End of a derived value's release (its stored properties are gone): the outermost one
  /// drains the queue.
  @inline(__always)
  static func end() {
    let thread = rs_current_thread()
    thread.pointee.derived_release_depth -= 1
    if thread.pointee.derived_release_depth == 0 && thread.pointee.derived_release_queue != nil {
      drain()
    }
  }

  /// Drops the queued entries one at a time; the values they free queue their own
  /// derivations here instead of nesting (the depth stays above zero meanwhile).
  @inline(never)
  private static func drain() {
    let thread = rs_current_thread()
    thread.pointee.derived_release_depth = 1
    let queue = Unmanaged<DerivedReleaseQueue>.fromOpaque(
      thread.pointee.derived_release_queue.unsafelyUnwrapped)
    while let entry = queue._withUnsafeGuaranteedRef({ $0.entries.popLast() }) {
      _ = consume entry
    }
    thread.pointee.derived_release_queue = nil
    thread.pointee.derived_release_depth = 0
    queue.release()
  }
}

/// The per-thread queue of ``DerivedRelease``.
private final class DerivedReleaseQueue {
  var entries: [Any] = []
}

/// The last stored property of a ``Computed``: its deinitialiser runs after the value's other
/// properties are released, and ends the value's ``DerivedRelease``.
@usableFromInline
struct DerivedReleaseScope: ~Copyable {
  @usableFromInline init() {}
  deinit { DerivedRelease.end() }
}
