import Foundation
import Testing

// `@testable` only to read how many entries the subscriber list keeps (as
// `SubscriberRemovalTests` does).
@testable import ReactiveState

/// Keeps `publisher` busy from its deinitialiser: it asks for the subscriber count and cancels
/// its own subscription of the same publisher, as a model that drops its tokens in `deinit`.
private final class UsesThePublisherInDeinit: @unchecked Sendable {
  let publisher: ObservableObjectPublisher
  let countsSeen: LockedBox<[Int]>
  var ownToken: AnyCancellable?

  init(publisher: ObservableObjectPublisher, countsSeen: LockedBox<[Int]>) {
    self.publisher = publisher
    self.countsSeen = countsSeen
    ownToken = publisher.sink {}
  }

  deinit {
    countsSeen.value.append(publisher.subscriberCount)
    ownToken?.cancel()
  }
}

@Suite struct MutationFindingsLegacyTests {
  // Pins: removed entries are compacted at half the list (churn beside a kept one stays small).
  @Test func subscriptionChurnBehindALongLivedSubscriberKeepsTheListSmall() {
    let list = SubscriberList<Int>()
    let received = LockedBox<[Int]>([])
    let kept = list.subscribe { received.value.append($0) }
    for _ in 0..<1_000 {
      list.subscribe { _ in }.cancel()
    }
    #expect(list.count == 1)
    #expect(list.entries.count <= 2, "removed entries were compacted away")
    list.send(7)
    #expect(received.value == [7])
    withExtendedLifetime(kept) {}
  }

  // Pins: a cancelled closure is released outside the list's lock (its captures may use the list).
  @Test func aCancelledClosuresCapturesMayUseThePublisherInTheirDeinit() throws {
    let publisher = ObservableObjectPublisher()
    let countsSeen = LockedBox<[Int]>([])
    let done = DispatchSemaphore(value: 0)
    // On another thread, so that a deadlock fails the test instead of hanging the run.
    Thread.detachNewThread {
      var token: AnyCancellable?
      do {
        let user = UsesThePublisherInDeinit(publisher: publisher, countsSeen: countsSeen)
        token = publisher.sink { withExtendedLifetime(user) {} }
      }
      token?.cancel()  // releases the closure, the last owner of `user`
      done.signal()
    }
    // Required: after a deadlock the lock stays taken and the checks below would hang.
    try #require(done.wait(timeout: .now() + 10) == .success, "the cancellation finished")
    #expect(countsSeen.value == [1], "the deinit saw its own subscription still there")
    #expect(publisher.subscriberCount == 0)
  }
}
