// Hooks into the engine for tests: this file alone imports it `@testable`.
import CReactiveState

@testable import ReactiveState

/// A plain ``ObservationRegistrar`` whose properties are confined to the main thread, as
/// inside ``MainActorObservationRegistrar`` — without the `@MainActor` API, so the tests'
/// nonisolated models (and the differential fuzzers) can run the confined protocol, and
/// exercise its slow side (another thread linking) on purpose.
func mainThreadConfinedRegistrar() -> ObservationRegistrar {
  ObservationRegistrar(confinedToMainThread: ())
}

/// Whether registrars made by ``mainThreadConfinedRegistrar()`` really are confined here
/// (the process-wide barrier exists on this system).
var mainThreadConfinementIsAvailable: Bool {
  RegistrarStorage(confinedToMainThread: ()).isConfinedToMainThread
}

/// Runs `body` with the calling thread standing in for the main thread, which owns confined
/// properties (the test harness runs main-actor work off the main thread on Linux).
func actingAsMainThread<T>(_ body: () throws -> T) rethrows -> T {
  try MainThreadConfinement.actingAsMainThread(body)
}

/// What a `HandModel`'s slot for `a` holds: whether a one-shot registration is parked in it
/// rather than linked into the graph, and how many graph listeners react to its `willSet` and
/// `didSet`.
extension HandModel {
  var aHasParkedOneShot: Bool {
    registrar.storage.existingSlot(for: \HandModel.a)?.hasParkedOneShot ?? false
  }

  var aWillSetListeners: Int {
    registrar.storage.existingSlot(for: \HandModel.a)?.willSetListeners.load(ordering: .relaxed)
      ?? 0
  }

  /// The address of the slot behind `a`, if it exists: whether a new model's slot took over
  /// the memory of a deallocated one's.
  var aSlotAddress: UnsafeRawPointer? {
    registrar.storage.existingSlot(for: \HandModel.a).map {
      UnsafeRawPointer(Unmanaged.passUnretained($0).toOpaque())
    }
  }

  /// How many graph subscribers (observers, derived values) react to `didSet` of `a`.
  var aDidSetListeners: Int {
    registrar.storage.existingSlot(for: \HandModel.a)?.didSetListeners.load(ordering: .relaxed)
      ?? 0
  }
}

extension LockedTriple {
  /// How many graph subscribers (observers, derived values) react to `didSet` of cell 0.
  var firstDidSetListeners: Int {
    registrar.storage.existingSlot(for: \LockedTriple.first)?.didSetListeners.load(
      ordering: .relaxed) ?? 0
  }
}

/// A weak reference to one of a model's property slots.
struct WeakSlot {
  weak var slot: AnyObject?
}

extension HandModel {
  /// Weak references to the slots of `a`, `b` and `c` that exist: the slot list owns them, so
  /// each must go away with the model.
  var weakSlots: [WeakSlot] {
    [\HandModel.a, \HandModel.b, \HandModel.c].compactMap {
      registrar.storage.existingSlot(for: $0).map { WeakSlot(slot: $0) }
    }
  }

  /// Whether a continuous observer is parked in the slot of `a` (see
  /// `ContinuousObserver+Parking.swift`) rather than linked into the graph.
  var aHasParkedContinuousObserver: Bool {
    guard let slot = registrar.storage.existingSlot(for: \HandModel.a) else { return false }
    return slot.parkedRegistration.load(ordering: .relaxed) & PropertySlot.continuousKind != 0
  }
}

/// How many self-invalidating re-runs a continuous observer makes before it is stopped.
let continuousRerunLimit = ContinuousObserver.rerunLimit

/// The calling thread's observer-run nesting depth and how many observer scopes it keeps for
/// reuse (see `ObserverScopeStack`).
var observerScopeStackOnThisThread: (depth: Int, kept: Int) {
  let scopes = rs_observer_scopes()
  let kept = (0..<Int(RS_OBSERVER_SCOPE_LIMIT)).filter { scopes[$0] != nil }.count
  return (Int(rs_current_thread().pointee.observer_scope_depth), kept)
}

