import Dispatch
import ReactiveState
import Testing

// `ObservableObject` + `@Published`: Combine's willSet timing, object-wide (coarse) notification,
// the synthesized shared publisher, and `$name` value publishers.

private final class LegacyRecorder<Value>: @unchecked Sendable {
  var values: [Value] = []
}

private class LegacyProfile: ObservableObject, @unchecked Sendable {
  @Published var name = "Ada"
  @Published var age = 36
  @Published var tags: [String] = []
  var unpublished = 0
}

private final class LegacyAdminProfile: LegacyProfile, @unchecked Sendable {
  @Published var level = 1
}

private final class LegacyGenericBox<Value>: ObservableObject, @unchecked Sendable {
  @Published var value: Value
  init(_ value: Value) { self.value = value }
}

private final class LegacyCustomPublisherModel: ObservableObject, @unchecked Sendable {
  let objectWillChange = ObservableObjectPublisher()
  var count = 0 {
    willSet { objectWillChange.send() }
  }
}

private class LegacyPlain: ObservableObject {}

/// A subclass that adds the `@Published` storage its base class lacks.
private final class LegacyPublishingChild: LegacyPlain {
  @Published var value = 0
}

/// `@Published` outside an `ObservableObject`: only `$name` publishes.
private final class LegacyNotAnObservableObject: @unchecked Sendable {
  @Published var score = 1
}

@MainActor
private final class LegacyMainActorModel: ObservableObject {
  @Published var title = "start"
}

@Suite("Legacy ObservableObject and @Published")
struct LegacyObservableObjectTests {
  @Test func everySubscriberIsNotifiedOfEveryPublishedChange() {
    let profile = LegacyProfile()
    let subscriberCount = 5
    let counts = LegacyRecorder<Int>()
    counts.values = Array(repeating: 0, count: subscriberCount)
    let tokens = (0..<subscriberCount).map { index in
      profile.objectWillChange.sink { counts.values[index] += 1 }
    }
    profile.name = "Grace"
    profile.age = 40
    profile.tags = ["x"]
    #expect(counts.values == Array(repeating: 3, count: subscriberCount))
    withExtendedLifetime(tokens) {}
  }

  @Test func equalAssignmentStillNotifies() {
    let profile = LegacyProfile()
    let count = LegacyRecorder<Void>()
    let token = profile.objectWillChange.sink { count.values.append(()) }
    profile.name = "Ada"
    profile.age = 36
    #expect(count.values.count == 2)
    withExtendedLifetime(token) {}
  }

  @Test func unpublishedPropertyDoesNotNotify() {
    let profile = LegacyProfile()
    let count = LegacyRecorder<Void>()
    let token = profile.objectWillChange.sink { count.values.append(()) }
    profile.unpublished = 4
    #expect(count.values.isEmpty)
    withExtendedLifetime(token) {}
  }

  @Test func objectWillChangeFiresBeforeTheStore() {
    let profile = LegacyProfile()
    let seen = LegacyRecorder<String>()
    let token = profile.objectWillChange.sink { seen.values.append(profile.name) }
    profile.name = "Grace"
    profile.name = "Linus"
    #expect(seen.values == ["Ada", "Grace"])
    #expect(profile.name == "Linus")
    withExtendedLifetime(token) {}
  }

  @Test func synthesizedPublisherIsOnePerObject() {
    let profile = LegacyProfile()
    let other = LegacyProfile()
    #expect(profile.objectWillChange === profile.objectWillChange)
    #expect(profile.objectWillChange !== other.objectWillChange)
  }

  @Test func concurrentFirstRequestsAgreeOnOnePublisher() {
    for _ in 0..<50 {
      let profile = LegacyProfile()
      let seen = LegacyRecorder<ObjectIdentifier>()
      let lock = DispatchQueue(label: "seen")
      DispatchQueue.concurrentPerform(iterations: 8) { _ in
        let id = ObjectIdentifier(profile.objectWillChange)
        lock.sync { seen.values.append(id) }
      }
      #expect(Set(seen.values).count == 1)
    }
  }

