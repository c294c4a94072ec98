import Dispatch
import Testing

// `@testable` only to read how many entries the subscriber list's removals examined or moved.
@testable import ReactiveState

/// Cancelling subscriptions of a publisher with many subscribers: each removal found its entry
/// with a linear scan and closed the gap by shifting every later entry, so cancelling all of
/// `n` subscribers took time quadratic in `n` (a list or screen of rows torn down at once).
@Suite struct SubscriberRemovalTests {
  static let count = 4096

  /// Work per removal bounded by a logarithm (the lookup) plus a constant share of the
  /// compactions: far below the `n * (n + 1) / 2` steps of a scan-and-shift per removal.
  static let stepBound = count * 32

  @Test(arguments: ["first to last", "last to first", "interleaved"])
  func cancellingEverySubscriberCostsNearLinearWork(order: String) {
    let list = SubscriberList<Int>()
    var tokens = (0..<Self.count).map { _ in list.subscribe { _ in } }
    switch order {
    case "last to first": tokens.reverse()
    case "interleaved":
      // Every other one, then the rest.
      let all = tokens
      let evens = stride(from: 0, to: all.count, by: 2).map { all[$0] }
      tokens = evens + stride(from: 1, to: all.count, by: 2).map { all[$0] }
    default: break
    }
    for token in tokens { token.cancel() }
    #expect(list.count == 0)
    #expect(list.removalSteps <= Self.stepBound, "removal work grows quadratically")
  }

  /// Removals keep the others subscribed, in subscription order, each delivered once.
  @Test func removalsKeepTheOthersInOrder() {
    let list = SubscriberList<Int>()
    let received = LockedBox<[Int]>([])
    let tokens = (0..<100).map { index in list.subscribe { _ in received.value.append(index) } }
    for (index, token) in tokens.enumerated() where index % 3 != 0 { token.cancel() }
    list.send(0)
    #expect(received.value == Array(stride(from: 0, to: 100, by: 3)))
    #expect(list.count == 34)
  }

  /// Removed entries left in place (and compactions) while other threads send: every kept
  /// subscriber receives every send exactly once, and a removed one nothing its own thread
  /// sent after its `cancel()` returned.
  @Test func removalsDuringConcurrentSendsLoseAndDuplicateNothing() {
    let publisher = ObservableObjectPublisher()
    let kept = (0..<8).map { _ in AtomicCounter() }
    let keptTokens = kept.map { counter in publisher.sink { counter.increment() } }
    let lateDeliveries = AtomicCounter()
    DispatchQueue.concurrentPerform(iterations: 4) { thread in
      for _ in 0..<200 {
        if thread % 2 == 0 {
          publisher.send()
        } else {
          // Another thread's send that started before a `cancel()` may still deliver.
          let cancelled = LockedBox(false)
          let thisThread = currentThreadID()
          let tokens = (0..<8).map { _ in
            publisher.sink {
              if cancelled.value && currentThreadID() == thisThread { lateDeliveries.increment() }
            }
          }
          for token in tokens.reversed() { token.cancel() }
          cancelled.value = true
          publisher.send()
        }
      }
    }
    #expect(kept.map(\.value) == Array(repeating: 800, count: 8))
    #expect(lateDeliveries.value == 0)
    #expect(publisher.subscriberCount == 8)
    withExtendedLifetime(keptTokens) {}
  }
}
