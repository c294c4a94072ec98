import Foundation
import Observation
import Testing

@testable import ReactiveState

/// Behaviour of the tracking layer that the session-42 mutation round over
/// `Sources/ReactiveState/Tracking/` found unpinned: each test fails with a mutant of that code
/// the rest of the suite let pass.
@Suite struct MutationFindingsTrackingRound42Tests {
  /// A subscript argument, kept alive by every key path that names it: it lives as long as a
  /// property slot made for such a key path does.
  final class SlotKey: Hashable, Sendable {
    let id: Int
    init(_ id: Int) { self.id = id }
    static func == (lhs: SlotKey, rhs: SlotKey) -> Bool { lhs.id == rhs.id }
    func hash(into hasher: inout Hasher) { hasher.combine(id) }
  }

  /// One observed property per key.
  final class KeyedModel: ReactiveState.Observable, @unchecked Sendable {
    private let registrar = ReactiveState.ObservationRegistrar()
    private var storage: [Int: Int] = [:]
    subscript(key: SlotKey) -> Int {
      get {
        registrar.access(self, keyPath: \.[key])
        return storage[key.id, default: 0]
      }
      set { registrar.withMutation(of: self, keyPath: \.[key]) { storage[key.id] = newValue } }
    }
  }

  /// A weak reference to a derived value, for an observer that must not keep it alive.
  final class WeakComputed: @unchecked Sendable {
    weak var value: Computed<Int>?
  }

  /// Runs `body` on a new thread and returns once that thread has exited (its thread-local
  /// caches released).
  private func onJoinedThread(_ body: @escaping @Sendable () -> Void) {
    let context = Unmanaged.passRetained(Box(body)).toOpaque()
    var thread = pthread_t()
    let created = pthread_create(
      &thread, nil,
      { raw in
        Unmanaged<Box<@Sendable () -> Void>>.fromOpaque(raw!).takeRetainedValue().value()
        return nil
      }, context)
    precondition(created == 0)
    pthread_join(thread, nil)
  }

  /// Pins that a registrar with more observed properties than its slot list holds (its slots
  /// found through the hash index its head slot keeps) releases every slot when it goes: the
  /// index, which refers to the head itself, is dropped with it.
  @Test func aWideRegistrarReleasesItsPropertySlotsWhenItGoes() {
    weak var firstKey: SlotKey?
    weak var lastKey: SlotKey?
    do {
      let model = KeyedModel()
      let keys = (0..<12).map(SlotKey.init)
      (firstKey, lastKey) = (keys.first, keys.last)
      for key in keys {
        ReactiveState.withObservationTracking({ _ = model[key] }, onChange: {})
      }
      model[keys[3]] = 1
    }
    // This thread's spare access list keeps the last slot it recorded until its next use.
    ReactiveState.withObservationTracking({ _ = HandModel().a }, onChange: {})
    #expect(firstKey == nil, "the slot list leaked")
    #expect(lastKey == nil, "the head slot leaked")
  }

  /// Pins that a thread's exit releases its spare access list, and with it the property slots
  /// the list kept retained for the thread's next one-shot tracking.
  @Test func aThreadsExitReleasesTheSlotsItsSpareAccessListKept() {
    weak var weakKey: SlotKey?
    do {
      let model = KeyedModel()
      let key = SlotKey(0)
      weakKey = key
      onJoinedThread {
        ReactiveState.withObservationTracking({ _ = model[key] }, onChange: {})
      }
    }
    #expect(weakKey == nil)
  }

  /// Pins that a one-shot tracking nested in another's `apply` leaves one spare access list
  /// on the thread: the outer one, ending after the inner one became the spare, is released,
  /// not kept in its place (the inner one, and the property slots it kept, would leak).
  @Test func nestedOneShotTrackingKeepsOneSpareAccessList() {
    weak var weakKey: SlotKey?
    do {
      let model = KeyedModel()
      let key = SlotKey(0)
      weakKey = key
      ReactiveState.withObservationTracking {
        ReactiveState.withObservationTracking({ _ = model[key] }, onChange: {})
      } onChange: {
      }
    }
    // This thread's spare access list keeps the slot it recorded until its next use.
    ReactiveState.withObservationTracking({ _ = HandModel().a }, onChange: {})
    #expect(weakKey == nil)
  }

