import Foundation
import ReactiveState
import Testing

/// Memoized derived values: laziness, caching, glitch-freedom, cut-off, dynamic
/// dependencies, errors, cycles, lifetime and threads.
@Suite struct ComputedTests {
  @Test func computesLazilyAndCaches() {
    let model = HandModel()
    let computations = Box(0)
    let doubled = Computed {
      computations.value += 1
      return model.a * 2
    }
    #expect(computations.value == 0, "nothing is computed without a reader")
    #expect(doubled.value == 0)
    #expect(doubled.value == 0)
    #expect(computations.value == 1, "the second read is cached")
    model.a = 2
    #expect(computations.value == 1, "a change only marks it stale")
    #expect(doubled.value == 4)
    #expect(computations.value == 2)
    model.b = 1  // not read
    #expect(doubled.value == 4)
    #expect(computations.value == 2)
  }

  /// Read without observers, a diamond of derived values keeps no upstream edges and
  /// validates by version; an observer arriving later subscribes the whole diamond (the
  /// cached values stay valid) and sees every later change.
  @Test func unobservedValuesValidateByVersionAndSubscribeWhenObserved() {
    let model = HandModel()
    let diamond = CountedDiamond(model) { $0 + $1 }
    let (counts, bottom) = (diamond.counts, diamond.bottom)
    #expect(bottom.value == 1)
    #expect(bottom.value == 1)
    #expect(counts.value == [1, 1, 1], "cached without observers")
    model.b = 5  // not an input
    #expect(bottom.value == 1)
    #expect(counts.value == [1, 1, 1])
    model.a = 1
    #expect(counts.value == [1, 1, 1], "nothing is pushed to unobserved values")
    #expect(bottom.value == 12)
    #expect(counts.value == [2, 2, 2])

    let seen = Box<[Int]>([])
    let token = observe { seen.value.append(bottom.value) }
    #expect(counts.value == [2, 2, 2], "subscribing keeps the valid cached values")
    model.a = 2
    model.a = 3
    #expect(seen.value == [12, 23, 34])
    #expect(counts.value == [4, 4, 4])
    withExtendedLifetime(token) {}
  }

  @Test func diamondIsGlitchFreeAndEachNodeComputesOncePerChange() {
    let model = HandModel()
    let diamond = CountedDiamond(model) { "\($0)/\($1)" }
    let (counts, bottom) = (diamond.counts, diamond.bottom)
    let seen = Box<[String]>([])
    let token = observe { seen.value.append(bottom.value) }
    model.a = 1
    model.a = 2
    #expect(seen.value == ["1/0", "2/10", "3/20"], "never a mix such as 2/0")
    #expect(counts.value == [3, 3, 3], "each node once per change")
    withExtendedLifetime(token) {}
  }

  @Test func equalityCutOffStopsPropagation() {
    let model = HandModel()
    let parityComputations = Box(0)
    let parity = Computed {
      parityComputations.value += 1
      return model.a % 2
    }
    let downstreamComputations = Box(0)
    let label = Computed {
      downstreamComputations.value += 1
      return parity.value == 0 ? "even" : "odd"
    }
    let runs = Box(0)
    let token = observe {
      runs.value += 1
      _ = label.value
    }
    model.a = 2  // parity unchanged
    model.a = 4
    #expect(parityComputations.value == 3)
    #expect(downstreamComputations.value == 1, "cut off at parity")
    #expect(runs.value == 1, "the observer did not re-run")
    model.a = 5
    #expect(runs.value == 2)
    #expect(downstreamComputations.value == 2)
    withExtendedLifetime(token) {}
  }

  @Test func customEqualityCutsOffToo() {
    let model = HandModel()
    let rounded = Computed("rounded", isEqual: { abs($0 - $1) < 10 }, { Double(model.a) })
    let runs = Box(0)
    let token = observe {
      runs.value += 1
      _ = rounded.value
    }
    model.a = 5
    #expect(runs.value == 1)
    model.a = 50
    #expect(runs.value == 2)
    withExtendedLifetime(token) {}
  }

