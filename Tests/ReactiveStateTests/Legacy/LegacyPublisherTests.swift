import Dispatch
import ReactiveState
import Testing

// `ObservableObjectPublisher` and `AnyCancellable`: subscription, cancellation, lifetime, threads.

private final class LegacyCounter: @unchecked Sendable {
  private let queue = DispatchQueue(label: "LegacyCounter")
  private var storage = 0
  var value: Int { queue.sync { storage } }
  func increment() { queue.sync { storage += 1 } }
}

private final class LegacyLifetimeProbe {}

@Suite("Legacy publisher and cancellable")
struct LegacyPublisherTests {
  @Test func sinkReceivesEverySend() {
    let publisher = ObservableObjectPublisher()
    let count = LegacyCounter()
    let token = publisher.sink { count.increment() }
    publisher.send()
    publisher.send()
    #expect(count.value == 2)
    withExtendedLifetime(token) {}
  }

  @Test func underscoreClosureSpellingWorks() {
    let publisher = ObservableObjectPublisher()
    let count = LegacyCounter()
    let token = publisher.sink { _ in count.increment() }
    publisher.send()
    #expect(count.value == 1)
    token.cancel()
  }

  @Test func cancelStopsDeliveryAndIsIdempotent() {
    let publisher = ObservableObjectPublisher()
    let count = LegacyCounter()
    let token = publisher.sink { count.increment() }
    publisher.send()
    token.cancel()
    token.cancel()
    publisher.send()
    #expect(count.value == 1)
    #expect(publisher.subscriberCount == 0)
  }

  @Test func droppingTheTokenCancels() {
    let publisher = ObservableObjectPublisher()
    let count = LegacyCounter()
    do {
      let token = publisher.sink { count.increment() }
      publisher.send()
      withExtendedLifetime(token) {}
    }
    #expect(publisher.subscriberCount == 0)
    publisher.send()
    #expect(count.value == 1)
  }

  @Test func discardedTokenNeverReceives() {
    let publisher = ObservableObjectPublisher()
    let count = LegacyCounter()
    _ = publisher.sink { count.increment() }
    publisher.send()
    #expect(count.value == 0)
  }

  @Test func storeInSetAndArrayKeepsSubscriptionsAlive() {
    let publisher = ObservableObjectPublisher()
    let count = LegacyCounter()
    var set = Set<AnyCancellable>()
    var array: [AnyCancellable] = []
    publisher.sink { count.increment() }.store(in: &set)
    publisher.sink { count.increment() }.store(in: &array)
    publisher.send()
    #expect(count.value == 2)
    set.removeAll()
    publisher.send()
    #expect(count.value == 3)
    array.removeAll()
    publisher.send()
    #expect(count.value == 3)
  }

  /// `AnyCancellable(_:)` over another cancellable forwards one cancellation: on the first
  /// `cancel()`, or when the wrapper is dropped uncancelled.
  @Test func aWrappingTokenForwardsOneCancellation() {
    struct CountingCancellable: Cancellable {
      let cancels: LegacyCounter
      func cancel() { cancels.increment() }
    }
    let cancels = LegacyCounter()
    let wrapper = AnyCancellable(CountingCancellable(cancels: cancels))
    #expect(cancels.value == 0)
    wrapper.cancel()
    wrapper.cancel()
    #expect(cancels.value == 1)
    do { _ = AnyCancellable(CountingCancellable(cancels: cancels)) }
    #expect(cancels.value == 2, "dropped uncancelled: cancelled once")
  }

  /// Combine's `Published(initialValue:)` spelling, for an initial value set in `init`.
  @Test func publishedInitialValueSpellingStartsFromThatValue() {
    final class Settings: ObservableObject {
      @Published var volume: Int
      init(volume: Int) { _volume = Published(initialValue: volume) }
    }
    let settings = Settings(volume: 3)
    #expect(settings.volume == 3)
    let seen = LockedBox<[Int]>([])
    let token = settings.$volume.sink { seen.value.append($0) }
    settings.volume = 4
    #expect(seen.value == [3, 4])
    withExtendedLifetime(token) {}
  }

  @Test func cancellationReleasesTheClosure() {
    let publisher = ObservableObjectPublisher()
    weak var weakProbe: LegacyLifetimeProbe?
    var token: AnyCancellable?
    do {
      let probe = LegacyLifetimeProbe()
      weakProbe = probe
      token = publisher.sink { withExtendedLifetime(probe) {} }
    }
    #expect(weakProbe != nil)
    token?.cancel()
    #expect(weakProbe == nil)
    token = nil
  }

  @Test func subscriberMayCancelItselfDuringDelivery() {
    let publisher = ObservableObjectPublisher()
    let count = LegacyCounter()
    final class Holder: @unchecked Sendable { var token: AnyCancellable? }
    let holder = Holder()
    holder.token = publisher.sink {
      count.increment()
      holder.token?.cancel()
    }
    publisher.send()
    publisher.send()
    #expect(count.value == 1)
  }

  @Test func anyCancellableRunsItsActionOnce() {
    let count = LegacyCounter()
    var token: AnyCancellable? = AnyCancellable { count.increment() }
    token?.cancel()
    token = nil
    #expect(count.value == 1)
    _ = AnyCancellable { count.increment() }
    #expect(count.value == 2)
  }

  @Test func concurrentSendsAndSubscriptions() {
    let publisher = ObservableObjectPublisher()
    let count = LegacyCounter()
    let token = publisher.sink { count.increment() }
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      for _ in 0..<500 {
        publisher.send()
        let extra = publisher.sink {}
        extra.cancel()
      }
    }
    #expect(count.value == 4000)
    #expect(publisher.subscriberCount == 1)
    withExtendedLifetime(token) {}
  }
}
