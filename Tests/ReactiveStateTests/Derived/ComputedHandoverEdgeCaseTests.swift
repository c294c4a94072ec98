import Foundation
import Observation
import ReactiveState
import Testing

/// Registrations over a released `Computed` that also read its inputs directly, next to
/// other listeners of those inputs (a second review of the handover; each of these failed on
/// one version of it).
@Suite struct ComputedHandoverEdgeCaseTests {
  /// A registration that read `a` directly and through a released `Computed`, then another
  /// registration of `a`: one write fires both, as with the oracle.
  @Test func aLaterRegistrationHearsTheWriteAfterADuplicateLinkFires() {
    let oracle = OracleModel()
    let oracleFired = Box([0, 0])
    Observation.withObservationTracking {
      _ = oracle.a
      _ = oracle.sum
    } onChange: {
      oracleFired.value[0] += 1
    }
    Observation.withObservationTracking {
      _ = oracle.a
      _ = oracle.b
    } onChange: {
      oracleFired.value[1] += 1
    }
    oracle.a = 1

    let model = HandModel()
    var doubled: Computed<Int>? = Computed { model.a * 2 }
    let fired = Box([0, 0])
    ReactiveState.withObservationTracking {
      _ = model.a
      _ = doubled?.value
    } onChange: {
      fired.value[0] += 1
    }
    doubled = nil
    ReactiveState.withObservationTracking {
      _ = model.a
      _ = model.b
    } onChange: {
      fired.value[1] += 1
    }
    model.a = 1
    #expect(oracleFired.value == [1, 1])
    #expect(fired.value == oracleFired.value)
  }

  /// O read `a` directly and through a released value, with another registration, P, of `a`
  /// between: O must not be linked to `a` twice. A duplicate link broke the write's walk —
  /// when O fired, it unlinked the duplicate the walk was about to visit, and the walk
  /// stopped there: R never heard of the write.
  @Test func aRegistrationAfterAnAdoptedDuplicateLinkHearsTheWrite() {
    let model = HandModel()
    var doubled: Computed<Int>? = Computed { model.a * 2 }
    let fired = Box(["O": 0, "P": 0, "R": 0])
    ReactiveState.withObservationTracking {
      _ = model.a
      _ = doubled?.value
    } onChange: {
      fired.value["O", default: 0] += 1
    }
    ReactiveState.withObservationTracking {
      _ = model.a
      _ = model.b
    } onChange: {
      fired.value["P", default: 0] += 1
    }
    doubled = nil
    model.b = 1  // fires P, which leaves `a`'s list
    ReactiveState.withObservationTracking {
      _ = model.a
      _ = model.b
    } onChange: {
      fired.value["R", default: 0] += 1
    }
    model.a = 1
    #expect(fired.value == ["O": 1, "P": 1, "R": 1])
  }

  /// The same lost walk, seen by a continuous observer of `willSet`s.
  @Test(arguments: [false, true])
  func aContinuousObserverAfterAnAdoptedDuplicateLinkHearsTheWrite(othersListen: Bool) {
    let model = HandModel()
    var doubled: Computed<Int>? = Computed { model.a * 2 }
    let fired = Box(0)
    ReactiveState.withObservationTracking {
      _ = model.a
      _ = doubled?.value
    } onChange: {
      fired.value += 1
    }
    if othersListen {
      ReactiveState.withObservationTracking {
        _ = model.a
        _ = model.b
      } onChange: {
      }
    }
    doubled = nil
    model.b = 1
    let events = Box<[String]>([])
    let token = ReactiveState.withContinuousObservation(options: [.willSet]) { event in
      _ = model.a
      events.value.append("\(event.kind)")
    }
    let initial = events.value.count
    model.a = 1
    #expect(fired.value == 1)
    #expect(events.value.count == initial + 1, "the write's willSet")
    withExtendedLifetime(token) {}
  }

