import CReactiveState

/// Runs `body` with tracking suspended: reads inside record nothing in any enclosing
/// tracking scope (one-shot, continuous, derived or a view body). Returns `body`'s result.
@inlinable
public func withoutObservationTracking<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
  let saved = rs_current_scope()
  rs_set_current_scope(nil)
  defer { rs_set_current_scope(saved) }
  return try body()
}
