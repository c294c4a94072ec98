import Observation
import ReactiveState
import Testing

/// Behaviour of the registrar, its property slots and one-shot tracking that mutation testing
/// of `Sources/ReactiveState/Tracking/` and `Sources/ReactiveState/Observing/` (round 2) found
/// unpinned: each test fails with a mutant of that code the rest of the suite let pass.
@Suite struct MutationFindingsRegistrarTests {
  /// Nine subscript properties, on the toolchain's registrar: the oracle for
  /// ``WideModelTests/Wide`` at the size where lookups switch to the hash index.
  final class OracleWide: Observation.Observable, @unchecked Sendable {
    private let registrar = Observation.ObservationRegistrar()
    private var storage = [Int](repeating: 0, count: 16)
    subscript(index: Int) -> Int {
      get {
        registrar.access(self, keyPath: \.[index])
        return storage[index]
      }
      set { registrar.withMutation(of: self, keyPath: \.[index]) { storage[index] = newValue } }
    }
  }

  /// Pins that a registrar whose ninth property was just observed (the first to go into the
  /// hash index) still finds each of the eight before it: a write of one of them reaches its
  /// observer, as with the toolchain.
  @Test func theFirstEightPropertiesAreFoundOnceTheNinthIsObserved() {
    let ours = WideModelTests.Wide()
    let theirs = OracleWide()
    let fired = Box([[Int](repeating: 0, count: 9), [Int](repeating: 0, count: 9)])
    for index in 0..<9 {
      ReactiveState.withObservationTracking {
        _ = ours[index]
      } onChange: {
        fired.value[0][index] += 1
      }
      Observation.withObservationTracking {
        _ = theirs[index]
      } onChange: {
        fired.value[1][index] += 1
      }
    }
    ours[3] = 1
    theirs[3] = 1
    #expect(fired.value[1] == [0, 0, 0, 1, 0, 0, 0, 0, 0], "the oracle")
    #expect(fired.value[0] == fired.value[1])
  }

  /// Pins that an observer parked in a property's slot runs at a write whose `didSet` walk
  /// finds, under the graph lock, that another walk of the property completed in this wave
  /// since its lock-free check (forced here by completing one from the engine's hook).
  @Test func aParkedObserverRunsWhenItsWriteFindsTheWalkDoneUnderTheLock() {
    let model = HandModel()
    let runs = Box<[Int]>([])
    let parked = observe { runs.value.append(model.a) }
    let waiting = observe(scheduler: ManualScheduler()) { _ = model.a + model.b }
    let thread = currentThreadID()
    let entered = Box(false)
    pauseDidSetWalksBeforeTheirLock {
      guard currentThreadID() == thread, !entered.value else { return }
      entered.value = true
      model.a = 10  // a complete `didSet` walk of `a`: the scheduled observer waits
    }
    model.a = 1
    pauseDidSetWalksBeforeTheirLock(nil)
    #expect(entered.value)
    #expect(runs.value.last == 10)
    model.a = 3
    #expect(runs.value.last == 3)
    #expect(model.aHasParkedContinuousObserver)
    withExtendedLifetime((parked, waiting)) {}
  }

  /// Pins that one-shot registrations of one property fire in the order they were armed: a
  /// registration over a property that an earlier one already listens to links into the
  /// graph behind it instead of parking in the slot, whose registration is called first.
  @Test func oneShotsOfAPropertyFireInTheOrderTheyWereArmed() {
    let model = HandModel()
    let order = Box<[String]>([])
    ReactiveState.withObservationTracking {
      _ = model.a + model.b
    } onChange: {
      order.value.append("first")
    }
    ReactiveState.withObservationTracking {
      _ = model.a
    } onChange: {
      order.value.append("second")
    }
    model.a = 1
    #expect(order.value == ["first", "second"])
  }

  /// Pins that a derived value remembers the deallocations of the last 8 objects it read, not
  /// of the last 8 properties: an object that went unreported before four others (each read
  /// through two properties, and reported directly) is still reported when the value goes.
  @Test func aValueCountsEachObjectThatWentOnceHoweverManyPropertiesItRead() {
    var unreported: HandModel? = HandModel()
    var others: [HandModel]? = (0..<4).map { _ in HandModel() }
    let weakModels = [WeakHandModel(unreported)] + others!.map { WeakHandModel($0) }
    var value: Computed<Int>? = Computed {
      weakModels.reduce(0) { $0 + ($1.model?.a ?? 0) + ($1.model?.b ?? 0) }
    }
    let log = deinitEventLog {
      _ = value!.value
      for model in others! { _ = model.c }
    }
    unreported = nil
    #expect(log.value.isEmpty, "read only through the value")
    while !(others?.isEmpty ?? true) { others?.removeLast() }  // one deallocation pass each
    #expect(log.value.count == 4, "read directly")
    value = nil
    #expect(log.value.count == 5, "the first object, which the value still remembers")
  }

  /// Pins that a one-shot over two objects stays armed when one of them is deallocated: the
  /// other's next change still calls it, as with the toolchain (a pending registration is
  /// released uncalled only once every object it observes is gone).
  @Test(arguments: Engine.allCases)
  func aOneShotOverTwoObjectsOutlivesOneOfThem(engine: Engine) {
    var first: (any ScriptModel)? = engine.makeModel()
    let second = engine.makeModel()
    let fired = Box(0)
    engine.track {
      _ = first!.a
      _ = second.a
    } onChange: {
      fired.value += 1
    }
    first = nil
    second.a = 1
    #expect(fired.value == 1)
  }

  /// Pins that a derived value's full record of deallocation passes forgets the oldest pass
  /// when an older one arrives (merged from an inner value that departed): passes are kept in
  /// order, not in arrival order, so the newest are the ones remembered.
  @Test func aFullRecordOfDeallocationPassesForgetsTheOldest() {
    let newest = Array(UInt64(2)...9)
    #expect(deallocationPassesKept(afterInserting: newest + [1]) == newest)
    #expect(deallocationPassesKept(afterInserting: newest + [10]) == Array(3...10))
  }
}
