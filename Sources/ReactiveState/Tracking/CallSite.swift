/// Identity of the call site of a key-path argument, without materialising the key path.
///
/// The registrar's key-path parameters are autoclosures. In an optimised build a literal
/// `\.name` becomes a context-free closure whose function pointer is unique to its call site
/// (and generic specialisation), and whose result never varies — so the pointer can stand for
/// the key path and the ≈25 ns `swift_getKeyPath` call is skipped after the first use. A
/// closure with a context (captured values, unoptimised builds) yields nil and the key path
/// is materialised every time. Contract: the key-path argument is a literal or a value the
/// closure captures — never read from a mutable global.
@inlinable @inline(__always)
func callSiteIdentity<T>(_ closure: @escaping () -> T) -> UnsafeRawPointer? {
  let parts = unsafeBitCast(closure, to: (UnsafeRawPointer, UnsafeRawPointer?).self)
  return parts.1 == nil ? parts.0 : nil
}

/// ``callSiteIdentity(_:)`` for a non-escaping closure (costs a runtime check that the
/// closure did not escape; for paths that would otherwise look the key path up).
@inlinable @inline(__always)
func callSiteIdentity<T>(nonEscaping closure: () -> T) -> UnsafeRawPointer? {
  withoutActuallyEscaping(closure) { callSiteIdentity($0) }
}
