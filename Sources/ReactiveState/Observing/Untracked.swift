import CReactiveState

/// Runs `body` with tracking suspended: reads inside record nothing in any enclosing
/// tracking scope (one-shot, continuous, derived or a view body). Returns `body`'s result.
@inlinable
public func withoutObservationTracking<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
  let thread = rs_current_thread()
  let saved = thread.pointee.scope
  let savedUntracked = thread.pointee.untracked_scope
  // Writes inside the block are still the suspended scope's own (see `noteOwnMutation`).
  if saved != nil { thread.pointee.untracked_scope = saved }
  rs_set_current_scope(nil)
  defer {
    rs_set_current_scope(saved)
    thread.pointee.untracked_scope = savedUntracked
  }
  return try body()
}
