import Foundation
import ReactiveState
import Synchronization

/// Races that only an optimised build reproduces, run by `.ci/run` after the benchmarks:
/// `--stress NAME ROUNDS` exits non-zero when the race shows. The unit tests run the same
/// scenarios in unoptimised builds, where the extra instructions hide these reorderings.
enum StressChecks {
  /// Runs the named check; returns a failure message, or nil when it passed.
  static func run(_ name: String, rounds: Int) -> String? {
    switch name {
    case "refresh-publication": return refreshPublication(rounds: rounds)
    default: return "unknown stress check \(name)"
    }
  }

  /// A refresh on another thread must never publish a value computed before a write as
  /// current (see `aRefreshOnAnotherThreadNeverPublishesAValueFromBeforeAWrite` in the
  /// tests): a store-buffer reordering inside the refresh once let that happen about once in
  /// a few million writes on two cores.
  private static func refreshPublication(rounds: Int) -> String? {
    var outdated = 0
    for _ in 0..<rounds {
      let input = UnfencedCell()
      let derived = Computed { input.value + 1 }
      let token = observe(scheduler: ManualScheduler()) { _ = derived.value }
      let done = Atomic<Bool>(false)
      let finished = DispatchSemaphore(value: 0)
      Thread.detachNewThread {
        while !done.load(ordering: .relaxed) { _ = derived.value }
        finished.signal()
      }
      for write in 1...20_000 {
        input.value = 2 * write
        input.value = 2 * write + 1
        if derived.value != 2 * write + 2 {
          outdated += 1
          break
        }
      }
      done.store(true, ordering: .relaxed)
      finished.wait()
      withExtendedLifetime(token) {}
    }
    print("stress refresh-publication: \(rounds) rounds of 20,000 writes, \(outdated) outdated")
    return outdated == 0 ? nil : "a derived value read after a write was outdated"
  }
}

/// One observable `Int` in an atomic word read and written without fences, so the only
/// ordering a reader gets is the engine's.
private final class UnfencedCell: ReactiveState.Observable, @unchecked Sendable {
  private let registrar = ReactiveState.ObservationRegistrar()
  private let stored = Atomic<Int>(0)
  var value: Int {
    get {
      registrar.access(self, keyPath: \.value)
      return stored.load(ordering: .acquiring)
    }
    set {
      registrar.withMutation(of: self, keyPath: \.value) {
        stored.store(newValue, ordering: .releasing)
      }
    }
  }
}
