import Foundation
import Observation
import ReactiveState
import Testing

/// `MainActorObservationRegistrar`: the same semantics as `ObservationRegistrar` (the
/// differential fuzzers also run every script on its confined registrar), plus the slow side
/// of its handshake — another thread linking to a confined property while the owner writes.
@Suite struct MainActorRegistrarTests {
  /// The public form, end to end, on the README tour's main-actor `Counter`.
  @MainActor @Test func aMainActorModelBehavesLikeAnyOther() {
    let model = Counter()
    expectObservedLikeAnyModel(count: { model.count }, setCount: { model.count = $0 })
  }

  /// The documented accessor form — `withMutation(of:keyPath:_:)` with no equality rule, and
  /// an explicit `willSet` / `didSet` pair — against the same model over Observation's
  /// registrar: the same one-shot, continuous and event deliveries, on the owner thread.
  @MainActor @Test func plainMutationAndExplicitAnnouncementsMatchObservation() {
    let ours = PlainMainActorModel()
    let theirs = PlainMainActorOracle()
    let oneShots = Box<[String]>([])
    ReactiveState.withObservationTracking(
      { _ = ours.count }, onChange: { oneShots.value.append("ours") })
    Observation.withObservationTracking(
      { _ = theirs.count }, onChange: { oneShots.value.append("theirs") })
    let runs = Box<[Int]>([])
    let token = observe { runs.value.append(MainActor.assumeIsolated { ours.count }) }
    let events = Box<[String]>([])
    ReactiveState.withObservationTracking(options: [.willSet, .didSet]) {
      _ = ours.label
    } onChange: { event in
      events.value.append("\(event.kind) \(MainActor.assumeIsolated { ours.label })")
    }
    actingAsMainThread {
      for model in [ours as any PlainCounting, theirs] {
        model.count = 1
        model.count = 1  // no equality rule: still a change
        model.label = "new"
      }
    }
    #expect(oneShots.value == ["ours", "theirs"])
    #expect(runs.value == [0, 1, 1])
    #expect(events.value == ["willSet ", "didSet new"])
    token.cancel()
  }

  /// A registrar that is not used on its owner thread falls back to the atomic protocol: the
  /// behaviour is the same wherever the main actor runs.
  @Test func aConfinedRegistrarUsedOffItsOwnerThreadStillWorks() {
    let model = HandModel(confinedToMainThread: true)
    let fired = Box(0)
    ReactiveState.withObservationTracking({ _ = model.a }, onChange: { fired.value += 1 })
    model.a = 1
    model.a = 2
    #expect(fired.value == 1)
  }

  /// The slow side: a thread that is not the owner arms one-shots on a confined property
  /// (it links into the graph, then must issue the process-wide barrier before comparing
  /// versions) while the owner writes it with plain stores. Every write completes its
  /// notifications before the next one stores, so once two new values have been visible the
  /// registration must have fired: one that has not lost a write.
  @Test(.enabled(if: mainThreadConfinementIsAvailable, "needs Linux membarrier"))
  func anotherThreadLinkingToAConfinedPropertyMissesNoWrite() {
    let model = ConfinedProbeModel()
    let readerDone = LockedBox(false)
    let armed = AtomicCounter()
    let lost = AtomicCounter()
    let calls = AtomicCounter()
    Thread.detachNewThread {
      for _ in 0..<2_000 {
        let fired = LockedBox(false)
        let seen = ReactiveState.withObservationTracking(
          { model.value },
          onChange: {
            fired.value = true
            calls.increment()
          })
        armed.increment()
        // A write that began before the link existed notifies it late, after its store; so
        // once a second new value is visible, the call must have happened.
        var changes = 0
        var last = seen
        while changes < 2 {
          let now = model.value
          if now != last {
            changes += 1
            last = now
          }
        }
        if !fired.value { lost.increment() }
      }
      readerDone.value = true
    }
    actingAsMainThread {
      var next = 1
      while !readerDone.value {
        model.value = next
        next += 1
      }
      model.value = -1  // fires the last registration
    }
    print(
      "confined slow side: \(armed.value) registrations from another thread, \(lost.value) lost")
    #expect(lost.value == 0)
    #expect(calls.value == armed.value, "each registration fired exactly once")
    #expect(armed.value > 100, "the two threads overlapped")
  }
}

/// One property over a confined registrar, its storage behind a lock (read by other threads
/// in the slow-side test).
private final class ConfinedProbeModel: ReactiveState.Observable, @unchecked Sendable {
  private let registrar = mainThreadConfinedRegistrar()
  private let stored = LockedBox(0)
  var value: Int {
    get {
      registrar.access(self, keyPath: \.value)
      return stored.value
    }
    set { registrar.withMutation(of: self, keyPath: \.value) { stored.value = newValue } }
  }
}

/// What the plain-accessor test drives on either registrar.
@MainActor private protocol PlainCounting: AnyObject {
  var count: Int { get set }
  var label: String { get set }
}

/// A main-actor model written as ``MainActorObservationRegistrar``'s documentation shows:
/// `withMutation` without an equality rule, and an explicit `willSet` / `didSet` pair.
@MainActor private final class PlainMainActorModel: ReactiveState.Observable, PlainCounting {
  private let registrar = MainActorObservationRegistrar()
  private var _count = 0
  private var _label = ""
  var count: Int {
    get {
      registrar.access(self, keyPath: \.count)
      return _count
    }
    set { registrar.withMutation(of: self, keyPath: \.count) { _count = newValue } }
  }
  var label: String {
    get {
      registrar.access(self, keyPath: \.label)
      return _label
    }
    set {
      registrar.willSet(self, keyPath: \.label)
      _label = newValue
      registrar.didSet(self, keyPath: \.label)
    }
  }
}

/// The same model over Observation's registrar (the oracle).
@MainActor private final class PlainMainActorOracle: Observation.Observable, PlainCounting {
  private let registrar = Observation.ObservationRegistrar()
  private var _count = 0
  private var _label = ""
  var count: Int {
    get {
      registrar.access(self, keyPath: \.count)
      return _count
    }
    set { registrar.withMutation(of: self, keyPath: \.count) { _count = newValue } }
  }
  var label: String {
    get {
      registrar.access(self, keyPath: \.label)
      return _label
    }
    set {
      registrar.willSet(self, keyPath: \.label)
      _label = newValue
      registrar.didSet(self, keyPath: \.label)
    }
  }
}

/// A main-actor model's `count`, end to end: one-shot (with a re-arm), continuous, a derived
/// value, and the macro's equality rule (an equal assignment notifies nobody).
@MainActor func expectObservedLikeAnyModel(
  count: @escaping @MainActor @Sendable () -> Int, setCount: (Int) -> Void
) {
  let oneShots = Box<[Int]>([])
  @Sendable func arm() {
    MainActor.assumeIsolated {
      ReactiveState.withObservationTracking(
        { _ = count() },
        onChange: {
          MainActor.assumeIsolated { oneShots.value.append(count()) }  // the old value
          arm()
        })
    }
  }
  arm()
  let runs = Box<[Int]>([])
  let token = observe { MainActor.assumeIsolated { runs.value.append(count()) } }
  let doubled = Computed { MainActor.assumeIsolated { count() * 2 } }
  #expect(doubled.value == 0)
  setCount(1)
  setCount(1)  // equal: no notification
  setCount(5)
  #expect(oneShots.value == [0, 1])
  #expect(runs.value == [0, 1, 5])
  #expect(doubled.value == 10)
  token.cancel()
}
