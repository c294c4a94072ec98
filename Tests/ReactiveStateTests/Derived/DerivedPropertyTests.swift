import Dispatch
import ReactiveState
import ReactiveStateMacrosFree
import Testing

/// A summary without equality: every recomputation of a property of this type is a change.
struct CartSummary {
  let count: Int
}

/// A cart with `@Derived` properties; counts its total's computations (from any thread).
final class DerivedCart: TrackedObservable, @unchecked Sendable {
  let observationRegistrar = ReactiveState.ObservationRegistrar()
  @Tracked var prices: [Int] = []
  @Tracked var note = ""
  let computations = AtomicCounter()
  @Derived({ (cart: DerivedCart) in
    cart.computations.increment()
    return cart.prices.reduce(0, +)
  })
  var total: Int
  @Derived({ (cart: DerivedCart) in CartSummary(count: cart.prices.count) })
  var summary: CartSummary
  @Derived(isEqual: { $0 / 10 == $1 / 10 }, { (cart: DerivedCart) in cart.prices.reduce(0, +) })
  var totalInTens: Int
}

/// A model that reports its total from its deinitialiser.
final class DeinitReportingCart: TrackedObservable, @unchecked Sendable {
  let observationRegistrar = ReactiveState.ObservationRegistrar()
  @Tracked var prices: [Int] = []
  let report: LockedBox<[Int]>
  init(report: LockedBox<[Int]>) { self.report = report }
  deinit { report.value.append(total) }
  @Derived({ (cart: DeinitReportingCart) in cart.prices.reduce(0, +) })
  var total: Int
}

/// A main-actor model: the derivation reads main-actor state.
@MainActor final class MainActorDerivedCart: TrackedObservable {
  let observationRegistrar = ReactiveState.ObservationRegistrar()
  @Tracked var prices: [Int] = []
  @Derived({ (cart: MainActorDerivedCart) in cart.prices.reduce(0, +) })
  var total: Int
}

/// A model whose derived value reads itself through its own `Computed`.
final class SelfReadingModel: @unchecked Sendable {
  @Derived({ (model: SelfReadingModel) in ((try? model.loopValue().get()) ?? 0) + 1 })
  var loop: Int
  /// `$loop` (a method with a declared type: the derivation cannot name `$loop` itself).
  func loopValue() -> Computed<Int> { $loop }
}

/// A model released by one thread while another brings its derived value up to date. The
/// derivation reads `source` (written by the other thread) and calls `hooks.computing` on
/// every computation after the first; the deinitialiser calls `hooks.deinitialising`.
final class ReleasedWhileComputingModel: @unchecked Sendable {
  let source: HandModel
  let hooks: GateHooks
  let computations = AtomicCounter()
  init(source: HandModel, hooks: GateHooks) {
    self.source = source
    self.hooks = hooks
  }
  deinit { hooks.deinitialising() }
  @Derived({ (model: ReleasedWhileComputingModel) in
    model.computations.increment()
    if model.computations.value > 1 { model.hooks.computing() }
    return model.source.a * 2
  })
  var doubled: Int
}

/// ``ReleasedWhileComputingModel`` with `subtotal`, which reads `source.a` and calls
/// `hooks.computing` after its first computation, and two values over it: `total`, a
/// `@Derived` of the model (its computations hold the model too), and `outer`, a `Computed`
/// the model owns that reads `source.b` first, then `subtotal` (through `$subtotal`, so its
/// computations do not hold the model).
final class NestedReleasedWhileComputingModel: @unchecked Sendable {
  let source: HandModel
  let hooks: GateHooks
  let subtotalComputations = AtomicCounter()
  private(set) var outer: Computed<Int>!
  init(source: HandModel, hooks: GateHooks) {
    self.source = source
    self.hooks = hooks
    let subtotal = $subtotal
    outer = Computed("outer") { source.b + subtotal.value + 1 }
  }
  @Derived({ (model: NestedReleasedWhileComputingModel) in
    model.subtotalComputations.increment()
    if model.subtotalComputations.value > 1 { model.hooks.computing() }
    return model.source.a * 2
  })
  var subtotal: Int
  @Derived({ (model: NestedReleasedWhileComputingModel) in model.subtotal + 1 })
  var total: Int
}

