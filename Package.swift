// swift-tools-version: 6.2
import PackageDescription

let package = Package(
  name: "ReactiveState",
  products: [
    .library(name: "ReactiveState", targets: ["ReactiveState"]),
    .library(name: "ReactiveStateMacrosFree", targets: ["ReactiveStateMacrosFree"]),
    .executable(name: "ReactiveStateBenchmarks", targets: ["ReactiveStateBenchmarks"]),
  ],
  targets: [
    // A small C shim: Swift has no thread-local storage of its own (an initial-exec
    // `_Thread_local` read is one instruction: the "current tracking scope" lookup on every
    // read), and C11 atomics give the futex word lock, the fence and the process-wide barrier
    // orderings ThreadSanitizer understands.
    .target(name: "CReactiveState"),
    .target(name: "ReactiveState", dependencies: ["CReactiveState"]),
    .target(name: "ReactiveStateMacrosFree", dependencies: ["ReactiveState"]),
    .executableTarget(
      name: "ReactiveStateBenchmarks",
      dependencies: ["ReactiveState", "ReactiveStateMacrosFree"],
      path: "Benchmarks"
    ),
    .testTarget(
      name: "ReactiveStateTests",
      dependencies: ["ReactiveState", "ReactiveStateMacrosFree"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
