/// What the build that compiled the engine is.
@usableFromInline
enum BuildConfiguration {
  /// Whether this code was compiled without optimisation (`-Onone`, as `swift build` and
  /// `swift test` do by default): test hooks and the checks that only unoptimised code needs
  /// run then. Optimised builds fold it to false and drop the code it guards.
  ///
  /// It wraps `_isDebugAssertConfiguration()` rather than being it: the compiler's
  /// unreachable-code diagnostics run before this wrapper is inlined, so optimised builds no
  /// longer warn that the guarded code will never be executed.
  @inlinable @inline(__always)
  static var isUnoptimised: Bool { _isDebugAssertConfiguration() }
}
