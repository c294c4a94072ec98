/// A readable reactive value handed to scenarios: a signal or a computed.
///
/// Mirrors the JS harness's `{ read }` object. Handles are plain closures so that every adapter
/// pays the same (small) indirection and scenarios stay independent of any engine's types.
struct ComputedHandle<Value> {
  /// Reads the value, registering a dependency when called inside a computed or an effect.
  let read: () -> Value
}

/// A writable reactive value: the JS harness's `{ read, write }` signal object.
struct SignalHandle<Value> {
  /// Reads the value, registering a dependency when called inside a computed or an effect.
  let read: () -> Value
  /// Writes the value. Writing a value equal to the current one must not propagate.
  let write: (Value) -> Void

  /// The signal seen as a read-only node (a graph layer may mix signals and computeds).
  var asComputed: ComputedHandle<Value> { ComputedHandle(read: read) }
}

/// A reactive engine driven by the scenario suite, after milomg/js-reactivity-benchmark's
/// `ReactiveFramework` interface.
///
/// Semantics every adapter must provide (the scenarios check them):
/// - `computed` is lazy and cached; it recomputes only when a dependency changed.
/// - `effect` runs its body once immediately, then again after each batch (or unbatched write)
///   that changed something it read. Effects run after the outermost `withBatch` returns, with
///   all values consistent.
/// - `withBuild` wraps graph construction (a root or ownership scope); `cleanup` disposes
///   everything built since the previous `cleanup`, so a fresh graph can be built.
///
/// To add an engine, write one file with a `final class` conforming to this protocol (see
/// `ReactiveStateAdapter.swift`). Scenarios are generic over the adapter, so each adapter gets
/// its own specialised copy of every scenario.
protocol ReactiveFramework: AnyObject {
  /// Name printed in diagnostics.
  var name: String { get }
  /// Whether the dynamic graphs' computation counts are checked for this engine (milomg's
  /// `testPullCounts`): true when it recomputes exactly the nodes a lazy push-pull engine with
  /// equality cut-off recomputes on those graphs.
  var exactPullCounts: Bool { get }
  /// Whether a computed that recomputes to an equal value stops propagation (kairo
  /// `avoidablePropagation` then checks that nothing below the cut-off re-runs).
  var hasEqualityCutoff: Bool { get }
  /// Creates a signal holding `initial`.
  func signal<Value: Equatable>(_ initial: Value) -> SignalHandle<Value>
  /// Creates a lazy, cached computed value.
  func computed<Value: Equatable>(_ body: @escaping () -> Value) -> ComputedHandle<Value>
  /// Creates an effect and runs it once.
  func effect(_ body: @escaping () -> Void)
  /// Runs `body` as one batch: effects run once, after it returns.
  func withBatch(_ body: () -> Void)
  /// Runs graph construction.
  func withBuild<T>(_ body: () -> T) -> T
  /// Disposes every effect and node created since the last cleanup.
  func cleanup()
}
