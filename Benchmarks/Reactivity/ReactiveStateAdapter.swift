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
//    disposes them. Set `exactPullCounts` to true if the engine has equality cut-off at every
//    node (the dynamic graphs then also check their computation counts).
// 2. Point the typealias at it and set `reactiveStateAdapterIsReference` to false.
// Nothing else in the suite needs to change.

/// The adapter run in the "ReactiveState" column.
typealias ReactiveStateBenchmarkFramework = ReferenceFramework

/// True while the column runs the reference engine instead of ReactiveState.
let reactiveStateAdapterIsReference = true
