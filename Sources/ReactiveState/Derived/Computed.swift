import CReactiveState
import Synchronization

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
/// - Equality cut-off: when a recomputation yields a value equal to the cached one (`==` for
///   Equatable values, or a custom `isEqual`), the cached value is kept (the new one is dropped, as
///   MobX's computed values and Solid's memos do) and nothing downstream re-runs. One-shot
///   registrations are the exception (`withObservationTracking`, with or without options: their
///   events mean "an input is about to change" / "an input changed"), and so are `.willSet` events
///   of continuous observers delivered at the write: they hear every change of an input, before
///   anything is recomputed. A one-shot re-armed from its `onChange` fires once per write, as with
///   a computed property.
/// - Dependencies are re-collected on every computation.
/// - A throwing derivation caches its error and rethrows it (``get()``) until an input
///   changes.
/// - A derivation that reads itself stops with an ``ObservationDiagnostic`` naming it — also
///   when the cycle spans threads (two values that read each other, computed at once on two
///   threads, would otherwise wait for each other forever): one of the reads fails instead,
///   throwing ``DerivedValueCycle`` from ``get()`` (``value`` traps with it, as with any
///   error: read a value that may be part of a cycle with ``get()``).
/// - Lifetime: inputs never keep a derived value alive, and it subscribes to its inputs only while
///   something observes it. Read without observers it keeps no upstream edges: each read checks its
///   inputs' versions and recomputes only when one moved, and checks each unobserved derived value
///   behind it once, however many paths lead to it (a graph of diamonds costs a read time linear in
///   its size — on every read, even with no write since the last one: keep a value that is read
///   often, behind a deep unobserved graph, observed). A write made on the reading thread during
///   the read (by a derivation) is seen by the rest of it; one made on another thread meanwhile
///   reaches the values checked after it, not those checked before (a read racing writes on other
///   threads is no snapshot either way). When its last observer goes away it keeps its upstream
///   edges through one more change of its inputs (an observer that comes back meanwhile, such as a
///   dependency switching back and forth, finds them in place) and drops them at the second, or at
///   once when it is recomputed without observers; stale derived values it then orphans drop theirs
///   with it. A change counts when it reaches the value, or stops at a stale derived value it reads
///   (directly or through other stale derived values, which pass on no change until read), so a
///   value that reads only other derived values drops its edges at the second change too; writes to
///   state it does not read never count. An observer reading it again links them back (keeping a
///   cached value that is still valid).
/// - A derived value freed while others still depend on it (one created inside a derivation
///   and dropped when it returns, or one an observer holds weakly) can never recompute; every
///   later change of its inputs still reaches its dependents, which then recompute and stop
///   reading it. Unobserved, a value whose derivation reads such a temporary recomputes on
///   every read: keep derived values outside the derivations that read them.
/// - A pending one-shot registration (`withObservationTracking`) over a derived value that
///   goes away — one made inside `apply`, or released after it — listens to that value's
///   inputs from then on, as a registration over a computed property listens to what it
///   reads: a later change of an input fires it, and it ends without a call when those
///   inputs' objects are gone. The value's own release is no `.deinit` event; an object read
///   only through it and deallocated before it is reported when it goes.
/// - Thread-safe: computations of one value are serialised; reads from several threads see
///   a consistent value.
/// - Bringing a value up to date, subscribing it and releasing it take constant stack space
///   however deep the chain of derived values behind it (the last reference to a chain whose
///   derivations capture their predecessors frees the whole chain in a loop, not one nested
///   deinitialisation per value). Only a first computation nests (each derivation computes
///   the values it reads inside that read).
///
/// As the cached backing of a model's computed property, use `ReactiveStateMacrosFree`'s
/// `@Derived` — `@Derived({ (cart: Cart) in cart.items.reduce(0, +) }) var total: Int` — which
/// creates a ``init(_:of:isEqual:_:)`` value of the model on first access, from any thread.
/// Such a value holds the model weakly, so the model can own it, and stays safe when the model
/// is released while another thread computes it. Prefer it to a `Computed` that captures the
/// model `unowned` in a `lazy var`: a `lazy var` is initialised without synchronisation, and a
/// computation racing the model's release would read a deinitialising object (see
/// ``init(_:of:isEqual:_:)``).
public final class Computed<Value>: @unchecked Sendable {
  // Layout: what a computation and a lock-free read touch first, the value (of any size)
  // after them.
  @usableFromInline let node: ComputedNode
  /// The derivation and the cut-off live here, not in the node: they (and what they
  /// captured) go away with this object, even if a dependent keeps the node a little longer.
  @usableFromInline let derive: () throws -> Value
  /// A value of a plain type of at most eight bytes (`Int`, `Double`, `Bool`, small enums…)
  /// is also kept as one atomic word, which readers load without the compute lock while the
  /// node says it is current (see ``DerivedNode/beginLockFreeRead()``).
  @usableFromInline let lockFreeBits = Atomic<UInt64>(0)
  /// The cached outcome (guarded by the node's compute lock): the last value computed and,
  /// when the last computation threw, its error (which then takes precedence).
  @exclusivity(unchecked) @usableFromInline var cachedError: (any Error)?
  @exclusivity(unchecked) @usableFromInline var cachedValue: Value?
  @usableFromInline let isEqual: (Value, Value) -> Bool
  /// Declared last: released after the derivation, it ends this value's release (see
  /// ``DerivedRelease``).
  private let releaseScope = DerivedReleaseScope()

