import CReactiveState
import Dispatch
import ReactiveState
import Synchronization
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Whether the calling thread holds ReactiveState's graph lock: it is held and stays held
/// (another thread's hold ends). The wait is a deadlock guard, not a timing expectation.
private func callerHoldsGraphLock() -> Bool {
  let lock = rs_graph_lock_pointer()
  let deadline = ContinuousClock.now + .seconds(20)
  while rs_lock_try_acquire(lock) == 0 {
    if ContinuousClock.now > deadline { return true }
    sched_yield()
  }
  rs_lock_release(lock)
  return false
}

/// A counter shared across threads.
final class R28Counter: Sendable {
  private let atomic = Atomic(0)
  var value: Int { atomic.load(ordering: .relaxed) }
  func add(_ amount: Int) { atomic.add(amount, ordering: .relaxed) }
}

/// A subscript argument whose `Hashable` conformance reads a tracked property (its `id`), and
/// counts the calls it received under the graph lock (each would read `id` there, and a first
/// tracked read of `id` takes the lock: a deadlock).
final class R28Item: ReactiveState.Observable, Hashable, @unchecked Sendable {
  let registrar = ReactiveState.ObservationRegistrar()
  let callsUnderLock: R28Counter
  private var _id: Int
  init(id: Int, callsUnderLock: R28Counter) {
    _id = id
    self.callsUnderLock = callsUnderLock
  }
  var id: Int {
    get {
      registrar.access(self, keyPath: \.id)
      return _id
    }
    set { registrar.withMutation(of: self, keyPath: \.id) { _id = newValue } }
  }
  /// `id`, read as a tracked property unless the caller holds the graph lock.
  private var checkedID: Int {
    guard callsUnderLock.value == 0, !callerHoldsGraphLock() else {
      callsUnderLock.add(1)
      return _id
    }
    return id
  }
  static func == (lhs: R28Item, rhs: R28Item) -> Bool { lhs.checkedID == rhs.checkedID }
  func hash(into hasher: inout Hasher) { hasher.combine(checkedID) }
}

/// A subscript argument whose hash values all collide.
struct R28CollidingKey: Hashable {
  let value: Int
  func hash(into hasher: inout Hasher) {}
}

/// A model with one observable property per subscript argument (a key path with arguments).
final class R28Catalog: ReactiveState.Observable, @unchecked Sendable {
  let registrar = ReactiveState.ObservationRegistrar()
  private var counts: [Int: Int] = [:]
  subscript(item item: R28Item) -> Int {
    get {
      registrar.access(self, keyPath: \.[item: item])
      return counts[-1 - item.id, default: 0]
    }
    set {
      registrar.withMutation(of: self, keyPath: \.[item: item]) { counts[-1 - item.id] = newValue }
    }
  }
  subscript(colliding key: R28CollidingKey) -> Int {
    get {
      registrar.access(self, keyPath: \.[colliding: key])
      return counts[1000 + key.value, default: 0]
    }
    set {
      registrar.withMutation(of: self, keyPath: \.[colliding: key]) {
        counts[1000 + key.value] = newValue
      }
    }
  }
  subscript(index: Int) -> Int {
    get {
      registrar.access(self, keyPath: \.[index])
      return counts[index, default: 0]
    }
    set { registrar.withMutation(of: self, keyPath: \.[index]) { counts[index] = newValue } }
  }
}

/// Review round 28 of the tracking core: findings pinned, each failing on the code before
/// its fix.
@Suite struct ReviewRound28TrackingTests {
  /// A key path's `==` and `hash(into:)` run its subscript arguments' — user code, which may
  /// read tracked properties. The slot lookup ran them under the graph lock: when creating a
  /// slot (the re-check under the lock compared key paths) and, past 8 observed properties,
  /// on every lookup (the hash index hashed and compared under the lock) — where an argument
  /// whose hash read a tracked property of a fresh object deadlocked.
  @Test(arguments: [2, 12])
  func subscriptArgumentsAreHashedAndComparedOutsideTheGraphLock(observedIndices: Int) {
    let callsUnderLock = R28Counter()
    let catalog = R28Catalog()
    for index in 0..<observedIndices {
      ReactiveState.withObservationTracking {
        _ = catalog[index]
      } onChange: {
      }
    }
    let fired = R28Counter()
    let first = R28Item(id: 1, callsUnderLock: callsUnderLock)
    let second = R28Item(id: 2, callsUnderLock: callsUnderLock)
    ReactiveState.withObservationTracking {
      _ = catalog[item: first]
    } onChange: {
      fired.add(1)
    }
    ReactiveState.withObservationTracking {
      _ = catalog[item: second]
    } onChange: {
      fired.add(10)
    }
    catalog[item: R28Item(id: 2, callsUnderLock: callsUnderLock)] = 5
    #expect(callsUnderLock.value == 0)
    #expect(fired.value == 10)
    #expect(catalog[item: second] == 5)
  }

  /// Threads that observe the same new properties at once, crossing into the hash index, end
  /// up with one slot per property: each observer hears the write of the index it read,
  /// exactly once, and nothing else.
  @Test func concurrentFirstObservationsShareOneSlotPerProperty() {
    let threads = 4
    let indices = 20
    for _ in 0..<10 {
      let catalog = R28Catalog()
      let fired = (0..<threads * indices).map { _ in R28Counter() }
      DispatchQueue.concurrentPerform(iterations: threads) { thread in
        for step in 0..<indices {
          let index = (step * 7 + thread * 3) % indices
          ReactiveState.withObservationTracking {
            _ = catalog[index]
          } onChange: {
            fired[thread * indices + index].add(1)
          }
        }
      }
      for index in 0..<indices {
        catalog[index] = 1
        for thread in 0..<threads {
          let counts = (0..<indices).map { fired[thread * indices + $0].value }
          #expect(counts == (0..<indices).map { $0 <= index ? 1 : 0 })
        }
      }
    }
  }

  /// Past 8 observed properties, key paths whose hash values collide still name one slot
  /// each.
  @Test func collidingKeyPathsKeepTheirOwnSlotsInTheHashIndex() {
    let catalog = R28Catalog()
    let fired = (0..<12).map { _ in R28Counter() }
    for value in 0..<12 {
      ReactiveState.withObservationTracking {
        _ = catalog[colliding: R28CollidingKey(value: value)]
      } onChange: {
        fired[value].add(1)
      }
    }
    for value in [11, 0, 7] {
      catalog[colliding: R28CollidingKey(value: value)] = 1
    }
    #expect(fired.map(\.value) == (0..<12).map { [11, 0, 7].contains($0) ? 1 : 0 })
  }
}
