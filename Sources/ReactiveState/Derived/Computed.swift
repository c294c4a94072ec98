import CReactiveState

/// A memoized derived value: computed lazily from observable state, cached, and recomputed
/// only when something it read changed and someone reads it again.
///
/// ```swift
/// let total = Computed { cart.items.reduce(0) { $0 + $1.price } }
/// total.value          // computes once
/// total.value          // cached
/// cart.items.append(x) // marks it stale; nothing is computed yet
/// total.value          // recomputes
/// ```
///
/// - Reading ``value`` (or ``get()``) inside any tracking scope — one-shot, continuous,
///   ``ObservedValues``, a view body — is a dependency like a property read.
/// - Glitch-free: in a diamond, a reader never sees a mix of old and new inputs, and each
///   derived value recomputes at most once per change.
/// - Equality cut-off: when a recomputation yields a value equal to the cached one (`==`
///   for Equatable values, or a custom `isEqual`), nothing downstream re-runs. One-shot
///   `withObservationTracking` observers are the exception: they fire on the `willSet` of
///   an input, before anything is recomputed (their contract is "about to change").
/// - Dependencies are re-collected on every computation.
/// - A throwing derivation caches its error and rethrows it (``get()``) until an input
///   changes.
/// - A derivation that reads itself stops with an ``ObservationDiagnostic`` naming it.
/// - Lifetime: inputs never keep a derived value alive. While it is read but nobody observes
///   it, it stays subscribed to its inputs so the cache stays valid; when its last observer
///   goes away it drops its upstream edges and recomputes on its next read.
/// - Thread-safe: computations of one value are serialised; reads from several threads see
///   a consistent value.
///
/// As the cached backing of a model's computed property:
/// `lazy var totalCache = Computed { [unowned self] in items.reduce(0, +) }` and
/// `var total: Int { totalCache.value }`.
public final class Computed<Value>: @unchecked Sendable {
  let node: ComputedNode<Value>

  /// A derived value without equality cut-off (every recomputation counts as a change).
  public init(_ name: String = "Computed", _ derive: @escaping () throws -> Value) {
    node = ComputedNode(name: name, isEqual: { _, _ in false }, derive: derive)
  }

  /// A derived value whose recomputations are cut off when `isEqual(old, new)`.
  public init(
    _ name: String = "Computed", isEqual: @escaping (Value, Value) -> Bool,
    _ derive: @escaping () throws -> Value
  ) {
    node = ComputedNode(name: name, isEqual: isEqual, derive: derive)
  }

  /// The current value; rethrows the derivation's cached error.
  public func get() throws -> Value { try node.read().get() }

  /// The current value. A derivation that throws traps here with its error: read throwing
  /// derivations with ``get()``.
  public var value: Value {
    switch node.read() {
    case .success(let value): return value
    case .failure(let error): fatalError("\(node.name) threw \(error); read it with get()")
    }
  }
}

/// The graph node of a ``Computed``: the derivation, its equality and its cached outcome.
final class ComputedNode<Value>: DerivedNode, @unchecked Sendable {
  private let derive: () throws -> Value
  private let isEqual: (Value, Value) -> Bool
  /// The cached outcome (compute lock).
  private var cached: Result<Value, any Error>?

  init(
    name: String, isEqual: @escaping (Value, Value) -> Bool, derive: @escaping () throws -> Value
  ) {
    self.derive = derive
    self.isEqual = isEqual
    super.init(name: name)
  }

  override var hasValue: Bool { cached != nil }

  override func evaluateAndStore() -> Bool {
    let outcome = Result { try derive() }
    defer { cached = outcome }
    guard case .success(let new) = outcome, case .success(let old)? = cached else { return true }
    return !isEqual(old, new)
  }

  /// Brings the value up to date, records the read in the current tracking scope, and
  /// returns the cached outcome (a cycle returns the previous outcome, or the cycle error).
  func read() -> Result<Value, any Error> {
    // A cycle: this thread is inside this node's own computation (and holds its lock).
    guard refresh() else { return .failure(DerivedValueCycle(name: name)) }
    computeLock.lock()
    defer { computeLock.unlock() }
    if let scope = rs_current_scope() {
      Unmanaged<TrackingScope>.fromOpaque(scope)._withUnsafeGuaranteedRef { $0.record(self) }
    }
    return cached!
  }
}

extension Computed where Value: Equatable {
  /// A derived value with `==` equality cut-off.
  public convenience init(_ name: String = "Computed", _ derive: @escaping () throws -> Value) {
    self.init(name, isEqual: ==, derive)
  }
}

/// The error a derived value reports when it is read while it is being computed (a cycle).
public struct DerivedValueCycle: Error, CustomStringConvertible {
  /// The derived value that read itself.
  public let name: String

  public var description: String { "\(name) reads itself (a cycle through derived values)" }
}