  @Test @MainActor func mainActorModel() {
    let model = LegacyMainActorModel()
    let seen = LegacyRecorder<String>()
    let token = model.objectWillChange.sink {
      MainActor.assumeIsolated { seen.values.append(model.title) }
    }
    model.title = "next"
    #expect(seen.values == ["start"])
    #expect(model.title == "next")
    withExtendedLifetime(token) {}
  }

  @Test func otherObjectsAreNotNotified() {
    let profile = LegacyProfile()
    let other = LegacyProfile()
    let count = LegacyRecorder<Void>()
    let token = profile.objectWillChange.sink { count.values.append(()) }
    other.name = "Grace"
    #expect(count.values.isEmpty)
    withExtendedLifetime(token) {}
  }

  @Test func subclassAndBasePropertiesShareThePublisher() {
    let admin = LegacyAdminProfile()
    let count = LegacyRecorder<Void>()
    let token = admin.objectWillChange.sink { count.values.append(()) }
    admin.level = 2
    admin.name = "Root"
    #expect(count.values.count == 2)
    #expect(admin.objectWillChange === (admin as LegacyProfile).objectWillChange)
    withExtendedLifetime(token) {}
  }

  @Test func genericModel() {
    let box = LegacyGenericBox([1])
    let count = LegacyRecorder<Void>()
    let token = box.objectWillChange.sink { count.values.append(()) }
    box.value = [2]
    #expect(count.values.count == 1)
    #expect(box.value == [2])
    withExtendedLifetime(token) {}
  }

  @Test func handWrittenObjectWillChange() {
    let model = LegacyCustomPublisherModel()
    let seen = LegacyRecorder<Int>()
    let token = model.objectWillChange.sink { seen.values.append(model.count) }
    model.count = 3
    #expect(seen.values == [0])
    withExtendedLifetime(token) {}
  }

  /// A subclass that adds `@Published` storage has its object's one publisher, sent by its
  /// writes, after an object of its base class was asked (the field walk is cached per class).
  @Test func classWithoutPublishedPropertiesGetsAThrowawayPublisher() {
    let plain = LegacyPlain()
    #expect(plain.objectWillChange !== plain.objectWillChange)
    let child = LegacyPublishingChild()
    let sends = LegacyRecorder<Void>()
    let token = child.objectWillChange.sink { sends.values.append(()) }
    child.value = 1
    #expect(sends.values.count == 1)
    #expect(child.objectWillChange === child.objectWillChange)
    withExtendedLifetime(token) {}
  }

  @Test func publisherLivesAsLongAsTheObject() {
    weak var weakPublisher: ObservableObjectPublisher?
    weak var weakProfile: LegacyProfile?
    do {
      let profile = LegacyProfile()
      weakProfile = profile
      weakPublisher = profile.objectWillChange
      #expect(weakPublisher != nil)
    }
    #expect(weakProfile == nil)
    #expect(weakPublisher == nil)
  }

  @Test func outstandingTokenDoesNotKeepTheObjectOrPublisherAlive() {
    weak var weakPublisher: ObservableObjectPublisher?
    weak var weakProfile: LegacyProfile?
    var token: AnyCancellable?
    do {
      let profile = LegacyProfile()
      weakProfile = profile
      weakPublisher = profile.objectWillChange
      token = profile.objectWillChange.sink {}
    }
    #expect(weakProfile == nil)
    #expect(weakPublisher == nil)
    token?.cancel()
    token = nil
  }

  @Test func inPlaceMutationNotifiesOnceBeforeTheStore() {
    let profile = LegacyProfile()
    let count = LegacyRecorder<Int>()
    let token = profile.objectWillChange.sink { count.values.append(profile.tags.count) }
    profile.tags.append("a")
    #expect(count.values == [0])
    #expect(profile.tags == ["a"])
    withExtendedLifetime(token) {}
  }

