import Foundation
import ReactiveState

/// Knobs and helpers shared by the reliability suite: workload sizes (scaled down under the
/// sanitizers, overridable from the environment), a seeded PRNG, resident-memory readings and
/// the one-line probe reports.
enum Reliability {
  /// The sanitizer `.ci/run` built this run with (`REACTIVESTATE_SANITIZER=thread|address`),
  /// or nil for a plain build.
  static let sanitizer: String? = {
    let value = ProcessInfo.processInfo.environment["REACTIVESTATE_SANITIZER"] ?? ""
    return value.isEmpty ? nil : value
  }()

  /// A workload size: `environment[key]` when set, else `normal`, divided by `sanitizedDivisor`
  /// under a sanitizer (instrumented code is 5–20× slower; the interleavings still happen).
  static func count(_ key: String, default normal: Int, sanitizedDivisor: Int = 10) -> Int {
    if let text = ProcessInfo.processInfo.environment[key], let value = Int(text), value > 0 {
      return value
    }
    guard sanitizer != nil else { return normal }
    return max(1, normal / sanitizedDivisor)
  }

  /// Prints the informational comparison of one probe, e.g.
  /// `probe lost-update: Observation 37 / ReactiveState 0 (2000 trials)`.
  /// `oracle` is nil where the toolchain has no equivalent API.
  static func report(_ probe: String, oracle: Int?, ours: Int, trials: Int) {
    let oracleText = oracle.map(String.init) ?? "n/a"
    print("probe \(probe): Observation \(oracleText) / ReactiveState \(ours) (\(trials) trials)")
  }

  /// The process's resident set size in bytes (`/proc/self/statm`, second field, in pages).
  static func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else {
      return 0
    }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
  }
}

/// Captured by a callback or closure under test; a weak reference to it tells whether the
/// closure is still kept alive.
final class Canary: @unchecked Sendable {}

/// Starts `observe { body }` and returns its token with the messages of the diagnostics this
/// thread reported while it started (a body that keeps invalidating itself is stopped there).
func observeCapturingDiagnostics(_ body: @escaping @Sendable () -> Void) -> (
  token: ObservationToken, messages: [String]
) {
  var token: ObservationToken?
  let reported = ObservationDiagnostics.capture { token = observe(body) }
  return (token!, reported.map(\.message))
}

/// Watches a ``Canary`` without keeping it alive.
final class CanaryWatch: @unchecked Sendable {
  weak var canary: Canary?

  /// A watch on `canary` (none yet when nil).
  init(watching canary: Canary? = nil) { self.canary = canary }

  /// Whether something still holds the canary.
  var isAlive: Bool { canary != nil }
}

/// Observes with `body`, whose closure also captures a canary: the canary lives exactly as
/// long as the engine keeps the observer's body. The token is boxed so another thread can
/// drop it.
func observeWithCanary(_ body: @escaping @Sendable () -> Void) -> (
  token: LockedBox<ObservationToken?>, canary: CanaryWatch
) {
  let canary = Canary()
  let watch = CanaryWatch(watching: canary)
  let token = observe {
    _ = canary
    body()
  }
  return (LockedBox(token), watch)
}

/// SplitMix64: a tiny, fast, seedable generator; the same seed replays the same script.
struct SplitMix64: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var mixed = state
    mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
    mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
    return mixed ^ (mixed >> 31)
  }

  /// A uniformly chosen integer in `0..<bound`.
  mutating func below(_ bound: Int) -> Int { Int.random(in: 0..<bound, using: &self) }

  /// True with probability `1 / n`.
  mutating func oneIn(_ n: Int) -> Bool { below(n) == 0 }
}

/// Busy-waits for about `iterations` loop turns (widens race windows without sleeping).
@inline(never)
func spin(_ iterations: Int) {
  var sink = 0
  for index in 0..<iterations { sink &+= index }
  withExtendedLifetime(sink) {}
}

/// A reusable worker thread: `run(job)` hands it a closure and returns at once; `wait()`
/// blocks until the job finished. Cheaper than a thread per trial.
final class WorkerThread: @unchecked Sendable {
  private let start = DispatchSemaphore(value: 0)
  private let finished = DispatchSemaphore(value: 0)
  private let lock = NSLock()
  private var job: (@Sendable () -> Void)?
  private var isStopped = false

  init() {
    Thread.detachNewThread { [self] in
      while true {
        start.wait()
        lock.lock()
        let next = job
        let stop = isStopped
        job = nil
        lock.unlock()
        if stop { break }
        next?()
        finished.signal()
      }
      finished.signal()
    }
  }

  func run(_ work: @escaping @Sendable () -> Void) {
    lock.lock()
    job = work
    lock.unlock()
    start.signal()
  }

  func wait() { finished.wait() }

  /// Ends the thread (after its current job).
  func stop() {
    lock.lock()
    isStopped = true
    lock.unlock()
    start.signal()
    finished.wait()
  }
}

/// Runs each job on a ``WorkerThread`` of its own, all started together, and returns when
/// every one has finished (the threads end with it).
func runConcurrently(_ jobs: [@Sendable () -> Void]) {
  let workers = jobs.map { _ in WorkerThread() }
  for (worker, job) in zip(workers, jobs) { worker.run(job) }
  for worker in workers {
    worker.wait()
    worker.stop()
  }
}

/// A model whose write of `value` runs `beforeStore` between its `willSet` and its store (see
/// ``holdWriteBeforeStore(_:of:during:)``).
protocol WritePausing: AnyObject, Sendable {
  var value: Int { get set }
  var beforeStore: (() -> Void)? { get set }
}

/// Holds a write of `newValue` to `model.value` (started on another thread) before its store,
/// runs `during` on the calling thread, then lets the write end.
func holdWriteBeforeStore(_ model: some WritePausing, of newValue: Int, during: () -> Void) {
  let paused = DispatchSemaphore(value: 0)
  let resume = DispatchSemaphore(value: 0)
  let written = DispatchSemaphore(value: 0)
  model.beforeStore = {
    paused.signal()
    resume.wait()
  }
  Thread.detachNewThread {
    model.value = newValue
    written.signal()
  }
  paused.wait()
  model.beforeStore = nil
  during()
  resume.signal()
  written.wait()
}

/// A model whose setters run `beforeStore` inside the mutation, before storing, so a test can
/// hold a write between its `willSet` and its store.
final class PausingModel: ReactiveState.Observable, WritePausing, @unchecked Sendable {
  private let registrar = ReactiveState.ObservationRegistrar()
  private var _value = 0
  private var _other = 0
  var beforeStore: (() -> Void)?
  var value: Int {
    get {
      registrar.access(self, keyPath: \.value)
      return _value
    }
    set {
      registrar.withMutation(of: self, keyPath: \.value) {
        beforeStore?()
        _value = newValue
      }
    }
  }
  var other: Int {
    get {
      registrar.access(self, keyPath: \.other)
      return _other
    }
    set { registrar.withMutation(of: self, keyPath: \.other) { _other = newValue } }
  }
}

/// Holds a write to `model.value` (started on another thread) before its store, runs `track`
/// meanwhile on the calling thread, then lets the write finish; returns what `track` saw.
func interleaveFirstReadWithWrite(_ model: PausingModel, track: () -> Int) -> Int {
  var seen = -1
  holdWriteBeforeStore(model, of: 1) { seen = track() }
  return seen
}
