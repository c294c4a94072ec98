import Foundation
import Observation
import ReactiveState
import Testing

/// Behaviour-parity audit, part 3: SE-0475's `Observations` (the oracle) and ``ObservedValues``
/// run the same script on the main actor, where `Observations` evaluates (its closure inherits
/// the caller's isolation) and where the script mutates, so the oracle has no race to lose.
@MainActor @Suite struct ObservationParityAuditSequenceTests {
  /// Awaits `next()` of `iterator`; if no element arrives within `seconds`, writes `-1` to
  /// `model.a` so a missing element fails the comparison instead of hanging the suite.
  static func next<I: AsyncIteratorProtocol<Int, Never>>(
    _ iterator: inout I, unblocking model: any ScriptModel, after seconds: Double = 10
  ) async -> Int? {
    let watchdog = Task { @MainActor in
      guard (try? await Task.sleep(nanoseconds: UInt64(seconds * 1e9))) != nil else { return }
      model.a = -1
    }
    defer { watchdog.cancel() }
    return await iterator.next(isolation: MainActor.shared)
  }

  /// §3.5 items 34, 35 and 37 (probes e1, e2, e5): nothing is evaluated before the first
  /// `next()`, which returns the current value; a synchronous burst is one element with the
  /// latest value and one evaluation; an in-place mutation that changes nothing (`+= 0`, the
  /// `_modify` accessor) is a change all the same, so it yields a duplicate element.
  static func lazyCoalescingAndDuplicates<S: AsyncSequence<Int, Never>>(
    _ values: S, _ model: any ScriptModel, _ evaluations: Box<Int>
  ) async -> [String] {
    var log: [String] = []
    model.a = 7
    log.append("before next: \(evaluations.value) evaluations")
    var iterator = values.makeAsyncIterator()
    log.append("first \(await next(&iterator, unblocking: model) ?? 0)")
    for value in 1...5 { model.a = value }
    log.append("burst \(await next(&iterator, unblocking: model) ?? 0)")
    model.a += 0
    log.append("+= 0 \(await next(&iterator, unblocking: model) ?? 0)")
    log.append("\(evaluations.value) evaluations")
    return log
  }

  @Test func lazyFirstValueCoalescingAndNoDeduplication() async {
    let theirModel = OracleModel()
    let theirEvaluations = Box(0)
    let theirs = await Self.lazyCoalescingAndDuplicates(
      Observations { () -> Int in
        theirEvaluations.value += 1
        return theirModel.a
      }, theirModel, theirEvaluations)
    let ourModel = HandModel()
    let ourEvaluations = Box(0)
    let ours = await Self.lazyCoalescingAndDuplicates(
      ObservedValues { () -> Int in
        ourEvaluations.value += 1
        return ourModel.a
      }, ourModel, ourEvaluations)
    #expect(
      theirs == ["before next: 0 evaluations", "first 7", "burst 5", "+= 0 5", "3 evaluations"],
      "the oracle's behaviour this test pins")
    #expect(ours == theirs)
  }

  /// §3.5 items 37 and 41 (probes e4, e10): an assignment of an equal value (skipped by the
  /// macro's equality rule) and a write of a property the last evaluation no longer read do
  /// not wake a waiting `next()`; the next real change of what it read does. The `next()`
  /// after the quiet writes returns at once (101) if they left an element pending; otherwise
  /// it waits for the watchdog's write (`a = -1`, so 99).
  static func quietWritesDoNotWake<S: AsyncSequence<Int, Never>>(
    _ values: S, _ model: any ScriptModel
  ) async -> [String] {
    var log: [String] = []
    var iterator = values.makeAsyncIterator()
    log.append("first \(await next(&iterator, unblocking: model) ?? 0)")
    model.a = 1
    log.append("switched \(await next(&iterator, unblocking: model) ?? 0)")
    model.b = 5  // read only while a == 0
    model.a = 1  // equal
    let afterQuietWrites = await next(&iterator, unblocking: model, after: 0.2)
    log.append("after the quiet writes: \(afterQuietWrites ?? 0)")
    model.a = 2
    log.append("after a real change: \(await next(&iterator, unblocking: model) ?? 0)")
    return log
  }

  @Test func equalAndUnreadWritesDoNotWakeAWaitingNext() async {
    let theirModel = OracleModel()
    let theirs = await Self.quietWritesDoNotWake(
      Observations { theirModel.a == 0 ? theirModel.b : 100 + theirModel.a }, theirModel)
    let ourModel = HandModel()
    let ours = await Self.quietWritesDoNotWake(
      ObservedValues { ourModel.a == 0 ? ourModel.b : 100 + ourModel.a }, ourModel)
    #expect(
      theirs == [
        "first 0", "switched 101", "after the quiet writes: 99", "after a real change: 102",
      ],
      "the oracle's behaviour this test pins")
    #expect(ours == theirs)
  }

  /// §3.5 item 36: with no change pending, `next()` suspends — for good when the last
  /// evaluation read nothing observable (here a constant and an `@ObservationIgnored` /
  /// plain stored property), until the task is cancelled, which ends the iteration.
  static func waitsUntilCancelled<S: AsyncSequence<Int, Never>>(_ values: S) async -> [String] {
    let ended = Box(false)
    let task = Task { @MainActor () -> [Int?] in
      var iterator = values.makeAsyncIterator()
      let first = await iterator.next(isolation: MainActor.shared)
      let second = await iterator.next(isolation: MainActor.shared)
      ended.value = true
      return [first, second]
    }
    try? await Task.sleep(nanoseconds: 100_000_000)
    let endedBeforeCancel = ended.value
    task.cancel()
    return ["ended before cancel: \(endedBeforeCancel)", "\(await task.value)"]
  }

  @Test func anEmitThatReadsNothingObservableWaitsUntilCancelled() async {
    let theirModel = OracleModel()
    let ourModel = HandModel()
    let theirs = [
      await Self.waitsUntilCancelled(Observations { 42 }),
      await Self.waitsUntilCancelled(Observations { theirModel.ignored }),
    ]
    let ours = [
      await Self.waitsUntilCancelled(ObservedValues { 42 }),
      await Self.waitsUntilCancelled(ObservedValues { ourModel.ignored }),
    ]
    #expect(
      theirs == [
        ["ended before cancel: false", "[Optional(42), nil]"],
        ["ended before cancel: false", "[Optional(0), nil]"],
      ], "the oracle's behaviour this test pins")
    #expect(ours == theirs)
  }
}