  /// Combine's in-place mutation works on a copy, so code inside it may read the property
  /// (the old value): a predicate or comparator that reads it, and a subscriber that
  /// snapshots the model while a sibling's change is sent from inside the mutation. Yielding
  /// the stored value instead held exclusive access for the whole mutation, and such a read
  /// trapped ("simultaneous accesses"); run in a child process.
  @Test func aMutationMayReadThePropertyItMutates() async {
    await #expect(processExitsWith: .success) {
      let profile = LegacyProfile()
      profile.tags = ["c", "a", "b"]
      profile.tags.removeAll { profile.tags.firstIndex(of: $0) == 0 }
      precondition(profile.tags == ["a", "b"])
      profile.tags.sort { lhs, rhs in profile.tags.count == 2 && lhs > rhs }
      precondition(profile.tags == ["b", "a"])

      let snapshots = LegacyRecorder<[String]>()
      let token = profile.objectWillChange.sink { snapshots.values.append(profile.tags) }
      profile.tags.removeAll {
        profile.age += 1
        return $0 == "a"
      }
      precondition(profile.tags == ["b"] && profile.age == 38)
      precondition(snapshots.values == [["b", "a"], ["b", "a"], ["b", "a"]])
      withExtendedLifetime(token) {}
    }
  }

  @Test func projectedPublisherSendsCurrentThenNewValuesAtWillSet() {
    let profile = LegacyProfile()
    let received = LegacyRecorder<String>()
    let storedWhenReceived = LegacyRecorder<String>()
    let token = profile.$name.sink { value in
      received.values.append(value)
      storedWhenReceived.values.append(profile.name)
    }
    profile.name = "Grace"
    profile.name = "Grace"
    #expect(received.values == ["Ada", "Grace", "Grace"])
    #expect(storedWhenReceived.values == ["Ada", "Ada", "Grace"])
    token.cancel()
    profile.name = "Linus"
    #expect(received.values.count == 3)
  }

  @Test func publishedWorksOutsideObservableObject() {
    let model = LegacyNotAnObservableObject()
    let scores = LegacyRecorder<Int>()
    let token = model.$score.sink { scores.values.append($0) }
    model.score = 2
    model.score += 1
    #expect(scores.values == [1, 2, 3])
    #expect(model.score == 3)
    withExtendedLifetime(token) {}
  }

  @Test func projectedPublisherIsPerProperty() {
    let profile = LegacyProfile()
    let ages = LegacyRecorder<Int>()
    let token = profile.$age.sink { ages.values.append($0) }
    profile.name = "Grace"
    profile.age = 41
    #expect(ages.values == [36, 41])
    withExtendedLifetime(token) {}
  }

  @Test func objectWillChangeIsSentBeforeTheValuePublisher() {
    let profile = LegacyProfile()
    let events = LegacyRecorder<String>()
    let objectToken = profile.objectWillChange.sink { events.values.append("object") }
    let valueToken = profile.$age.dropFirstValue { events.values.append("value \($0)") }
    profile.age = 50
    #expect(events.values == ["object", "value 50"])
    withExtendedLifetime((objectToken, valueToken)) {}
  }

  /// As for an assignment (Combine's rule): the new value, before it is stored.
  @Test func projectedPublisherGetsAnInPlaceMutationsValueBeforeTheStore() {
    let profile = LegacyProfile()
    let received = LegacyRecorder<[String]>()
    let storedWhenReceived = LegacyRecorder<[String]>()
    let token = profile.$tags.dropFirstValue {
      received.values.append($0)
      storedWhenReceived.values.append(profile.tags)
    }
    profile.tags.append("a")
    #expect(received.values == [["a"]])
    #expect(storedWhenReceived.values == [[]])
    withExtendedLifetime(token) {}
  }
}

extension Published.Publisher {
  /// Subscribes, skipping the current value delivered on subscription.
  fileprivate func dropFirstValue(_ receive: @escaping (Value) -> Void) -> AnyCancellable {
    var isFirst = true
    return sink { value in
      if isFirst {
        isFirst = false
      } else {
        receive(value)
      }
    }
  }
}
