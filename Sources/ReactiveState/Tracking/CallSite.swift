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
func callSiteIdentity<Root, Value>(_ keyPath: () -> KeyPath<Root, Value>) -> UnsafeRawPointer? {
  _closureCodeAddress(keyPath)
}

/// The code address of a context-free closure, or nil when it has a context. Implemented in C
/// (`CReactiveState.c`): Swift passes a closure argument as its (function, context) pair in
/// the first two argument registers, which the C function receives as its two parameters.
/// Unlike `withoutActuallyEscaping` plus a bit cast, this needs no runtime escape check; the
/// conversion of the key-path closure to `() -> AnyKeyPath` is a class upcast of its result,
/// which Swift performs without a thunk, so the address is the call site's own closure.
@usableFromInline @_silgen_name("rs_closure_code_address")
func _closureCodeAddress(_ closure: () -> AnyKeyPath) -> UnsafeRawPointer?