  /// Re-armed from a `willSet` callback, a registration ignores that write's `didSet` once
  /// (per `armedDuringWillSetOn`), as the oracle does. A second link to `a`, adopted from a
  /// released value by one version of the handover, delivered that `didSet` twice: the
  /// first cleared the flag, the second fired it.
  @Test(arguments: [false, true])
  func aRegistrationReArmedInWillSetIsNotFiredByThatWritesDidSetThroughADuplicate(
    othersListen: Bool
  ) {
    let oracle = OracleModel()
    let oracleFired = Box(0)
    Observation.withObservationTracking {
      _ = oracle.a
    } onChange: {
      Observation.withObservationTracking {
        _ = oracle.a
        _ = oracle.sum
      } onChange: {
        oracleFired.value += 1
      }
    }
    oracle.a = 1
    #expect(oracleFired.value == 0)

    #expect(
      callsOfARegistrationReArmedInWillSet(othersListen: othersListen, release: .onTheWritingThread)
        == [oracleFired.value, 1], "re-armed during the write: fires at the next one")
  }

  /// `.deinit`: Y is read only through the value and goes before X; X is also read directly
  /// and reported as it goes. Y must be reported when the value goes (a derived value used to
  /// keep only the latest deallocation pass of the objects it read, X's here).
  @Test func anObjectReadOnlyThroughTheValueIsReportedAfterAnotherWasReportedDirectly() {
    var x: HandModel? = HandModel()
    var y: HandModel? = HandModel()
    var value: Computed<Int>? = Computed { [weak x, weak y] in (x?.a ?? 0) + (y?.a ?? 0) }
    let log = deinitEventLog {
      _ = x!.b
      _ = value!.value
    }
    y = nil
    #expect(log.value.isEmpty)
    x = nil
    #expect(log.value == ["deinit"], "x, read directly")
    value = nil
    #expect(log.value == ["deinit", "deinit"], "y, read only through the value")
  }

  /// `.deinit`: X, read directly and through the value, is reported as it goes; another object
  /// Z goes and is reported; the value's release must not report X again (a registration used
  /// to keep only the latest deallocation pass it reported, Z's here).
  @Test func anObjectReportedDirectlyIsNotReportedAgainWhenTheValueGoes() {
    var x: HandModel? = HandModel()
    var z: HandModel? = HandModel()
    var value: Computed<Int>? = Computed { [weak x] in x?.a ?? 0 }
    let log = deinitEventLog {
      _ = x!.b
      _ = z!.b
      _ = value!.value
    }
    x = nil
    #expect(log.value == ["deinit"], "x")
    z = nil
    #expect(log.value == ["deinit", "deinit"], "z")
    value = nil
    #expect(log.value == ["deinit", "deinit"], "no object went unreported")
  }

  /// A long-lived value whose inputs keep going keeps a bounded record of their deallocation
  /// passes, and a registration over it still hears, once, of those it did not see go.
  @Test func aValueKeepsABoundedRecordOfTheObjectsThatWent() {
    var models: [HandModel]? = (0..<20).map { _ in HandModel() }
    let weakModels = models!.map { WeakHandModel($0) }
    var value: Computed<Int>? = Computed { weakModels.reduce(0) { $0 + ($1.model?.a ?? 0) } }
    let log = deinitEventLog {
      _ = value!.value
    }
    while !(models?.isEmpty ?? true) { models?.removeLast() }  // one deallocation pass each
    #expect(log.value.isEmpty, "read only through the value")
    #expect(deallocationPassCount(of: value!) == deallocationPassCapacity)
    value = nil
    #expect(log.value == ["deinit"])
  }

  /// Armed during a write of `a` on this thread (between its `willSet` and `didSet`, inside
  /// `withMutation`), a registration reading `a` is not fired by that write's `didSet` —
  /// until an unrelated value it read (over `b`) is released: taking over makes every link of
  /// the registration, its direct read of `a` too, accept a slot's `didSet`.
  @Test(arguments: [false, true])
  func releasingAnUnrelatedValueDoesNotMakeAnAnnouncedWriteFireTheRegistration(release: Bool) {
    let oracle = ManualOracleWithDoubledB()
    let oracleFired = Box(0)
    Observation.withObservationTracking {
      _ = oracle.a
    } onChange: {
    }  // announces the write
    oracle.registrar.withMutation(of: oracle, keyPath: \.a) {
      Observation.withObservationTracking {
        _ = oracle.a
        _ = oracle.doubledB
      } onChange: {
        oracleFired.value += 1
      }
    }
    #expect(oracleFired.value == 0)

    let model = HandModel()
    var doubledB: Computed<Int>? = Computed { model.b * 2 }
    let fired = Box(0)
    ReactiveState.withObservationTracking {
      _ = model.a
    } onChange: {
    }  // announces the write
    model.registrar.withMutation(of: model, keyPath: \.a) {
      ReactiveState.withObservationTracking {
        _ = model.a
        _ = doubledB?.value
      } onChange: {
        fired.value += 1
      }
      if release { doubledB = nil }
    }
    #expect(fired.value == oracleFired.value, "the write was announced before it was armed")
    model.a = 5
    #expect(fired.value == 1)
  }

  /// The event form of the test above. An event registration armed inside `a`'s write, over
  /// `a`, adopts that write and gets its `didSet` once (see
  /// `theDidSetOfAWriteInFlightComesAfterTheStoreWhereverTheValueGoes`). Releasing an
  /// unrelated value meanwhile, whose inputs the registration then links in the value's place,
  /// changes nothing: still one `didSet`, and none from the next write (it has ended).
  @Test(arguments: [false, true])
  func releasingAnUnrelatedValueDuringTheWriteLeavesAnEventRegistrationsDidSet(release: Bool) {
    let model = HandModel()
    var doubledB: Computed<Int>? = Computed { model.b * 2 }
    let seen = Box<[String]>([])
    ReactiveState.withObservationTracking {
      _ = model.a
    } onChange: {
    }  // announces the write
    model.registrar.withMutation(of: model, keyPath: \.a) {
      ReactiveState.withObservationTracking(options: [.didSet]) {
        _ = model.a
        _ = doubledB?.value
      } onChange: { event in
        seen.value.append("\(event.kind) \(event.matches(\HandModel.a) ? "a" : "?")")
      }
      if release { doubledB = nil }
    }
    #expect(seen.value == ["didSet a"])
    model.a = 5
    model.b = 5
    #expect(seen.value == ["didSet a"])
  }

  /// Where the value read while a write was in flight goes: kept, released on the writing
  /// thread, or released on another thread while the write waits.
  enum Release: CaseIterable { case never, onTheWritingThread, onAnotherThread }

  static func release(_ holder: LockedBox<Computed<Int>?>, _ how: Release) {
    switch how {
    case .never: break
    case .onTheWritingThread: holder.value = nil
    case .onAnotherThread:
      let done = DispatchSemaphore(value: 0)
      Thread {
        holder.value = nil
        done.signal()
      }.start()
      done.wait()
    }
  }

  /// Re-armed from a `willSet` callback, reading a fresh value that reads the written
  /// property mid-write: not fired by that write, wherever the value goes meanwhile.
  @Test(arguments: Release.allCases)
  func aRegistrationReArmedInWillSetWaitsForTheNextWriteWhereverTheValueGoes(_ how: Release) {
    #expect(callsOfARegistrationReArmedInWillSet(othersListen: false, release: how) == [0, 1])
  }

  /// A registration re-armed from the `willSet` callback of `a = 1` reads `a` and a value of
  /// it (another registration of `a` armed after it when `othersListen`), then the value goes
  /// as `release` says: its call count after that write, and after `a = 2`.
  private func callsOfARegistrationReArmedInWillSet(othersListen: Bool, release: Release)
    -> [Int]
  {
    let model = HandModel()
    let holder = LockedBox<Computed<Int>?>(Computed { model.a + model.b })
    let fired = LockedBox(0)
    ReactiveState.withObservationTracking {
      _ = model.a
    } onChange: {
      ReactiveState.withObservationTracking {
        _ = model.a
        _ = holder.value?.value
      } onChange: {
        fired.value += 1
      }
      if othersListen {
        ReactiveState.withObservationTracking {
          _ = model.a
          _ = model.c
        } onChange: {
        }
      }
      Self.release(holder, release)
    }
    return [1, 2].map { value in
      model.a = value
      return fired.value
    }
  }

  /// An event registration armed from a `willSet` callback over a fresh value of the written
  /// property gets that write's `.didSet` after the store, wherever the value goes meanwhile.
  /// Released during the write, the value hands the registration links to its inputs that
  /// take the `didSet` as the value would have. Before, released on the writing thread, the
  /// `didSet` was lost (the registration takes no property's `didSet` it did not hear
  /// announced, through a direct link), and released on another thread it came at once,
  /// before the store.
  @Test(arguments: Release.allCases)
  func theDidSetOfAWriteInFlightComesAfterTheStoreWhereverTheValueGoes(_ how: Release) {
    let model = HandModel()
    let holder = LockedBox<Computed<Int>?>(Computed { model.a + model.b })
    let seen = LockedBox<[Int]>([])
    ReactiveState.withObservationTracking {
      _ = model.a
    } onChange: {
      ReactiveState.withObservationTracking(options: [.didSet]) {
        _ = holder.value?.value
      } onChange: { _ in
        seen.value.append(model.a)
      }
      Self.release(holder, how)
    }
    model.a = 1
    #expect(seen.value == [1], "one didSet, after the store")
  }
}

final class ManualOracleWithDoubledB: Observation.Observable, @unchecked Sendable {
  let registrar = Observation.ObservationRegistrar()
  private var _a = 0
  private var _b = 0
  var a: Int {
    get {
      registrar.access(self, keyPath: \.a)
      return _a
    }
    set { registrar.withMutation(of: self, keyPath: \.a) { _a = newValue } }
  }
  var b: Int {
    get {
      registrar.access(self, keyPath: \.b)
      return _b
    }
    set { registrar.withMutation(of: self, keyPath: \.b) { _b = newValue } }
  }
  var doubledB: Int { b * 2 }
}
