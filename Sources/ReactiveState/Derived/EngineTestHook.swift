import Synchronization

/// A closure tests set to hold the engine at one point (unoptimised builds only; the engine
/// calls ``body`` behind `BuildConfiguration.isUnoptimised`).
///
/// Tests run in parallel, so the closure is never read while another test sets it: a reader
/// looks at a relaxed flag (no synchronisation that could hide a race elsewhere from
/// ThreadSanitizer) and takes the lock only while a hook is set.
@usableFromInline
final class EngineTestHook: @unchecked Sendable {
  private let isSet = Atomic<Bool>(false)
  private let lock = WordLock()
  private var stored: (() -> Void)?

  @usableFromInline init() {}

  /// The closure, or nil when none is set.
  @usableFromInline var body: (() -> Void)? {
    get {
      guard isSet.load(ordering: .relaxed) else { return nil }
      return lock.withLock { stored }
    }
    set {
      lock.withLock { stored = newValue }
      isSet.store(newValue != nil, ordering: .relaxed)
    }
  }
}