  /// A derived value without equality cut-off (every recomputation counts as a change).
  @inlinable
  public convenience init(_ name: String = "Computed", _ derive: @escaping () throws -> Value) {
    self.init(name, isEqual: { _, _ in false }, derive)
  }

  /// A derived value whose recomputations are cut off when `isEqual(old, new)`.
  @inlinable
  public convenience init(
    _ name: String = "Computed", isEqual: @escaping (Value, Value) -> Bool,
    _ derive: @escaping () throws -> Value
  ) {
    self.init(name: name, derive: derive, isEqual: isEqual) { subject in
      Unmanaged<Computed>.fromOpaque(subject)._withUnsafeGuaranteedRef {
        Computed.evaluateWithStoredEquality($0)
      }
    }
  }

  /// Takes the node's evaluation closure built by the caller, in its specialised context, so
  /// evaluating and comparing never go through generic metadata at run time (and the closure
  /// captures nothing). It receives this object unretained — the deinitialiser abandons the
  /// node first, so no computation runs after this object goes — and uses it through a
  /// guaranteed reference, so a computation costs no reference counting.
  @usableFromInline
  init(
    name: String, derive: @escaping () throws -> Value,
    isEqual: @escaping (Value, Value) -> Bool,
    evaluate: @escaping (UnsafeRawPointer) -> EvaluationOutcome
  ) {
    self.derive = derive
    self.isEqual = isEqual
    node = ComputedNode(name: name, evaluate: evaluate)
    node.evaluationSubject = UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque())
  }

  deinit {
    // The node may outlive this object (an observer on another thread may be checking it):
    // it must never run the derivation, or touch the cached outcome, after this.
    node.abandon()
    // Freed inside another derived value's release (a chain), the derivation — and the value
    // before it that it captured — is released later, in a loop, instead of nested here.
    DerivedRelease.begin(keeping: derive)
  }

  /// The current value; rethrows the derivation's cached error.
  @inlinable
  public func get() throws -> Value {
    // Small plain values of a current, observed node are read with no lock at all.
    if Self.isLockFreeReadable && node.beginLockFreeRead() { return lockFreeCopy }
    return try getPulling()
  }

  /// ``get()`` through the compute lock: out of line, so the lock-free read keeps a small
  /// frame.
  @inlinable @inline(never)
  func getPulling() throws -> Value { try pulled() }

  /// The read through the compute lock: brings the value up to date and copies the outcome.
  @inlinable @inline(__always)
  func pulled() throws -> Value {
    guard node.pullAndTrack() else { throw DerivedValueCycle(name: node.name) }
    defer { node.endRead() }
    if let cachedError { throw cachedError }
    return cachedValue.unsafelyUnwrapped
  }

  /// The current value. A derivation that throws, or a read that closes a cycle
  /// (``DerivedValueCycle``), traps here with its error: read such values with ``get()``.
  @inlinable
  public var value: Value {
    if Self.isLockFreeReadable && node.beginLockFreeRead() { return lockFreeCopy }
    return valuePulling()
  }

  /// ``value`` through the compute lock, out of line (see ``getPulling()``).
  @inlinable @inline(never)
  func valuePulling() -> Value {
    do {
      return try pulled()
    } catch {
      fatalError("\(node.name) threw \(error); read it with get()")
    }
  }

  /// ``evaluate(isEqual:)`` with the stored `isEqual`, out of line and static: the node's
  /// evaluation closure reaches it with a jump.
  @inlinable @inline(never)
  static func evaluateWithStoredEquality(_ computed: Computed) -> EvaluationOutcome {
    computed.evaluate(isEqual: computed.isEqual)
  }

  /// Runs the derivation and stores its outcome (compute-lock holder); returns whether it
  /// differs from the previous one under `isEqual` (always true for a first value and for
  /// errors) and whether the outcome is readable without the lock. A value equal to the cached
  /// one is dropped: the cached value stays what every reader saw, so a custom `isEqual` that
  /// calls close values equal cannot let it drift away from them in small steps.
  @inlinable @inline(__always)
  func evaluate(isEqual: (Value, Value) -> Bool) -> EvaluationOutcome {
    let new: Value
    do {
      new = try derive()
    } catch {
      cachedError = error
      return EvaluationOutcome(changed: true, lockFreeReadable: false)
    }
    if cachedError == nil, let old = cachedValue {
      if isEqual(old, new) {
        return EvaluationOutcome(changed: false, lockFreeReadable: Self.isLockFreeReadable)
      }
    } else {
      cachedError = nil
    }
    cachedValue = new
    if Self.isLockFreeReadable { storeLockFreeCopy(new) }
    return EvaluationOutcome(changed: true, lockFreeReadable: Self.isLockFreeReadable)
  }

  /// Whether `Value` fits the lock-free word (trivially copyable, at most eight bytes).
  @inlinable static var isLockFreeReadable: Bool {
    _isPOD(Value.self) && MemoryLayout<Value>.size <= MemoryLayout<UInt64>.size
  }

  /// Stores `value`'s bytes in the lock-free word (compute-lock holder, before the node
  /// publishes it as current). A value of 1, 2, 4 or 8 bytes is reinterpreted as an integer
  /// (in the word's low bytes), with no pointer to a local: taking one gives the evaluation
  /// a stack protector (a canary stored and checked on every computation).
  @inlinable func storeLockFreeCopy(_ value: Value) {
    let bits: UInt64
    switch MemoryLayout<Value>.size {
    case 8: bits = unsafeBitCast(value, to: UInt64.self)
    case 4: bits = UInt64(unsafeBitCast(value, to: UInt32.self))
    case 2: bits = UInt64(unsafeBitCast(value, to: UInt16.self))
    case 1: bits = UInt64(unsafeBitCast(value, to: UInt8.self))
    default:
      var word: UInt64 = 0
      withUnsafeMutableBytes(of: &word) { word in
        withUnsafeBytes(of: value) { word.copyMemory(from: $0) }
      }
      bits = word
    }
    lockFreeBits.store(bits, ordering: .releasing)
  }

  /// The value in the lock-free word (as ``storeLockFreeCopy(_:)`` stored it).
  @inlinable var lockFreeCopy: Value {
    let bits = lockFreeBits.load(ordering: .acquiring)
    switch MemoryLayout<Value>.size {
    case 8: return unsafeBitCast(bits, to: Value.self)
    case 4: return unsafeBitCast(UInt32(truncatingIfNeeded: bits), to: Value.self)
    case 2: return unsafeBitCast(UInt16(truncatingIfNeeded: bits), to: Value.self)
    case 1: return unsafeBitCast(UInt8(truncatingIfNeeded: bits), to: Value.self)
    default: return withUnsafeBytes(of: bits) { $0.load(as: Value.self) }
    }
  }
}

