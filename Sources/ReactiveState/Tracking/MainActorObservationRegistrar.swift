import CReactiveState

/// An ``ObservationRegistrar`` for models isolated to the main actor — the usual case for
/// state that views read. Same members and semantics; no atomic read-modify-write on the
/// main thread, because every property of it is read and written there only (the compiler
/// checks this: its members are `@MainActor`).
///
/// ```swift
/// @MainActor final class Counter: Observable {
///   private let registrar = MainActorObservationRegistrar()
///   private var _count = 0
///   var count: Int {
///     get { registrar.access(self, keyPath: \.count); return _count }
///     set { registrar.withMutation(of: self, keyPath: \.count) { _count = newValue } }
///   }
/// }
/// ```
///
/// What it saves: a write moves the property's version with plain stores instead of atomic
/// increments, and a one-shot observer that read only this property parks and fires without
/// a compare-exchange — a track, mutate, `onChange` round trip has no atomic
/// read-modify-write of its own left (the caller's closure still has its reference counts).
/// How much time that saves depends on what atomics cost on the machine: from a third of
/// the round trip on one VM to about nothing on another, where the plain registrar's round
/// trip costs the same.
/// The price is paid by other threads instead, and only when one of them links to such a
/// property (a derived value subscribed from a background observer, say): that link issues
/// a process-wide barrier (Linux `membarrier`, about a microsecond) before it compares
/// versions. Observers and derived values may still be anywhere; every guarantee of the
/// plain registrar holds. Where the main actor runs on another thread than the process's
/// main thread (some test harnesses), that thread uses the atomic protocol and nobody pays
/// the barrier; where the system offers no such barrier, it behaves exactly like
/// ``ObservationRegistrar``.
///
/// Like Observation's registrar, it is equal to and hashes like every other registrar and
/// encodes nothing.
@MainActor
public struct MainActorObservationRegistrar: Sendable {
  /// The registrar doing the work (its properties confined to the main thread).
  @usableFromInline let registrar: ObservationRegistrar

  /// Creates a registrar for one main-actor observable object.
  public nonisolated init() { registrar = ObservationRegistrar(confinedToMainThread: ()) }

  /// The registrar doing the work, whose accessors are nonisolated: for `@Tracked`
  /// (ReactiveStateMacrosFree), whose accessors run in the main-actor class's own property
  /// accessors. Package access: clients use this registrar's own (`@MainActor`) members.
  @inlinable
  package nonisolated var confinedRegistrar: ObservationRegistrar { registrar }

  /// Records a read of `keyPath` inside a tracking scope (see
  /// ``ObservationRegistrar/access(_:keyPath:)``).
  @inlinable @inline(__always)
  public func access<Subject: Observable, Member>(
    _ subject: Subject, keyPath: @autoclosure () -> KeyPath<Subject, Member>
  ) {
    registrar._access(subject, keyPathProvider: keyPath)
  }

  /// Announces that `keyPath` is about to change (see ``ObservationRegistrar/willSet(_:keyPath:)``).
  @inlinable @inline(__always)
  public func willSet<Subject: Observable, Member>(
    _ subject: Subject, keyPath: @autoclosure () -> KeyPath<Subject, Member>
  ) {
    registrar._willSet(subject, keyPathProvider: keyPath)
  }

  /// Announces that `keyPath` has changed (see ``ObservationRegistrar/didSet(_:keyPath:)``).
  @inlinable @inline(__always)
  public func didSet<Subject: Observable, Member>(
    _ subject: Subject, keyPath: @autoclosure () -> KeyPath<Subject, Member>
  ) {
    registrar._didSet(subject, keyPathProvider: keyPath)
  }

  /// Runs `mutation` between `willSet` and `didSet`; `didSet` runs even when `mutation`
  /// throws (see ``ObservationRegistrar/withMutation(of:keyPath:_:)``).
  @inlinable @inline(__always)
  public func withMutation<Subject: Observable, Member, T>(
    of subject: Subject, keyPath: @autoclosure () -> KeyPath<Subject, Member>,
    _ mutation: () throws -> T
  ) rethrows -> T {
    try registrar._withMutation(of: subject, keyPathProvider: keyPath, mutation)
  }

  /// ``withMutation(of:keyPath:_:)`` for wrappers that forward a key-path autoclosure.
  @inlinable @inline(__always)
  public func _withMutation<Subject: Observable, Member, T>(
    of subject: Subject, keyPathProvider keyPath: () -> KeyPath<Subject, Member>,
    _ mutation: () throws -> T
  ) rethrows -> T {
    try registrar._withMutation(of: subject, keyPathProvider: keyPath, mutation)
  }
}

extension MainActorObservationRegistrar: Codable {
  /// Decodes nothing: a decoded registrar is a fresh one.
  public nonisolated init(from decoder: any Decoder) throws { self.init() }

  /// Encodes nothing.
  public nonisolated func encode(to encoder: any Encoder) {}
}

extension MainActorObservationRegistrar: Hashable {
  /// Always true: registrars never make their hosts unequal.
  public nonisolated static func == (lhs: Self, rhs: Self) -> Bool { true }

  /// Hashes nothing.
  public nonisolated func hash(into hasher: inout Hasher) {}
}

/// Which thread owns the properties of main-actor registrars: the process's main thread.
enum MainThreadConfinement {
  /// Runs `body` with the calling thread standing in for the main thread (tests only: a test
  /// harness may run main-actor work elsewhere, and the tests must reach the confined paths).
  /// Confined properties `body` uses must not be touched by the real main thread meanwhile.
  static func actingAsMainThread<T>(_ body: () throws -> T) rethrows -> T {
    let thread = rs_current_thread()
    _ = rs_is_main_thread()  // classify first, so the previous kind is known
    let previous = thread.pointee.thread_kind
    thread.pointee.thread_kind = 1
    defer { thread.pointee.thread_kind = previous }
    return try body()
  }
}
