import Foundation
import ReactiveState
import Synchronization
import Testing

/// A task executor with two dedicated threads: jobs run on the one `target` names.
final class AlternatingThreadExecutor: TaskExecutor, @unchecked Sendable {
  private final class Worker: @unchecked Sendable {
    let condition = NSCondition()
    var jobs: [UnownedJob] = []
    var stopped = false
  }
  private let workers = [Worker(), Worker()]
  let target = Mutex(0)

  init() {
    for worker in workers {
      let thread = Thread { [unowned self] in
        while true {
          worker.condition.lock()
          while worker.jobs.isEmpty && !worker.stopped { worker.condition.wait() }
          if worker.jobs.isEmpty {
            worker.condition.unlock()
            return
          }
          let job = worker.jobs.removeFirst()
          worker.condition.unlock()
          job.runSynchronously(on: self.asUnownedTaskExecutor())
        }
      }
      thread.start()
    }
  }

  func enqueue(_ job: consuming ExecutorJob) {
    let index = target.withLock { $0 }
    let worker = workers[index]
    let unowned = UnownedJob(job)
    worker.condition.lock()
    worker.jobs.append(unowned)
    worker.condition.signal()
    worker.condition.unlock()
  }

  func stop() {
    for worker in workers {
      worker.condition.lock()
      worker.stopped = true
      worker.condition.signal()
      worker.condition.unlock()
    }
  }
}

/// Suspends once (the task resumes on the other thread of an `AlternatingThreadExecutor`),
/// then increments `value` in place.
func incrementAfterASuspension(
  _ value: inout Int, threads: LockedBox<[UInt]>, executor: AlternatingThreadExecutor
) async {
  threads.value.append(currentThreadID())
  executor.target.withLock { $0 = 1 }  // resume on the other thread
  await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
    Thread.detachNewThread { continuation.resume() }
  }
  threads.value.append(currentThreadID())
  value += 1
}

/// Explicit `willSet`/`didSet` pairs that are not nested on one thread: a pair split across
/// threads (an `inout` access held across a suspension), and a lone `didSet` inside another
/// property's pair. Nothing may look in flight once the writes are over. A review found both
/// broken by a per-thread count of open pairs; the count is per property now.
@Suite struct ExplicitPairAcrossThreadsTests {
  typealias SteppedModel = ExplicitMutationPairTests.SteppedModel

  /// Whether a one-shot over `model.value` armed now (nothing written after) fires.
  static func oneShotFiresWithNoWrite(_ read: () -> Void) -> Bool {
    let fired = AtomicCounter()
    ReactiveState.withObservationTracking({ read() }, onChange: { fired.increment() })
    return fired.value == 1
  }

  /// An explicit pair whose `willSet` runs on one thread and whose `didSet` on another (the
  /// write is fully over): nothing may look in flight afterwards. Observation does not care
  /// which thread calls `didSet`.
  @Test func aPairSplitAcrossThreadsLeavesNoWriteInFlight() {
    let model = SteppedModel()
    _ = ReactiveState.withObservationTracking({ model.value }, onChange: {})
    model.value = 0  // the object has slots
    onAnotherThread { model.beginWrite() }
    onAnotherThread {
      model.store(1)
      model.endWrite()
    }
    #expect(model.value == 1)
    #expect(!Self.oneShotFiresWithNoWrite { _ = model.value }, "no write is in flight")
  }

  /// The realistic shape: `await f(&model.a)` where `a`'s `_modify` is the explicit pair
  /// (the Observation macro's shape) and the task resumes on another thread before the
  /// access ends.
  @Test func anInOutAccessAcrossASuspensionLeavesNoWriteInFlight() async {
    let model = HandModel()
    _ = ReactiveState.withObservationTracking({ model.a }, onChange: {})
    model.a = 0  // the object has slots
    let executor = AlternatingThreadExecutor()
    let threads = LockedBox<[UInt]>([])
    await withTaskExecutorPreference(executor) {
      threads.value.append(currentThreadID())
      await incrementAfterASuspension(&model.a, threads: threads, executor: executor)
      threads.value.append(currentThreadID())
    }
    executor.stop()
    #expect(model.a == 1)
    let seen = threads.value
    #expect(
      seen.count == 4 && seen[0] == seen[1] && seen[2] == seen[3] && seen[1] != seen[2],
      "the access began on one thread and ended on another: \(seen)")
    #expect(!Self.oneShotFiresWithNoWrite { _ = model.a }, "no write is in flight")
    // And a reader on yet another thread after the write sees nothing in flight either.
    let firedElsewhere = LockedBox(false)
    onAnotherThread {
      firedElsewhere.value = Self.oneShotFiresWithNoWrite { _ = model.a }
    }
    #expect(!firedElsewhere.value)
  }

  /// A lone `didSet` of one property made inside an explicit pair of another (e.g. code run
  /// during a `_modify` yield) must not make the outer pair's own `didSet` look lone.
  @Test func aLoneDidSetInsideAnotherPropertysPairLeavesNoWriteInFlight() {
    let model = HandModel()
    _ = ReactiveState.withObservationTracking({ model.a + model.b }, onChange: {})
    // b was written on another thread before (its slot names a mutating thread).
    onAnotherThread { model.b = 5 }
    onAnotherThread { model.a = 1 }
    func announceB() { model.registrar.didSet(model, keyPath: \.b) }
    func mutate(_ value: inout Int, _ during: () -> Void) {
      during()
      value += 1
    }
    mutate(&model.a) { announceB() }
    #expect(model.a == 2)
    // Read on another thread than this one (the slot names this thread as the writer).
    let aFired = LockedBox(true)
    let bFired = LockedBox(true)
    onAnotherThread {
      aFired.value = Self.oneShotFiresWithNoWrite { _ = model.a }
      bFired.value = Self.oneShotFiresWithNoWrite { _ = model.b }
    }
    #expect(!aFired.value, "a's pair is over")
    #expect(!bFired.value, "b's lone didSet is over")
  }
}
