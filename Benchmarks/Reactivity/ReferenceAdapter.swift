/// Adapter for the reference engine (`ReferenceEngine.swift`), the scenarios' test oracle.
final class ReferenceFramework: ReactiveFramework {
  let name = "reference"
  let exactPullCounts = true
  let hasEqualityCutoff = true
  private let runtime = ReferenceRuntime()

  func signal<Value: Equatable>(_ initial: Value) -> SignalHandle<Value> {
    let node = ReferenceSignal(runtime: runtime, value: initial)
    return SignalHandle(read: node.read, write: node.write)
  }

  func computed<Value: Equatable>(_ body: @escaping () -> Value) -> ComputedHandle<Value> {
    let node = ReferenceComputed(runtime: runtime, body: body)
    return ComputedHandle(read: node.read)
  }

  func effect(_ body: @escaping () -> Void) {
    let node = ReferenceEffect(runtime: runtime, body: body)
    runtime.updateIfNecessary(node)
  }

  func withBatch(_ body: () -> Void) { runtime.batch(body) }

  func withBuild<T>(_ body: () -> T) -> T { body() }

  func cleanup() { runtime.disposeAll() }
}
