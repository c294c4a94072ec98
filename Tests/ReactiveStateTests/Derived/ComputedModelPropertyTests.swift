import Observation
import ReactiveState
import ReactiveStateMacrosFree
import Testing

/// A model whose computed property is backed by a `Computed` in a lazy stored property that
/// captures the model unowned (the form before `@Derived`, which `DerivedPropertyTests`
/// covers). Main-actor isolated, so the lazy initialisation is never raced, and the model is
/// never released during a computation on another thread.
@MainActor final class TotalledCart: TrackedObservable {
  let observationRegistrar = ReactiveState.ObservationRegistrar()
  @Tracked var prices: [Int] = []
  @Tracked var note = ""
  /// How many times the derivation ran.
  var computations = 0
  private lazy var totalCache = Computed("total", isEqual: ==) { [unowned self] in
    computations += 1
    return prices.reduce(0, +)
  }
  var total: Int { totalCache.value }
}

/// The same model for the toolchain's Observation, which has no memoized property: `total`
/// is a plain computed property.
@Observable final class OracleTotalledCart {
  var prices: [Int] = []
  var total: Int { prices.reduce(0, +) }
}

/// `Computed` as the cached backing of a model's computed property: cached until an input
/// changes, observed like a stored property but cut off on equal results, and freed with
/// its model.
@MainActor @Suite struct ComputedModelPropertyTests {
  @Test func theComputedPropertyIsLazyAndCachedUntilAnInputChanges() {
    let cart = TotalledCart()
    cart.prices = [1, 2]
    #expect(cart.computations == 0, "nothing is computed before the property is read")
    #expect(cart.total == 3)
    #expect(cart.total == 3)
    #expect(cart.computations == 1)
    cart.note = "not an input"
    #expect(cart.total == 3)
    #expect(cart.computations == 1)
    cart.prices.append(4)
    #expect(cart.computations == 1, "a change only marks it stale")
    #expect(cart.total == 7)
    #expect(cart.computations == 2)
  }

  /// Deliberate difference: Observation's observers of a computed property fire for every
  /// change of what it reads; ours run only when the cached result changes.
  @Test func observersOfTheComputedPropertyRunOnlyWhenItsResultChanges() {
    let cart = TotalledCart()
    let seen = Box<[Int]>([])
    let token = observe { MainActor.assumeIsolated { seen.value.append(cart.total) } }
    cart.prices.append(0)  // the total stays 0
    cart.note = "unrelated"
    cart.prices.append(5)
    #expect(seen.value == [0, 5])
    #expect(cart.computations == 3, "computed once per change of its input")
    token.cancel()

    let oracle = OracleTotalledCart()
    let fired = Box(false)
    Observation.withObservationTracking({ _ = oracle.total }, onChange: { fired.value = true })
    oracle.prices.append(0)
    #expect(fired.value, "Observation fires although the total did not change")
  }

  @Test func theModelAndItsComputedValueAreFreedWhileAnObserverThatReadThemLives() {
    weak var weakCart: TotalledCart?
    let seen = Box<[Int?]>([])
    var token: ObservationToken?
    do {
      let cart = TotalledCart()
      weakCart = cart
      cart.prices = [2]
      token = observe { [weak cart] in
        MainActor.assumeIsolated { seen.value.append(cart?.total) }
      }
      cart.prices.append(3)
    }
    #expect(weakCart == nil, "the lazy Computed captures its model unowned: no cycle")
    #expect(seen.value == [2, 5])
    token?.cancel()
    #expect(seen.value == [2, 5])
  }
}
