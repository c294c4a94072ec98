import ReactiveState

/// ReactiveState driving the scenario suite: signals are one-property observable cells,
/// computeds are `Computed` values with `==` cut-off, effects are `observe { }` observers,
/// batches are transactions.
final class ReactiveStateFramework: ReactiveFramework {
  let name = "ReactiveState"
  let exactPullCounts = true
  let hasEqualityCutoff = true
  private var tokens: [ObservationToken] = []
  private var retained: [AnyObject] = []

  func signal<Value: Equatable>(_ initial: Value) -> SignalHandle<Value> {
    let cell = ReactiveCell(initial)
    return SignalHandle(read: { cell.value }, write: { cell.value = $0 })
  }

  func computed<Value: Equatable>(_ body: @escaping () -> Value) -> ComputedHandle<Value> {
    let node = Computed(isEqual: ==, body)
    retained.append(node)
    return ComputedHandle(read: { node.value })
  }

  func effect(_ body: @escaping () -> Void) {
    let box = UncheckedBox(body)
    tokens.append(observe { box.value() })
  }

  func withBatch(_ body: () -> Void) { withTransaction(body) }

  func withBuild<T>(_ body: () -> T) -> T { body() }

  func cleanup() {
    for token in tokens { token.cancel() }
    tokens.removeAll()
    retained.removeAll()
  }
}

/// The observed property lives in a non-generic base class: a key-path literal in a generic
/// class would be instantiated on every access.
class ReactiveCellBase: ReactiveState.Observable, @unchecked Sendable {
  private let registrar = ReactiveState.ObservationRegistrar()
  private final var content: Void = ()

  /// Records a tracked read.
  final func access() { registrar.access(self, keyPath: \.content) }

  /// Performs `mutation` as a change of the observed property.
  final func mutate(_ mutation: () -> Void) {
    registrar.withMutation(of: self, keyPath: \.content, mutation)
  }
}

/// One observable stored value with the macro's equality rule.
final class ReactiveCell<Value: Equatable>: ReactiveCellBase, @unchecked Sendable {
  private var storage: Value

  init(_ value: Value) { storage = value }

  var value: Value {
    get {
      access()
      return storage
    }
    set {
      guard newValue != storage else { return }
      mutate { storage = newValue }
    }
  }
}

/// The adapter run in the "ReactiveState" column.
typealias ReactiveStateBenchmarkFramework = ReactiveStateFramework

/// True while the column runs the reference engine instead of ReactiveState.
let reactiveStateAdapterIsReference = false