/// Callbacks of a ``ReleasedWhileComputingModel`` (either may block its thread until the test lets it go).
final class GateHooks: @unchecked Sendable {
  var computing: () -> Void = {}
  var deinitialising: () -> Void = {}
}

/// A write on another thread whose derived computation pauses (the gated models' second and
/// later computations) until the test resumes it.
final class PausedComputation: @unchecked Sendable {
  let hooks = GateHooks()
  private let computing = DispatchSemaphore(value: 0)
  private let resumed = DispatchSemaphore(value: 0)
  private let writeDone = DispatchSemaphore(value: 0)

  init() {
    hooks.computing = { [computing, resumed] in
      computing.signal()
      _ = waitBriefly(resumed)
    }
  }

  /// Runs `write` on another thread (a write there runs the observer there).
  func write(_ write: @escaping @Sendable () -> Void) {
    DispatchQueue.global().async { [writeDone] in
      write()
      writeDone.signal()
    }
  }

  /// Whether the computation started (within ten seconds).
  func waitUntilComputing() -> Bool { waitBriefly(computing) }

  /// Lets the computation go on; whether the write then finished (within ten seconds).
  func resumeThenWaitForTheWrite() -> Bool {
    resumed.signal()
    return waitBriefly(writeDone)
  }

  /// The model's last reference goes while another thread's write (of `source`'s `b` then `a`,
  /// in one transaction) has an observer computing one of its derived values, paused here:
  /// the write, and the model's release, must finish and free the model; the observer, which
  /// reads the model weakly through `read`, must have seen 1 and then no model.
  func expectReleaseMidComputationFreesTheModel<Model: AnyObject & Sendable>(
    _ model: inout Model?, source: HandModel, read: @escaping @Sendable (Model?) -> Int?
  ) {
    weak let weakModel = model
    let seen = LockedBox<[Int?]>([])
    let token = observe { [weak model] in seen.value.append(read(model)) }
    write {
      withTransaction {
        source.b = 1
        source.a = 1
      }
    }
    #expect(waitUntilComputing())
    model = nil
    #expect(resumeThenWaitForTheWrite(), "the write, and the model's release, finished")
    #expect(weakModel == nil)
    #expect(seen.value == [1, nil])
    token.cancel()
  }
}

/// Waits for `semaphore`, at most ten seconds (a hang fails the test instead of the run).
private func waitBriefly(_ semaphore: DispatchSemaphore) -> Bool {
  semaphore.wait(timeout: .now() + 10) == .success
}

/// `@Derived`: a class's cached computed property (a `Computed` of the instance), and the
/// weakly held object behind `Computed(of:)`.
@Suite struct DerivedPropertyTests {
  @Test func theDerivationRunsOnFirstReadAndAgainOnlyAfterAnInputChanged() {
    let cart = DerivedCart()
    cart.prices = [1, 2]
    #expect(cart.computations.value == 0, "nothing is computed before the property is read")
    #expect(cart.total == 3)
    #expect(cart.total == 3)
    #expect(cart.computations.value == 1)
    cart.note = "not an input"
    #expect(cart.total == 3)
    #expect(cart.computations.value == 1)
    cart.prices.append(4)
    #expect(cart.computations.value == 1, "a change only marks it stale")
    #expect(cart.total == 7)
    #expect(cart.computations.value == 2)
  }