/// The graph node of a ``Computed``; type-erased so the engine runs no generic code.
@usableFromInline
final class ComputedNode: DerivedNode, @unchecked Sendable {
  /// A node whose `evaluate` runs the derivation, stores the outcome and returns whether it
  /// changed.
  @usableFromInline
  override init(
    name: String,
    evaluate: @escaping (UnsafeRawPointer) -> EvaluationOutcome
  ) {
    super.init(name: name, evaluate: evaluate)
  }

  /// Brings the value up to date and records the read in the current tracking scope.
  /// On success the compute lock is held until ``endRead()`` (the caller copies the
  /// outcome); returns false on a cycle (nothing held).
  @usableFromInline
  func pullAndTrack() -> Bool {
    // A cycle: this thread is inside this node's own computation (and holds its lock).
    guard let scope = rs_current_scope() else { return refreshKeepingLock(forSubscriber: false) }
    return Unmanaged<TrackingScope>.fromOpaque(scope)._withUnsafeGuaranteedRef { scope in
      let subscribes = scope.subscribesToReads
      guard refreshKeepingLock(forSubscriber: subscribes) else {
        recordReadThatFoundACycle(in: scope)
        return false
      }
      if subscribes && isUnlinked.load(ordering: .relaxed) { subscribeUpstream() }
      scope.recordIfNew(self)
      return true
    }
  }