/// Locks a new derived value's node and hands it `objects` as computations on this thread
/// would (see `DerivedNode.hold`); the returned closure releases the lock.
func holdInLockedDerivedNode(_ objects: [AnyObject]) -> () -> Void {
  let computed = Computed { 0 }
  computed.node.computeLock.lock()
  for object in objects { computed.node.hold(object) }
  return { computed.node.releaseComputeLock() }
}

/// Takes the engine's process-wide graph lock: a write on another thread then waits for it at
/// its first walk, having read its listener counts. Pair with ``releaseGraphLock()``.
func acquireGraphLock() { GraphLock.lock() }

/// Releases the lock taken by ``acquireGraphLock()``.
func releaseGraphLock() { GraphLock.unlock() }

/// `body` runs inside every lock-free read of a current derived value, after its freshness
/// check and before the read is recorded (nil: none). Unoptimised builds only.
func pauseLockFreeReadsAfterTheirCheck(_ body: (() -> Void)?) {
  DerivedNode.pauseAfterLockFreeCheck.body = body
}

/// `body` runs inside every recomputation of a derived value, after it computed and settled
/// its links, before it publishes the value as current (nil: none). Unoptimised builds only.
func pauseRecomputationsBeforePublishing(_ body: (() -> Void)?) {
  DerivedNode.pauseBeforePublishing.body = body
}

/// How many graph subscribers react to `didSet` of a derived value.
func didSetListenerCount<Value>(of value: Computed<Value>) -> Int {
  value.node.didSetListeners.load(ordering: .relaxed)
}

/// How many callers of `cancel()` wait for `token`'s running cancellation action.
func waitingCancelCallers(of token: AnyCancellable) -> Int { token.waitingCallerCount }

/// How many deallocation passes `value` remembers of objects it read that went (see
/// `DeallocationPasses`), and the most it keeps.
func deallocationPassCount<Value>(of value: Computed<Value>) -> Int {
  GraphLock.withLock { value.node.objectsGone.passes.count }
}
let deallocationPassCapacity = DeallocationPasses.capacity

/// Whether `iterator`'s consumer is suspended in `next()` waiting for a change: a probe to
/// call from another thread while the iterator is awaited, so a test's write takes the
/// awaited path for certain instead of after a guessed delay.
func waitingConsumerProbe<Element, Failure>(
  of iterator: ObservedValues<Element, Failure>.Iterator
) -> @Sendable () -> Bool {
  let iteration = iterator.iteration
  return { iteration.hasWaitingConsumer }
}

/// `body` runs inside every `didSet` walk of a source, before it takes the graph lock (nil:
/// none). Unoptimised builds only.
func pauseDidSetWalksBeforeTheirLock(_ body: (() -> Void)?) {
  ChangePropagation.pauseBeforeDidSetWalk.body = body
}

/// The deallocation passes a derived value keeps after `inserted` (in order) were recorded
/// in it one by one.
func deallocationPassesKept(afterInserting inserted: [UInt64]) -> [UInt64] {
  var passes = DeallocationPasses()
  for pass in inserted { passes.insert(pass) }
  return passes.passes
}

/// Whether a write of `keyPath` through `registrar` has moved the property's version with plain
/// stores (the main-thread-confined path) — false while the property has no slot yet.
func hadPlainWrite(_ registrar: ObservationRegistrar, _ keyPath: AnyKeyPath) -> Bool {
  registrar.storage.existingSlot(for: keyPath)?.hadPlainWrite.load(ordering: .relaxed) ?? false
}

/// Runs `action` once the `@Published` write in progress on this thread has stored its value
/// (the outermost one, when a subscriber's write nests in it), or now when none is.
func afterCurrentPublishedWrite(_ action: @escaping () -> Void) {
  PublishedWriteScope.afterCurrentWrite(action)
}

/// The tracking scope the calling thread records reads into (an observer's run, a derivation),
/// to hold it weakly.
var currentTrackingScope: AnyObject? { TrackingScope.current }

/// Whether the caller runs on the main actor: asked of the main queue, which runs its jobs,
/// not of the thread (under the test runner on Linux they run on changing worker threads).
var isOnMainActorQueue: Bool { ViewGraphRuntime.isOnMainActor }
