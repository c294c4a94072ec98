// ReactiveState's adapter slot — the one file to change to benchmark the real engine.
//
// Until the engine lands on `main` (`Computed`, `observe { }` effects, `withTransaction { }`),
// the suite's "ReactiveState" column runs the reference engine (`ReferenceEngine.swift`) and
// every row name carries the suffix " (reference impl)".
//
// To wire the engine:
// 1. Write `final class ReactiveStateFramework: ReactiveFramework` below (`import
//    ReactiveState`): `signal` wraps a tracked value, `computed` a `Computed`, `effect` an
//    `observe { }` effect kept alive until `cleanup()`, `withBatch` a `withTransaction { }`
//    (effects must run when it ends), `withBuild` whatever scope owns effects, and `cleanup()`
//    disposes them. Set `exactPullCounts` and `hasEqualityCutoff` to true if the engine has
//    equality cut-off at every node (the suite then also checks computation counts and that
//    nothing below a cut-off re-runs).
// 2. Point the typealias at it and set `reactiveStateAdapterIsReference` to false.
// Nothing else in the suite needs to change.
//
// A sketch against the API on `main` at the time of writing (names may have moved since):
//
//   import ReactiveState
//
//   final class ReactiveStateFramework: ReactiveFramework {
//     let name = "ReactiveState"
//     let exactPullCounts = true
//     let hasEqualityCutoff = true
//     private var tokens: [ObservationToken] = []
//
//     func signal<Value: Equatable>(_ initial: Value) -> SignalHandle<Value> {
//       // A one-property `ReactiveState.Observable` class (like `BenchCell` on main); keep the
//       // observed key path in a non-generic base class, as `ObservedCellBase` does here.
//       let cell = TrackedCell(initial)
//       return SignalHandle(read: { cell.value }, write: { cell.value = $0 })
//     }
//     func computed<Value: Equatable>(_ body: @escaping () -> Value) -> ComputedHandle<Value> {
//       let node = Computed(isEqual: ==, body)
//       return ComputedHandle(read: { node.value })
//     }
//     func effect(_ body: @escaping () -> Void) {
//       // `observe` takes a `@Sendable` closure; the suite is single-threaded, so wrap `body`
//       // in an `@unchecked Sendable` box.
//       tokens.append(observe { box.body() })
//     }
//     func withBatch(_ body: () -> Void) { withTransaction(body) }
//     func withBuild<T>(_ body: () -> T) -> T { body() }
//     func cleanup() { tokens.removeAll() }  // cancel every effect
//   }
//
//   typealias ReactiveStateBenchmarkFramework = ReactiveStateFramework
//   let reactiveStateAdapterIsReference = false

/// The adapter run in the "ReactiveState" column.
typealias ReactiveStateBenchmarkFramework = ReferenceFramework

/// True while the column runs the reference engine instead of ReactiveState.
let reactiveStateAdapterIsReference = true