  @Test func dependenciesAreDynamic() {
    let model = HandModel()
    let computations = Box(0)
    let pick = Computed {
      computations.value += 1
      return model.a == 0 ? model.b : model.c
    }
    _ = pick.value
    model.a = 1
    _ = pick.value
    let before = computations.value
    model.b = 5  // no longer read
    _ = pick.value
    #expect(computations.value == before)
    model.c = 7
    #expect(pick.value == 7)
  }

  /// A derived value keeps its first four inputs next to its lock and moves to a buffer of
  /// its own when it reads more. Growing past four and shrinking again, observed and
  /// unobserved, every computation must see exactly the inputs it read (AddressSanitizer in
  /// CI checks the memory side), and the value must be released when dropped.
  @Test func inputCountsCrossingTheInlineCapacityKeepExactDependencies() {
    let counter = HandModel()
    let cells = (0..<12).map { index in
      let cell = HandModel()
      cell.a = index + 1
      return cell
    }
    let computations = Box(0)
    var sum: Computed<Int>? = Computed {
      computations.value += 1
      return cells.prefix(counter.a).reduce(0) { $0 + $1.a }
    }
    weak let weakSum = sum
    let seen = Box<[Int]>([])
    var token: ObservationToken? = observe { [sum = sum!] in seen.value.append(sum.value) }
    for count in [3, 4, 5, 9, 2, 11, 1, 6] {
      counter.a = count
      let expected = count * (count + 1) / 2
      #expect(seen.value.last == expected, "observed sum of the first \(count) cells")
      let before = computations.value
      cells[count].a += 100  // past the prefix: not an input now
      #expect(computations.value == before, "a cell past the \(count) read is not an input")
      cells[count].a -= 100
      cells[count - 1].a += 1  // the prefix's last cell: an input
      #expect(seen.value.last == expected + 1)
      cells[count - 1].a -= 1
    }
    token?.cancel()
    token = nil
    counter.a = 10  // unobserved: validated by version on read
    #expect(sum!.value == 55)
    counter.a = 2
    #expect(sum!.value == 3)
    sum = nil
    #expect(weakSum == nil, "released once nothing holds it")
  }

  @Test func errorsAreCachedAndRethrownUntilAnInputChanges() throws {
    struct Negative: Error {}
    let model = HandModel()
    let computations = Box(0)
    let checked = Computed { () throws -> Int in
      computations.value += 1
      if model.a < 0 { throw Negative() }
      return model.a
    }
    model.a = -1
    #expect(throws: Negative.self) { try checked.get() }
    #expect(throws: Negative.self) { try checked.get() }
    #expect(computations.value == 1, "the error is cached")
    model.a = 3
    #expect(try checked.get() == 3)
  }

  @Test func aDerivationReadingItselfStopsWithADiagnostic() {
    let holder = Box<Computed<Int>?>(nil)
    let selfish = Computed("selfish-derivation") { () throws -> Int in
      (try holder.value?.get() ?? 0) + 1
    }
    holder.value = selfish
    let reported = ObservationDiagnostics.capture {
      #expect(throws: DerivedValueCycle.self) { try selfish.get() }
    }
    #expect(reported.contains { $0.message.contains("selfish-derivation") })
  }

  /// A cycle that appears while a value is being checked, not computed: `outer` reads
  /// `inner`, and once `model.a` is set `inner` reads `outer`. Reading `outer` checks `inner`
  /// first, and `inner`'s recomputation reads `outer` while that check holds it. This used to
  /// wait forever on `outer`'s compute lock (held by the same thread).
  @Test func aCycleFormedDuringACheckStopsWithADiagnostic() {
    let model = HandModel()
    let holder = Box<Computed<Int>?>(nil)
    let inner = Computed("inner-derivation") { () -> Int in
      model.a == 0 ? model.b : (try? holder.value?.get()) ?? -1
    }
    let outer = Computed("outer-derivation") { inner.value + 1 }
    holder.value = outer
    #expect(outer.value == 1)
    model.a = 1
    let reported = ObservationDiagnostics.capture {
      #expect(outer.value == 0, "inner's read of outer fails, so inner is -1")
    }
    #expect(reported.contains { $0.message.contains("outer-derivation") })
  }

