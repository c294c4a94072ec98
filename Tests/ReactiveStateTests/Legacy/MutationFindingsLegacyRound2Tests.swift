import Testing

// `@testable` only to read how many entries the subscriber list keeps (as
// `MutationFindingsLegacyTests` does).
@testable import ReactiveState

/// A model that replaces one property's `@Published` storage after creation, as an
/// initialiser-like `reset` might (`_name = Published(initialValue:)`).
private final class ResettableProfile: ObservableObject, @unchecked Sendable {
  @Published var name = "Ada"
  @Published var age = 36

  /// Replaces the storage of the first `@Published` field (`name`) or of a later one (`age`).
  func replaceStorage(ofFirstField first: Bool) {
    if first {
      _name = Published(initialValue: "Grace")
    } else {
      _age = Published(initialValue: 40)
    }
  }
}

/// Two classes of one name in different scopes (see
/// `eachClassHasItsOwnFieldLayoutWhateverItsName`): the first has one `@Published` field, the
/// second two.
private enum OneFieldScope {
  final class Model: ObservableObject, @unchecked Sendable {
    @Published var first = 0
  }
}

private enum TwoFieldScope {
  final class Model: ObservableObject, @unchecked Sendable {
    @Published var first = 0
    @Published var second = 0

    func replaceFirstStorage() { _first = Published(initialValue: 1) }
  }
}

/// Pins promises of the legacy subscriber list that a second round of mutation testing found
/// unchecked: when removed entries are compacted, and when a subscription's closure is released;
/// and, from a later round, how `@Published` storage keeps its object's one publisher.
@Suite struct MutationFindingsLegacyRound2Tests {
  /// Pins that removed entries are compacted as soon as they make up half of the list (the
  /// documented threshold), not only once they outnumber the live ones.
  @Test func removedEntriesAreCompactedOnceTheyMakeUpHalfOfTheList() {
    let list = SubscriberList<Int>()
    let kept = list.subscribe { _ in }
    list.subscribe { _ in }.cancel()
    #expect(list.count == 1)
    #expect(list.entries.count == 1, "one removed entry of two is half: compacted")
    withExtendedLifetime(kept) {}
  }

  /// Pins that cancelling one subscription releases its closure at once, even when too few
  /// entries are removed for the list to be compacted (the removed entry stays, without its
  /// closure).
  @Test func cancellingReleasesTheClosureBeforeTheListIsCompacted() {
    let publisher = ObservableObjectPublisher()
    let others = (0..<3).map { _ in publisher.sink {} }
    let watch = CanaryWatch()
    var token: AnyCancellable?
    do {
      let canary = Canary()
      watch.canary = canary
      token = publisher.sink { withExtendedLifetime(canary) {} }
    }
    #expect(watch.isAlive)
    token?.cancel()
    #expect(publisher.subscriberCount == 3)
    #expect(!watch.isAlive, "the cancelled closure was released")
    withExtendedLifetime((others, token)) {}
  }

  /// Pins that a publisher's subscribers' closures go with the publisher even while their
  /// tokens are kept: a token does not keep the publisher's subscriber list alive.
  @Test func aReleasedPublisherReleasesItsSubscribersWhileTheirTokensLive() {
    let watch = CanaryWatch()
    var publisher: ObservableObjectPublisher? = ObservableObjectPublisher()
    var token: AnyCancellable?
    do {
      let canary = Canary()
      watch.canary = canary
      token = publisher?.sink { withExtendedLifetime(canary) {} }
    }
    #expect(watch.isAlive)
    publisher = nil
    #expect(!watch.isAlive, "the subscriber's closure went with its publisher")
    token?.cancel()  // no publisher left to remove it from
    withExtendedLifetime(token) {}
  }

  /// Pins that an object keeps one `objectWillChange` publisher when one property's storage was
  /// replaced after the publisher was installed, and that writes to the new storage send it:
  /// to the first field's (which `objectWillChange`'s fast path reads) and to a later field's
  /// (which only its first write can join to the object's publisher).
  @Test(arguments: [true, false])
  func replacingAPropertysStorageKeepsTheObjectsOnePublisher(firstField: Bool) {
    let profile = ResettableProfile()
    let publisher = profile.objectWillChange
    let sends = LockedBox(0)
    let token = publisher.sink { sends.value += 1 }
    profile.replaceStorage(ofFirstField: firstField)
    profile.name = "Lin"
    profile.age = 37
    #expect(sends.value == 2, "a write to the replaced storage was not announced")
    #expect(profile.objectWillChange === publisher)
    profile.name = "Kay"
    profile.age = 38
    #expect(sends.value == 4)
    withExtendedLifetime(token) {}
  }

  /// Pins that asking for `objectWillChange` again after the first field's storage was
  /// replaced, before any write, returns the object's publisher from a sibling field (the fast
  /// path finds nothing in the new first storage), not a new one that subscribers already
  /// holding the old one would never hear.
  @Test func askingAgainAfterTheFirstStorageWasReplacedKeepsThePublisher() {
    let profile = ResettableProfile()
    let publisher = profile.objectWillChange
    let sends = LockedBox(0)
    let token = publisher.sink { sends.value += 1 }
    profile.replaceStorage(ofFirstField: true)
    #expect(profile.objectWillChange === publisher, "a second publisher was made")
    profile.name = "Lin"
    #expect(sends.value == 1)
    withExtendedLifetime(token) {}
  }

  /// Pins that the field layout is cached per class, not per class name: a class named like
  /// one already walked (in another scope) gets its own layout, with both of its `@Published`
  /// fields, so the publisher kept by its second field is found when the first field's storage
  /// was replaced.
  @Test func eachClassHasItsOwnFieldLayoutWhateverItsName() {
    _ = OneFieldScope.Model().objectWillChange
    let model = TwoFieldScope.Model()
    let publisher = model.objectWillChange
    model.replaceFirstStorage()
    #expect(model.objectWillChange === publisher, "the second field was not in the layout")
  }

  /// Work waiting for a `@Published` write (a view's hop from a background write) runs once
  /// the outermost write stored its value, not when a write a subscriber nested in it ends
  /// (the session-41 mutation round: running it at any depth went unnoticed).
  @Test func actionsWaitingForAWriteRunAfterTheOutermostWriteStores() {
    let model = ResettableProfile()
    let seen = LockedBox<Int?>(nil)
    let subscription = model.$age.sink { age in
      guard age == 37 else { return }
      afterCurrentPublishedWrite { seen.value = model.age }
      model.name = "Grace"  // nested in the write below; its end is not the outermost one's
    }
    model.age = 37
    #expect(seen.value == 37, "the action saw the outer write's stored value")
    #expect(model.name == "Grace")
    withExtendedLifetime(subscription) {}
  }
}
