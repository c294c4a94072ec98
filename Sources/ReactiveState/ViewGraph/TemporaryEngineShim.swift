// TEMPORARY: a minimal stand-in for the engine the lead is writing on `main`, so the view graph
// builds before it lands. Deleted by the merge that brings the real engine.

private final class ShimScope: @unchecked Sendable {
  var reads: [ObjectIdentifier: (ShimStore, Set<AnyKeyPath>)] = [:]
}

private final class ShimObserver: @unchecked Sendable {
  let onChange: @Sendable () -> Void
  var fired = false
  init(_ onChange: @escaping @Sendable () -> Void) { self.onChange = onChange }
}

private final class ShimStore: @unchecked Sendable {
  var observers: [AnyKeyPath: [ObjectIdentifier: ShimObserver]] = [:]
}

nonisolated(unsafe) private var shimCurrentScope: ShimScope?

/// Temporary registrar stand-in.
public struct ObservationRegistrar: Sendable {
  private let store = ShimStore()
  /// Creates a registrar.
  public init() {}
  /// Records a read.
  public func access<Subject: Observable, Member>(_ subject: Subject, keyPath: KeyPath<Subject, Member>) {
    guard let scope = shimCurrentScope else { return }
    let id = ObjectIdentifier(store)
    var entry = scope.reads[id] ?? (store, [])
    entry.1.insert(keyPath)
    scope.reads[id] = entry
  }
  /// Fires observers of `keyPath`.
  public func willSet<Subject: Observable, Member>(_ subject: Subject, keyPath: KeyPath<Subject, Member>) {
    let fired = store.observers.removeValue(forKey: keyPath) ?? [:]
    for observer in fired.values where !observer.fired {
      observer.fired = true
      observer.onChange()
    }
  }
  /// No-op.
  public func didSet<Subject: Observable, Member>(_ subject: Subject, keyPath: KeyPath<Subject, Member>) {}
  /// willSet, store, didSet.
  public func withMutation<Subject: Observable, Member, T>(
    of subject: Subject, keyPath: KeyPath<Subject, Member>, _ mutation: () throws -> T
  ) rethrows -> T {
    willSet(subject, keyPath: keyPath)
    defer { didSet(subject, keyPath: keyPath) }
    return try mutation()
  }
}

/// Temporary one-shot tracking stand-in.
public func withObservationTracking<T>(
  _ apply: () -> T, onChange: @autoclosure () -> @Sendable () -> Void
) -> T {
  let outer = shimCurrentScope
  let scope = ShimScope()
  shimCurrentScope = scope
  let result = apply()
  shimCurrentScope = outer
  if let outer {
    for (id, entry) in scope.reads {
      var merged = outer.reads[id] ?? (entry.0, [])
      merged.1.formUnion(entry.1)
      outer.reads[id] = merged
    }
  }
  let observer = ShimObserver(onChange())
  for (_, (store, keyPaths)) in scope.reads {
    for keyPath in keyPaths { store.observers[keyPath, default: [:]][ObjectIdentifier(observer)] = observer }
  }
  return result
}