  @Test func aDerivedValueReachedAlongSeveralPathsIsWalkedOnce() {
    // A triangle: c1 → c2 → c3, and `sum` reads all of them. A one-shot observer of `sum`
    // gets the willSet through every path; the walk must visit each node once (it used to
    // corrupt its stack and spin).
    let model = HandModel()
    let c1 = Computed { model.a + 1 }
    let c2 = Computed { c1.value + 1 }
    let c3 = Computed { c2.value + 1 }
    let sum = Computed { model.a + c1.value + c2.value + c3.value }
    let fired = Box(0)
    let runs = Box<[Int]>([])
    let token = observe { runs.value.append(sum.value) }
    ReactiveState.withObservationTracking({ _ = sum.value }, onChange: { fired.value += 1 })
    model.a = 1
    model.a = 2
    #expect(fired.value == 1)
    #expect(runs.value == [6, 10, 14])
    withExtendedLifetime(token) {}
  }

  @Test func readingInsideOneShotTrackingIsADependency() {
    let model = HandModel()
    let sum = Computed { model.a + model.b }
    let fired = Box(0)
    ReactiveState.withObservationTracking({ _ = sum.value }, onChange: { fired.value += 1 })
    model.c = 1
    #expect(fired.value == 0)
    model.b = 1
    #expect(fired.value == 1)
  }

  /// A derived value whose last observer left keeps its upstream links through one more
  /// change of an input — an observer that comes back meanwhile (a dependency switching back
  /// and forth) finds them in place — and drops them at the second; an unobserved
  /// recomputation drops them at once.
  @Test func anOrphanedDerivedValueLingersThroughOneChange() {
    let model = HandModel()
    let computations = Box(0)
    let doubled = Computed {
      computations.value += 1
      return model.a * 2
    }
    var token = observe { _ = doubled.value }
    #expect(model.aDidSetListeners == 1)
    token.cancel()
    #expect(model.aDidSetListeners == 1, "kept while it lingers")
    model.a = 1
    #expect(model.aDidSetListeners == 1, "kept through the first change")
    token = observe { _ = doubled.value }
    #expect(computations.value == 2)
    token.cancel()
    model.a = 2
    #expect(model.aDidSetListeners == 1)
    model.a = 3
    #expect(model.aDidSetListeners == 0, "dropped at the second change after the observer left")
    #expect(computations.value == 2, "nothing is computed while unobserved")
    #expect(doubled.value == 6)

    token = observe { _ = doubled.value }
    token.cancel()
    model.a = 4
    #expect(model.aDidSetListeners == 1)
    #expect(doubled.value == 8)
    #expect(model.aDidSetListeners == 0, "an unobserved recomputation links nothing")
  }

  @Test func inputsNeverKeepADerivedValueAliveAndUnobservedValuesDropTheirEdges() {
    let model = HandModel()
    weak var weakDerived: Computed<Int>?
    do {
      let derived = Computed { model.a + 1 }
      weakDerived = derived
      _ = derived.value
    }
    #expect(weakDerived == nil, "the model's slot does not keep it alive")

    let computations = Box(0)
    let derived = Computed {
      computations.value += 1
      return model.b
    }
    var token: ObservationToken? = observe { _ = derived.value }
    model.b = 1
    #expect(computations.value == 2)
    token = nil
    _ = token
    model.b = 2
    model.b = 3
    #expect(computations.value == 2, "unobserved: upstream edges dropped, nothing pushed")
    #expect(derived.value == 3)
    #expect(computations.value == 3)
  }

