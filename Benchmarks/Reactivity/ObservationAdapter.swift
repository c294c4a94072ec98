import Observation

/// The baseline: the suite's graphs driven by the toolchain's `Observation` module.
///
/// Observation has observable stored properties and one-shot `withObservationTracking`, but no
/// derived values, effects or batches. This adapter builds them in the most direct way:
/// - **Signal**: an `Observable` object holding one value (`ObservedCell`, the code the
///   `@Observable` macro generates for one stored property). A write that changes the value
///   goes through the registrar, which fires the `onChange` of every tracking that read it.
/// - **Computed**: a cached value plus a dirty flag. A read of a dirty computed recomputes it
///   inside `withObservationTracking`; that tracking's `onChange` marks it dirty again (the
///   tracking is re-armed by the next recompute) and announces the invalidation downstream with
///   a `withMutation` on the computed's own cell, which readers track. `onChange` fires at
///   `willSet` time, before the new value is stored, so nothing is recomputed there: values are
///   pulled lazily on the next read.
/// - **Effect**: runs inside `withObservationTracking`; its `onChange` queues it, and queued
///   effects re-run (re-arming their tracking) when the outermost batch ends, so they see
///   consistent values.
///
/// Consequences, which are properties of the approach rather than bugs:
/// - There is no equality cut-off below the signals: an invalidation reaches everything
///   downstream, and every invalidated computed that is read recomputes even when its inputs'
///   values turned out equal (kairo `avoidablePropagation` re-runs c3…c5 and its effect on
///   every write). In the six dynamic graphs every recomputed node's value changes, so the
///   computation counts still equal the suite's (checked: `exactPullCounts`).
/// - `withObservationTracking` merges a nested tracking's accesses into the enclosing one, so an
///   effect or computed that triggers a recompute also observes that computed's sources. In a
///   deep graph this is quadratic: the `3-5x500` graph takes about a second per write.
///
/// Everything is single-threaded; the `@unchecked Sendable` conformances only satisfy the
/// `@Sendable` `onChange` closure. Observation's names are module-qualified because
/// ReactiveState declares the same ones.
final class ObservationFramework: ReactiveFramework {
  let name = "Observation"
  let exactPullCounts = true
  let hasEqualityCutoff = false
  private let runtime = ObservationRuntime()

  func signal<Value: Equatable>(_ initial: Value) -> SignalHandle<Value> {
    let cell = ObservedCell(initial)
    let runtime = runtime
    return SignalHandle(
      read: { cell.value },
      write: { newValue in
        if cell.peek != newValue { cell.value = newValue }
        runtime.flushEffects()
      })
  }

  func computed<Value: Equatable>(_ body: @escaping () -> Value) -> ComputedHandle<Value> {
    let node = ObservedComputed(body: body)
    runtime.computeds.append(node)
    return ComputedHandle(read: node.read)
  }

  func effect(_ body: @escaping () -> Void) {
    let node = ObservedEffect(runtime: runtime, body: body)
    runtime.effects.append(node)
    node.run()
  }

  func withBatch(_ body: () -> Void) {
    runtime.batchDepth += 1
    body()
    runtime.batchDepth -= 1
    runtime.flushEffects()
  }

  func withBuild<T>(_ body: () -> T) -> T { body() }

  func cleanup() {
    for effect in runtime.effects { effect.isDisposed = true }
    for computed in runtime.computeds { computed.dispose() }
    runtime.effects = []
    runtime.computeds = []
    runtime.pending = []
  }
}

/// The observable part of a cell: a registrar and one observed property, as the `@Observable`
/// macro expands a stored property of a non-generic class. Key paths into a generic class are
/// instantiated at run time on every use, which a typical (non-generic) model does not pay, so
/// the observed key path lives here and the generic value in the subclass.
class ObservedCellBase: Observation.Observable, @unchecked Sendable {
  private let registrar = Observation.ObservationRegistrar()
  /// The property observers register on; the cell's content lives in the subclass.
  private final var content: Void = ()

  /// Registers an access (a tracked read).
  final func access() { registrar.access(self, keyPath: \.content) }

  /// Performs `mutation` as a change of the observed property (observers' `onChange` fires).
  final func mutate(_ mutation: () -> Void) {
    registrar.withMutation(of: self, keyPath: \.content, mutation)
  }
}

/// One observable stored value.
final class ObservedCell<Value>: ObservedCellBase, @unchecked Sendable {
  private var storage: Value

  init(_ value: Value) { storage = value }

  var value: Value {
    get {
      access()
      return storage
    }
    set { mutate { storage = newValue } }
  }

  /// The value without registering an access.
  var peek: Value { storage }
}

/// Batch depth, effect queue and the nodes to dispose for the Observation baseline.
final class ObservationRuntime: @unchecked Sendable {
  var batchDepth = 0
  var pending: [ObservedEffect] = []
  var effects: [ObservedEffect] = []
  var computeds: [any ObservedDisposable] = []
  private var flushing = false

  /// Re-runs queued effects unless a batch is open.
  func flushEffects() {
    guard batchDepth == 0, !flushing, !pending.isEmpty else { return }
    flushing = true
    var index = 0
    while index < pending.count {
      let effect = pending[index]
      index += 1
      effect.isQueued = false
      if !effect.isDisposed { effect.run() }
    }
    pending.removeAll(keepingCapacity: true)
    flushing = false
  }
}

/// A baseline node that `cleanup` must switch off.
protocol ObservedDisposable: AnyObject {
  func dispose()
}

/// A cached derived value invalidated by a re-armed one-shot `withObservationTracking`.
final class ObservedComputed<Value>: ObservedDisposable, @unchecked Sendable {
  private let body: () -> Value
  private let cell = ObservedCellBase()
  private var cached: Value?
  private var isDirty = true
  private var isDisposed = false

  init(body: @escaping () -> Value) { self.body = body }

  func read() -> Value {
    if isDirty {
      isDirty = false
      cached = Observation.withObservationTracking(body) { [weak self] in self?.invalidate() }
    }
    cell.access()
    return cached!
  }

  /// Called at `willSet` of a source: mark dirty and tell downstream readers.
  private func invalidate() {
    guard !isDirty, !isDisposed else { return }
    isDirty = true
    cell.mutate {}
  }

  func dispose() { isDisposed = true }
}

/// A side effect re-run (and re-tracked) after each batch that changed something it read.
final class ObservedEffect: @unchecked Sendable {
  private unowned let runtime: ObservationRuntime
  private let body: () -> Void
  var isQueued = false
  var isDisposed = false

  init(runtime: ObservationRuntime, body: @escaping () -> Void) {
    self.runtime = runtime
    self.body = body
  }

  func run() {
    Observation.withObservationTracking(body) { [weak self] in self?.schedule() }
  }

  private func schedule() {
    guard !isQueued, !isDisposed else { return }
    isQueued = true
    runtime.pending.append(self)
  }
}
