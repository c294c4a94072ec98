import Observation
import ReactiveState

/// Rows of the core-engine issue: reads, writes, one-shot round trips and fan-out.
func runCoreBenchmarks(_ harness: BenchmarkHarness) {
  let n = harness.iterations(2_000_000)

  do {
    let ours = HandWrittenCounter()
    let theirs = ObservationCounter()
    let a =
      harness.time(operations: 1) {
        var sum = 0
        for _ in 0..<n { sum &+= ours.count }
        consume(sum)
      } / Double(n)
    let b =
      harness.time(operations: 1) {
        var sum = 0
        for _ in 0..<n { sum &+= theirs.count }
        consume(sum)
      } / Double(n)
    harness.add(
      BenchmarkRow(
        group: "core", name: "untracked read", ours: a, baseline: b, goal: "≥ 15×",
        requiredRatio: 15))
  }

  do {
    let ours = HandWrittenCounter()
    let theirs = ObservationCounter()
    let a =
      harness.time(operations: 1) {
        for i in 0..<n { ours.count = i }
      } / Double(n)
    let b =
      harness.time(operations: 1) {
        for i in 0..<n { theirs.count = i }
      } / Double(n)
    harness.add(
      BenchmarkRow(
        group: "core", name: "mutation, never-observed object", ours: a, baseline: b, goal: "≥ 20×",
        requiredRatio: 20))
  }

  do {
    let ours = HandWrittenCounter()
    let theirs = ObservationCounter()
    let reads = 100
    let m = harness.iterations(20_000)
    let a =
      harness.time(operations: 1) {
        for _ in 0..<m {
          let s = ReactiveState.withObservationTracking {
            var sum = 0
            for _ in 0..<reads { sum &+= ours.count }
            return sum
          } onChange: {
          }
          consume(s)
          ours.count &+= 1
        }
      } / Double(m * reads)
    let b =
      harness.time(operations: 1) {
        for _ in 0..<m {
          let s = Observation.withObservationTracking {
            var sum = 0
            for _ in 0..<reads { sum &+= theirs.count }
            return sum
          } onChange: {
          }
          consume(s)
          theirs.count &+= 1
        }
      } / Double(m * reads)
    harness.add(
      BenchmarkRow(
        group: "core", name: "tracked read (100 repeated reads per scope)", ours: a, baseline: b,
        goal: "≥ 5×", requiredRatio: 5))
  }

  do {
    let ours = HandWrittenCounter()
    let theirs = ObservationCounter()
    let m = harness.iterations(200_000)
    let fired = UnsafeMutablePointer<Int>.allocate(capacity: 1)
    fired.initialize(to: 0)
    nonisolated(unsafe) let counter = fired
    let a =
      harness.time(operations: 1) {
        for i in 0..<m {
          ReactiveState.withObservationTracking {
            _ = ours.count
          } onChange: {
            counter.pointee += 1
          }
          ours.count = i + 1
        }
      } / Double(m)
    let firedOurs = fired.pointee
    fired.pointee = 0
    let b =
      harness.time(operations: 1) {
        for i in 0..<m {
          Observation.withObservationTracking {
            _ = theirs.count
          } onChange: {
            counter.pointee += 1
          }
          theirs.count = i + 1
        }
      } / Double(m)
    harness.check(firedOurs == fired.pointee, "round trip fired \(firedOurs) vs \(fired.pointee)")
    harness.add(
      BenchmarkRow(
        group: "core", name: "track 1 property + mutate + onChange", ours: a, baseline: b,
        goal: "≥ 5×", requiredRatio: 5))
  }
}
