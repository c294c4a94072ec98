import Foundation
import Observation
import ReactiveState
import Testing

/// An adversarial review of ``ObservedValues``: long runs, duplicates that arrive while the
/// consumer waits, and how an iteration that ends by itself lets go of its registration.
/// The toolchain's `Observations` is the oracle where the documented semantics match.
@Suite struct ObservedValuesReviewTests {
  /// A consumer that writes what it observes after each element (a counter loop) is not a
  /// chain of scheduled runs, however long it runs: every element arrives (each one the
  /// previous plus one, none lost or repeated), no write is dropped as the end of a scheduling
  /// loop, and the iteration stays one registration. Each element's evaluation runs at the
  /// depth of the change that queued it; were that depth left on the consumer's thread, each
  /// write would count one more link and the 101st would be dropped, leaving the consumer
  /// waiting for good. `Observations` (the oracle) goes past the bound the same way.
  @Test func aConsumerThatWritesWhatItObservesRunsPastTheSchedulingBound() async {
    let pastTheBound = continuousRerunLimit * 2
    let oracle = OracleModel()
    var oracleIterator = Observations { oracle.a }.makeAsyncIterator()
    var oracleElements: [Int] = []
    while let value = await oracleIterator.next() {
      oracleElements.append(value)
      if value == pastTheBound { break }
      oracle.a = value + 1
    }
    #expect(oracleElements == Array(0...pastTheBound))

    let model = HandModel()
    var iterator = ObservedValues { model.a }.makeAsyncIterator()
    var expected = 0
    var skips = 0
    var messages: [String] = []
    while let value = await iterator.next() {
      if value != expected { skips += 1 }
      expected = value + 1
      if value == 10_000 { break }
      // The drop would happen here, in the write's delivery on this thread; stop then, since
      // the next `next()` would wait for good.
      messages = ObservationDiagnostics.capture { model.a = value + 1 }.map(\.message)
      if !messages.isEmpty { break }
    }
    #expect(messages.isEmpty)
    #expect(expected == 10_001, "every element up to 10,000 arrived")
    #expect(skips == 0, "each element is the previous one plus one")
    #expect(model.aDidSetListeners == 1, "one registration after 10,000 elements")
  }

  /// With ``ObservedValues/removingDuplicates()``, a change that evaluates to the value last
  /// emitted wakes a waiting consumer, which evaluates once and waits again: `next()` returns
  /// the next different value, not nil (ending the sequence) and not the duplicate. The
  /// writer makes the duplicate only once the consumer waits, and the real change only once
  /// it waits again, so each change takes the awaited path.
  @Test func aDuplicateArrivingWhileTheConsumerWaitsKeepsItWaiting() async {
    let model = HandModel()
    let evaluations = LockedBox(0)
    var iterator = ObservedValues { () -> Int in
      evaluations.value += 1
      return model.a % 2
    }.removingDuplicates().makeAsyncIterator()
    #expect(await iterator.next() == 0)
    let isWaiting = waitingConsumerProbe(of: iterator)
    let waitedTwice = LockedBox(false)
    Thread.detachNewThread {
      // Two minutes at most each, so a consumer that never waits fails instead of hanging.
      for _ in 0..<120_000 where !isWaiting() { usleep(1_000) }
      model.a = 2  // even again: a duplicate
      for _ in 0..<120_000 where !isWaiting() { usleep(1_000) }
      waitedTwice.value = isWaiting()
      model.a = 3
    }
    #expect(await iterator.next() == 1)
    #expect(waitedTwice.value, "the consumer waited again after the duplicate")
    #expect(evaluations.value == 3, "the first value, the duplicate, the change")
  }

  /// An iteration that ends by itself — `emit` returned `.finish`, or threw — ends its
  /// registration at once, while the iterator is still kept (as a cancelled one does), and
  /// every later `next()` returns nil. Side by side with `Observations` (the oracle) for the
  /// thrown error: thrown once, then nil. Were the registration left in place, the next
  /// `next()` would wait for a change instead of returning nil; it is only called once the
  /// registration is gone (or a watchdog ends the wait), so such a defect fails here instead
  /// of hanging the suite.
  @Test func anIterationThatEndsByItselfDropsItsRegistrationAtOnce() async throws {
    struct Failure: Error {}
    let oracle = OracleModel()
    var oracleIterator = Observations { () throws(Failure) -> Int in
      if oracle.a == 1 { throw Failure() }
      return oracle.a
    }.makeAsyncIterator()
    #expect(try await oracleIterator.next() == 0)
    oracle.a = 1
    await #expect(throws: Failure.self) { try await oracleIterator.next() }
    #expect(try await oracleIterator.next() == nil)

    let model = HandModel()
    var throwing = ObservedValues { () throws(Failure) -> Int in
      if model.a == 1 { throw Failure() }
      return model.a
    }.makeAsyncIterator()
    #expect(try await throwing.next() == 0)
    model.a = 1
    await #expect(throws: Failure.self) { try await throwing.next() }
    #expect(model.aDidSetListeners == 0, "the throwing iteration is still registered")
    if model.aDidSetListeners == 0 { #expect(try await throwing.next() == nil) }

    var finishing = ObservedValues<Int, Never>.untilFinished {
      model.a == 2 ? .finish : .next(model.a)
    }.makeAsyncIterator()
    #expect(await finishing.next() == 1)
    #expect(model.aDidSetListeners == 1)
    model.a = 2
    // Had `.finish` not ended the iteration, this `next()` would wait for a change: after
    // two minutes a write of 3 ends the wait, and the test fails on the value.
    let done = LockedBox(false)
    Thread.detachNewThread {
      for _ in 0..<12_000 where !done.value { usleep(10_000) }
      if !done.value { model.a = 3 }
    }
    #expect(await finishing.next() == nil)
    done.value = true
    #expect(model.aDidSetListeners == 0, "the finished iteration is still registered")
    if model.aDidSetListeners == 0 { #expect(await finishing.next() == nil) }
  }
}
