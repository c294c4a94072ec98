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

  /// Subscribers added during a `send` first receive the next one, as in Combine, however
  /// many are added (enough to make the list grow while it is being delivered).
  @Test func subscribersAddedDuringASendReceiveOnlyLaterSends() {
    let publisher = ObservableObjectPublisher()
    let lateCount = LegacyCounter()
    let late = LockedBox<[AnyCancellable]>([])
    let first = publisher.sink {
      if late.value.isEmpty {
        late.value = (0..<40).map { _ in publisher.sink { lateCount.increment() } }
      }
    }
    publisher.send()
    #expect(lateCount.value == 0)
    publisher.send()
    #expect(lateCount.value == 40)
    withExtendedLifetime(first) {}
  }

  /// A subscriber may send again during delivery: the nested send reaches every subscriber
  /// (itself included) before the outer one goes on, as a synchronous Combine subject does.
  @Test func aSubscriberMaySendAgainDuringDelivery() {
    let publisher = ObservableObjectPublisher()
    let order = LockedBox<[String]>([])
    let depth = LockedBox(0)
    let first = publisher.sink {
      order.value.append("first")
      depth.value += 1
      if depth.value == 1 { publisher.send() }
    }
    let second = publisher.sink { order.value.append("second") }
    publisher.send()
    #expect(order.value == ["first", "first", "second", "second"])
    withExtendedLifetime((first, second)) {}
  }

  /// A model that keeps its own subscriptions (capturing itself weakly) is released with
  /// them: nothing in the publisher or the tokens keeps it.
  @Test func aModelHoldingItsOwnSubscriptionsIsReleased() {
    final class SelfObserving: ObservableObject, @unchecked Sendable {
      @Published var value = 0
      var changes = 0
      var bag = Set<AnyCancellable>()
      init() {
        objectWillChange.sink { [weak self] in self?.changes += 1 }.store(in: &bag)
        $value.sink { [weak self] _ in self?.changes += 1 }.store(in: &bag)
      }
    }
    weak var weakModel: SelfObserving?
    do {
      let model = SelfObserving()
      weakModel = model
      model.value = 1
      #expect(model.changes == 3, "the initial value, then the change to both subscribers")
    }
    #expect(weakModel == nil)
  }

  /// Three threads cancelling one token at once, while a fourth drops one of its references,
  /// run the action exactly once and leave nothing subscribed.
  @Test func racingCancelsRunTheActionOnce() {
    for _ in 0..<200 {
      let publisher = ObservableObjectPublisher()
      let actions = LegacyCounter()
      let inner = publisher.sink {}
      let token = LockedBox<AnyCancellable?>(
        AnyCancellable {
          actions.increment()
          inner.cancel()
        })
      let shared = token.value!
      DispatchQueue.concurrentPerform(iterations: 4) { index in
        if index == 0 { token.value = nil } else { shared.cancel() }
      }
      #expect(actions.value == 1)
      #expect(publisher.subscriberCount == 0)
    }
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
