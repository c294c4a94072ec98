import Observation
import ReactiveStateMacrosFree
import Testing

// `@Tracked` in the host shapes users write: non-final bases and subclasses, generic classes,
// `@MainActor` classes, properties without a default value.

private final class HostCounter: @unchecked Sendable {
  var value = 0
}

private class HostBase: TrackedObservable, @unchecked Sendable {
  let observationRegistrar = ReactiveState.ObservationRegistrar()
  @Tracked var base = 0
}

private final class HostSub: HostBase, @unchecked Sendable {
  @Tracked var sub = ""
  var fullDescription: String { "\(base) \(sub)" }
}

private final class HostGeneric<Element>: TrackedObservable, @unchecked Sendable {
  let observationRegistrar = ReactiveState.ObservationRegistrar()
  @Tracked var element: Element
  @Tracked var count = 0

  init(_ element: Element) {
    self.element = element
  }
}

@Observation.Observable
private final class HostOracleGeneric<Element> {
  var element: Element
  init(_ element: Element) { self.element = element }
}

@MainActor
private final class HostMainActorModel: TrackedObservable {
  let observationRegistrar = ReactiveState.ObservationRegistrar()
  @Tracked var title = "start"
  @Tracked var names: [String] = []
}

private actor HostActor: TrackedObservable {
  let observationRegistrar = ReactiveState.ObservationRegistrar()
  @Tracked var count = 0

  /// Tracks `count`, then applies `values` one by one; returns how many fired.
  func fires(assigning values: [Int]) -> Int {
    let fired = HostCounter()
    ReactiveState.withObservationTracking {
      _ = count
    } onChange: {
      fired.value += 1
    }
    for value in values {
      count = value
    }
    return fired.value
  }
}

private final class HostNoDefault: TrackedObservable, @unchecked Sendable {
  let observationRegistrar = ReactiveState.ObservationRegistrar()
  @Tracked var name: String
  @Tracked var ratio: Double
  @Tracked var nickname: String?

  init(name: String) {
    self.name = name
    ratio = 1
  }
}

private func hostFires(reading read: () -> Void, during mutate: () -> Void) -> Int {
  let count = HostCounter()
  ReactiveState.withObservationTracking(read) { count.value += 1 }
  mutate()
  return count.value
}

@Suite("@Tracked hosts")
struct TrackedHostTests {
  @Test func subclassInstanceTracksBaseProperty() {
    let model = HostSub()
    #expect(hostFires(reading: { _ = model.base }, during: { model.base = 1 }) == 1)
    #expect(hostFires(reading: { _ = model.base }, during: { (model as HostBase).base = 2 }) == 1)
    #expect(hostFires(reading: { _ = (model as HostBase).base }, during: { model.base = 3 }) == 1)
  }

  @Test func subclassKeyPathsAreRootedAtTheDeclaringClass() {
    let model = HostSub()
    // A raw notification for `\HostBase.base` must reach a reader of `model.base` …
    #expect(
      hostFires(
        reading: { _ = model.base },
        during: {
          model.observationRegistrar.willSet(model as HostBase, keyPath: \HostBase.base)
          model.observationRegistrar.didSet(model as HostBase, keyPath: \HostBase.base)
        }) == 1)
    // … and one for `\HostSub.sub` a reader of `model.sub`.
    #expect(
      hostFires(
        reading: { _ = model.sub },
        during: {
          model.observationRegistrar.willSet(model, keyPath: \HostSub.sub)
          model.observationRegistrar.didSet(model, keyPath: \HostSub.sub)
        }) == 1)
  }

  @Test func subclassPropertiesAreIndependent() {
    let model = HostSub()
    #expect(hostFires(reading: { _ = model.base }, during: { model.sub = "x" }) == 0)
    #expect(hostFires(reading: { _ = model.sub }, during: { model.base = 9 }) == 0)
    #expect(hostFires(reading: { _ = model.sub }, during: { model.sub = "y" }) == 1)
  }

  @Test func computedPropertyTracksBothLevels() {
    let model = HostSub()
    #expect(hostFires(reading: { _ = model.fullDescription }, during: { model.base = 4 }) == 1)
    #expect(hostFires(reading: { _ = model.fullDescription }, during: { model.sub = "z" }) == 1)
    #expect(model.fullDescription == "4 z")
  }

  @Test func nonFinalBaseWorksAlone() {
    let model = HostBase()
    #expect(hostFires(reading: { _ = model.base }, during: { model.base = 0 }) == 0)
    #expect(hostFires(reading: { _ = model.base }, during: { model.base = 5 }) == 1)
  }

  @Test func genericPropertyAlwaysNotifiesLikeTheMacro() {
    let model = HostGeneric(1)
    let oracle = HostOracleGeneric(1)
    let tracked = hostFires(reading: { _ = model.element }, during: { model.element = 1 })
    let count = HostCounter()
    Observation.withObservationTracking {
      _ = oracle.element
    } onChange: {
      count.value += 1
    }
    oracle.element = 1
    #expect(tracked == 1)
    #expect(tracked == count.value)
    #expect(model.element == 1)
  }

  @Test func concreteEquatablePropertyOfGenericClassDeduplicates() {
    let model = HostGeneric("a")
    #expect(hostFires(reading: { _ = model.count }, during: { model.count = 0 }) == 0)
    #expect(hostFires(reading: { _ = model.count }, during: { model.count = 1 }) == 1)
  }

  @Test @MainActor func mainActorModel() {
    let model = HostMainActorModel()
    let count = HostCounter()
    ReactiveState.withObservationTracking {
      _ = model.title
    } onChange: {
      count.value += 1
    }
    model.title = "start"
    #expect(count.value == 0)
    model.title = "next"
    #expect(count.value == 1)
    model.names.append("a")
    #expect(model.names == ["a"])
  }

  @Test func actorModel() async {
    let model = HostActor()
    #expect(await model.fires(assigning: [0]) == 0)
    #expect(await model.fires(assigning: [0, 2]) == 1)
    #expect(await model.count == 2)
  }

  @Test func propertiesWithoutDefaultUseTheDeclaredTypesRule() {
    let model = HostNoDefault(name: "n")
    #expect(model.name == "n")
    #expect(hostFires(reading: { _ = model.name }, during: { model.name = "n" }) == 0)
    #expect(hostFires(reading: { _ = model.name }, during: { model.name = "m" }) == 1)
    #expect(hostFires(reading: { _ = model.ratio }, during: { model.ratio = .nan }) == 1)
    // An optional without initializer starts as nil (like the macro's) and keeps the Equatable rule.
    #expect(model.nickname == nil)
    #expect(hostFires(reading: { _ = model.nickname }, during: { model.nickname = nil }) == 0)
    #expect(hostFires(reading: { _ = model.nickname }, during: { model.nickname = "N" }) == 1)
  }
}