  /// Releases the compute lock taken by a successful ``pullAndTrack()``.
  @usableFromInline
  func endRead() { releaseComputeLock() }
}

extension Computed where Value: Equatable {
  /// A derived value with `==` equality cut-off.
  @inlinable
  public convenience init(_ name: String = "Computed", _ derive: @escaping () throws -> Value) {
    // `==` itself, not the stored closure: the comparison is inlined into the evaluation.
    self.init(name: name, derive: derive, isEqual: ==) { subject in
      Unmanaged<Computed>.fromOpaque(subject)._withUnsafeGuaranteedRef {
        Computed.evaluateWithEquatableEquality($0)
      }
    }
  }

  /// ``evaluate(isEqual:)`` with `==`, out of line and static: the node's evaluation closure
  /// reaches it with a jump (a closure holding the evaluation was called through a frame of
  /// its own).
  @inlinable @inline(never)
  static func evaluateWithEquatableEquality(_ computed: Computed) -> EvaluationOutcome {
    computed.evaluate(isEqual: ==)
  }
}

/// The error a derived value reports when it is read while it is being computed (a cycle).
public struct DerivedValueCycle: Error, CustomStringConvertible {
  /// The derived value that read itself.
  public let name: String

  @usableFromInline init(name: String) { self.name = name }

  /// Names the derived value and the cycle.
  public var description: String { "\(name) reads itself (a cycle through derived values)" }
}

/// What a derived value's evaluation reports, in one byte: whether the outcome differs from
/// the previous one, and whether it is a value readers may load without the compute lock.
/// One integer rather than a tuple of two flags, so the node's evaluation closure returns
/// its callee's result as is (it reaches it with a jump, not a call).
@usableFromInline
struct EvaluationOutcome {
  @usableFromInline let bits: UInt8

  @inlinable
  init(changed: Bool, lockFreeReadable: Bool) {
    bits = (changed ? 1 : 0) | (lockFreeReadable ? 2 : 0)
  }

  var changed: Bool { bits & 1 != 0 }
  var lockFreeReadable: Bool { bits & 2 != 0 }
}