  /// Pins that a derived value's link to an input that a recomputation reads again takes the
  /// version read then: a `Computed` made inside `apply`, recomputed there after `apply`'s own
  /// write and let go at its end, is no change at installation (its links' versions are what
  /// installation compares). The toolchain, reading a computed property, is the oracle.
  @Test func aComputedRecomputedInsideApplyAfterItsOwnWriteIsNoChangeAtInstall() {
    let ours = HandModel()
    let theirs = OracleModel()
    let fired = Box([0, 0])
    ReactiveState.withObservationTracking {
      let sum = Computed { ours.a + ours.b }
      _ = sum.value
      ours.a = 1
      _ = sum.value
    } onChange: {
      fired.value[0] += 1
    }
    Observation.withObservationTracking {
      _ = theirs.sum
      theirs.a = 1
      _ = theirs.sum
    } onChange: {
      fired.value[1] += 1
    }
    #expect(fired.value == [0, 0], "fired at installation")
    ours.b = 1
    theirs.b = 1
    #expect(fired.value == [1, 1])
  }

  /// Pins that the late `willSet` of a write begun before its object was observed passes over
  /// only the registrations this thread armed inside it that read the written property itself:
  /// one over a derived value that reads it hears that write as on an object observed before
  /// (whose deferral looks only at the properties a registration read directly).
  @Test(arguments: [
    ObservationTracking.Options.willSet, .didSet, [.willSet, .didSet],
  ])
  func aRegistrationOverADerivedValueArmedInsideAFirstWriteHearsItAsOnAnObservedObject(
    options: ObservationTracking.Options
  ) {
    func events(observedBefore: Bool) -> [[String]] {
      eventsOfARegistrationArmedInsideAWriteOfX(options: options, observedBefore: observedBefore) {
        model in
        let doubled = Computed { model.x * 2 }
        return { _ = doubled.value }
      }
    }
    let observed = events(observedBefore: true)
    #expect(events(observedBefore: false) == observed)
  }

  /// Pins that ``WaitForGraph/unconditionalCycle(through:)`` finds no cycle while a wait in it
  /// can be given up (that thread gives up instead, and the subscription does not pass over
  /// the value it waits for), and finds it once none can.
  @Test func aCycleThroughAWaitThatCanBeGivenUpIsNotUnconditional() {
    // Thread 1 holds target 1, thread 2 holds target 2.
    let graph = WaitForGraph<Int> { UInt($0) }
    #expect(graph.beginWait(1, for: 2))  // a read's wait: it can be given up
    graph.beginWaitUnconditionally(2, for: 1, holding: [])  // a subscription's: it cannot
    #expect(graph.closesCycle(1))
    #expect(graph.unconditionalCycle(through: 2) == nil)
    graph.endWaits(of: [1])
    graph.beginWaitUnconditionally(1, for: 2, holding: [])
    #expect(graph.unconditionalCycle(through: 2) != nil)
  }

  /// A real bug the round found, fixed in session 43: the release of a derived value a
  /// continuous observation read was delivered to it as a `.deinit` event, although no
  /// observed object went (`ObservationTracking.Options.deinit`: "an observed object was
  /// deallocated"; `Computed`: "The value's own release is no `.deinit` event"). The event
  /// form hears nothing there. `ContinuousObserver` did not override
  /// `derivedValueWillDeinitialize(_:objectsGone:)`, whose default treats the departure as a
  /// source's deinitialisation (see also `DerivedValueDeinitEventTests`).
  @Test func aDerivedValuesReleaseIsNoDeinitEventOfAContinuousObservation() {
    let model = HandModel()
    var doubled: Computed<Int>? = Computed { model.a * 2 }
    let weakDoubled = WeakComputed()
    weakDoubled.value = doubled
    let continuous = Box<[String]>([])
    let token = withContinuousObservation(options: [.didSet, .deinit]) { event in
      continuous.value.append("\(event.kind) \(weakDoubled.value?.value ?? -1) \(model.b)")
    }
    let oneShot = Box<[String]>([])
    ReactiveState.withObservationTracking(options: [.deinit]) {
      _ = doubled?.value
    } onChange: { event in
      oneShot.value.append("\(event.kind)")
    }
    doubled = nil
    model.a = 1  // reaches the observer through the released value, which its run stops reading
    model.b = 1
    #expect(oneShot.value == [], "the event form")
    #expect(continuous.value == ["initial 0 0", "didSet -1 0", "didSet -1 1"])
    withExtendedLifetime(token) {}
  }
}