  @Test func observersRunWhenTheResultChangesUnderThePropertysEqualityRule() {
    let cart = DerivedCart()
    let totals = Box<[Int]>([])
    let summaries = Box<[Int]>([])
    let tens = Box<[Int]>([])
    let tokens = [
      observe { totals.value.append(cart.total) },
      observe { summaries.value.append(cart.summary.count) },
      observe { tens.value.append(cart.totalInTens) },
    ]
    cart.prices = [0]  // the total stays 0; one more price
    cart.prices = [5]
    cart.prices = [15]
    cart.note = "unrelated"
    #expect(totals.value == [0, 5, 15], "Equatable: cut off by ==")
    #expect(summaries.value == [0, 1, 1, 1], "no equality: every recomputation is a change")
    #expect(tens.value == [0, 15], "isEqual: 0 and 5 are the same ten")
    for token in tokens { token.cancel() }
  }

  @MainActor @Test func aMainActorModelsDerivationReadsItsState() {
    let cart = MainActorDerivedCart()
    let seen = Box<[Int]>([])
    let token = observe { MainActor.assumeIsolated { seen.value.append(cart.total) } }
    cart.prices.append(2)
    cart.prices.append(3)
    #expect(seen.value == [0, 2, 5])
    token.cancel()
  }

  @Test func aDerivationReadingItselfIsReportedByThePropertysDeclaration() {
    let model = SelfReadingModel()
    let reported = ObservationDiagnostics.capture { #expect(model.loop == 1) }
    let declaration =
      "@Derived SelfReadingModel.Int at ReactiveStateTests/DerivedPropertyTests.swift:"
    #expect(
      reported.contains {
        $0.message.hasPrefix(declaration) && $0.message.contains(" reads itself")
      })
  }

  @Test func theModelAndItsDerivedValueAreFreedWhileAnObserverThatReadThemLives() {
    weak var weakCart: DerivedCart?
    let seen = Box<[Int?]>([])
    var token: ObservationToken?
    do {
      let cart = DerivedCart()
      weakCart = cart
      cart.prices = [2]
      token = observe { [weak cart] in seen.value.append(cart?.total) }
      cart.prices.append(3)
    }
    #expect(weakCart == nil, "the derived value holds its model weakly: no cycle")
    #expect(seen.value == [2, 5])
    token?.cancel()
  }

  @Test func aDerivedPropertysComputedGoesWithItsObject() {
    weak var weakCart: DerivedCart?
    weak var weakTotal: Computed<Int>?
    do {
      let cart = DerivedCart()
      cart.prices = [1, 2]
      #expect(cart.total == 3)
      weakCart = cart
      weakTotal = cart.$total
      #expect(weakTotal != nil)
    }
    #expect(weakCart == nil)
    #expect(weakTotal == nil, "the storage released its Computed")
  }

  @Test func theFirstAccessFromManyThreadsCreatesOneValue() {
    for _ in 0..<50 {
      let cart = DerivedCart()
      cart.prices = [1, 2, 3]
      let correct = AtomicCounter()
      DispatchQueue.concurrentPerform(iterations: 8) { _ in
        if cart.total == 6 { correct.increment() }
      }
      #expect(correct.value == 8)
      #expect(cart.computations.value == 1, "one value, computed once")
    }
  }

  /// The model's last reference goes away while another thread computes its derived value
  /// (an observer that holds it weakly, run by a write of an input on that thread). The
  /// computation holds the model until it has released the value's lock, so the model is
  /// freed on that thread afterwards. With `Computed { [unowned self] … }` the computation
  /// dropped the last reference under the lock, and the model's deinitialiser waited for it
  /// forever.
  @Test func aModelReleasedDuringAComputationIsFreedWhenTheComputationEnds() {
    let source = HandModel()
    let paused = PausedComputation()
    var model: ReleasedWhileComputingModel? = ReleasedWhileComputingModel(
      source: source, hooks: paused.hooks)
    weak let weakModel = model
    let seen = LockedBox<[Int?]>([])
    let token = observe { [weak model] in seen.value.append(model?.doubled) }
    paused.write { source.a = 1 }
    #expect(paused.waitUntilComputing())
    model = nil
    #expect(weakModel != nil, "the computation holds the model")
    #expect(paused.resumeThenWaitForTheWrite(), "the write, and the model's release, finished")
    #expect(weakModel == nil)
    #expect(seen.value == [0, nil])
    token.cancel()
  }