  @Test func consistentAcrossThreads() {
    let model = LockedPair()
    let sum = Computed {
      let (a, b) = model.both
      return a + b
    }
    let inconsistent = AtomicCounter()
    runConcurrently(threads: 4) { thread in
      for i in 0..<2_000 {
        if thread == 0 {
          model.set(i)
        } else {
          let value = sum.value
          if value % 2 != 0 { inconsistent.increment() }
        }
      }
    }
    #expect(
      inconsistent.value == 0,
      "a and b are always written and read together: every cached sum is even")
    #expect(sum.value == model.a + model.b)
  }

  /// Subscribing to a deep chain and bringing it up to date are loops, not recursion: 4,000
  /// derived values, each built and read in turn (so no first computation recurses), are
  /// observed and updated on a thread whose stack is 512 KB, where the recursive versions
  /// overflowed. Each node recomputes once per change, and a change cut off at the bottom
  /// of the chain is settled up the whole chain without recomputing it.
  @Test func deepChainUpdatesInConstantStackSpace() {
    // Unobserved values validate their inputs on every read, so building is quadratic: the
    // chain is kept modest (the recursive versions overflowed 512 KB at this depth).
    let depth = 4_000
    let model = HandModel()
    let computations = AtomicCounter()
    var chain = [
      Computed {
        computations.increment()
        return model.a / 2
      }
    ]
    for _ in 1..<depth {
      let upstream = chain[chain.count - 1]
      chain.append(
        Computed {
          computations.increment()
          return upstream.value + 1
        })
      _ = chain[chain.count - 1].value
    }
    // The thread lets go of the chain before it signals (see `observeTwoChanges`).
    let handOff = LockedBox<Computed<Int>?>(chain[chain.count - 1])
    let outcome = LockedBox<[Int]>([])
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      outcome.value = Self.observeTwoChanges(of: handOff, model: model, computations)
      done.signal()
    }
    thread.stackSize = 512 * 1024
    thread.start()
    done.wait()
    #expect(outcome.value == [depth - 1, depth + 1, depth, 1])
  }

  /// Observes the chain's last value (taken out of `handOff`, which is emptied) and changes
  /// its input twice; returns what the observer saw, then how many values recomputed for
  /// each change. Every reference to the chain is gone when it returns.
  private static func observeTwoChanges(
    of handOff: LockedBox<Computed<Int>?>, model: HandModel, _ computations: AtomicCounter
  ) -> [Int] {
    let last = handOff.value.unsafelyUnwrapped
    handOff.value = nil
    let seen = LockedBox<[Int]>([])
    let token = observe { seen.value.append(last.value) }
    let before = computations.value
    model.a = 4  // the bottom becomes 2: every node recomputes once
    let afterChange = computations.value - before
    model.a = 5  // the bottom stays 2: cut off there, the rest is only checked
    let afterCutOff = computations.value - before - afterChange
    token.cancel()
    return seen.value + [afterChange, afterCutOff]
  }
}

/// Two properties that are always written together in one transaction-like critical section.
final class LockedPair: ReactiveState.Observable, @unchecked Sendable {
  private let registrar = ReactiveState.ObservationRegistrar()
  private let lock = NSLock()
  private var _a = 0
  private var _b = 0
  var a: Int {
    registrar.access(self, keyPath: \.a)
    lock.lock()
    defer { lock.unlock() }
    return _a
  }
  var b: Int {
    registrar.access(self, keyPath: \.b)
    lock.lock()
    defer { lock.unlock() }
    return _b
  }
  /// Both values, read together (one critical section), tracking both properties.
  var both: (Int, Int) {
    registrar.access(self, keyPath: \.a)
    registrar.access(self, keyPath: \.b)
    lock.lock()
    defer { lock.unlock() }
    return (_a, _b)
  }
  /// Sets both to `value` in one critical section.
  func set(_ value: Int) {
    registrar.withMutation(of: self, keyPath: \.a) {
      registrar.withMutation(of: self, keyPath: \.b) {
        lock.lock()
        _a = value
        _b = value
        lock.unlock()
      }
    }
  }
  /// Sets `a` only.
  func setA(_ value: Int) {
    registrar.withMutation(of: self, keyPath: \.a) {
      lock.lock()
      _a = value
      lock.unlock()
    }
  }
}