  /// As above, with the computing value read by another value of the model, which this
  /// thread holds locked: the model is freed only once that value's lock is released too,
  /// since the model's deinitialiser takes both locks. The outer value holds its lock while
  /// it checks its input (`total`: only `source.a` changed), or while its own derivation
  /// reads the input (`outer`: `source.b`, which it reads first, changed too).
  @Test(arguments: [false, true])
  func aModelReleasedDuringANestedComputationIsFreedAfterTheOutermostOne(readByOuter: Bool) {
    let source = HandModel()
    let paused = PausedComputation()
    var model: NestedReleasedWhileComputingModel? = NestedReleasedWhileComputingModel(
      source: source, hooks: paused.hooks)
    paused.expectReleaseMidComputationFreesTheModel(&model, source: source) { model in
      readByOuter ? model?.outer.value : model?.total
    }
  }

  /// The model starts deinitialising before another thread's observer brings its derived
  /// value up to date: the derivation does not run (the model is gone), and the observer
  /// finds no model. With `[unowned self]` the derivation touched the deinitialising model,
  /// which traps.
  @Test func aComputationAfterTheModelBeganToDeinitialiseSkipsTheDerivation() {
    let source = HandModel()
    let hooks = GateHooks()
    let deinitialising = DispatchSemaphore(value: 0)
    let writerDone = DispatchSemaphore(value: 0)
    hooks.deinitialising = {
      deinitialising.signal()
      _ = waitBriefly(writerDone)
    }
    var model: ReleasedWhileComputingModel? = ReleasedWhileComputingModel(
      source: source, hooks: hooks)
    let computations = model!.computations
    let seen = LockedBox<[Int?]>([])
    let token = observe { [weak model] in seen.value.append(model?.doubled) }
    DispatchQueue.global().async {
      _ = waitBriefly(deinitialising)
      source.a = 1
      writerDone.signal()
    }
    model = nil
    #expect(computations.value == 1, "no computation for the released model")
    #expect(seen.value == [0, nil])
    token.cancel()
  }

  @Test func theDeinitialiserReadsTheCurrentValueWhetherCachedStaleOrNeverRead() {
    let report = LockedBox<[Int]>([])
    do {
      let cart = DeinitReportingCart(report: report)
      cart.prices = [1, 2]
      #expect(cart.total == 3)
    }
    do {
      let cart = DeinitReportingCart(report: report)
      cart.prices = [1, 2]
      #expect(cart.total == 3)
      cart.prices.append(4)  // stale: the deinitialiser computes it
    }
    do {
      let cart = DeinitReportingCart(report: report)
      cart.prices = [5]  // never read: created and computed by the deinitialiser
    }
    #expect(report.value == [3, 7, 5])
  }

  /// Three objects: the third and later join the node's list of held objects.
  @Test func aNodeKeepsEveryObjectItHoldsUntilItsLockIsReleased() {
    weak var first: HandModel?
    weak var second: HandModel?
    weak var third: HandModel?
    var release: () -> Void = {}
    do {
      let models = [HandModel(), HandModel(), HandModel()]
      first = models[0]
      second = models[1]
      third = models[2]
      release = holdInLockedDerivedNode(models + [models[0]])
    }
    #expect(first != nil && second != nil && third != nil)
    release()
    #expect(first == nil && second == nil && third == nil)
  }

  @Test func aComputedOfAReleasedObjectReportsItByName() {
    var source: HandModel? = HandModel()
    let doubled = Computed("doubled", of: source!) { $0.a * 2 }
    #expect(doubled.value == 0)
    source!.a = 2
    #expect(doubled.value == 4)
    source = nil
    #expect(doubled.value == 4, "nothing it read changed")
    let gone = Computed("orphan", of: HandModel()) { $0.a }
    #expect(throws: DerivedObjectReleased.self) { try gone.get() }
    do {
      _ = try gone.get()
    } catch {
      #expect("\(error)".contains("orphan derives from an object that was released"))
    }
  }
}
