import Foundation
import ReactiveState
import Testing

/// Adversarial cases for `Computed`: transactions, tracked and untracked reads mixed,
/// dependencies switching across the lingering window, errors coming and going, and unusual
/// equality rules (the graph-shaped cases are in `ComputedAdversarialGraphTests`).
@Suite struct ComputedAdversarialTests {
  // MARK: Transactions

  /// Inside a transaction, a read of a derived value sees the transaction's own writes (it is
  /// brought up to date on the spot), while its observers wait for the end and then run once
  /// with the final values — consistent with the raw inputs they also read.
  @Test func aReadInsideATransactionSeesItsWritesAndObserversRunOnceAtTheEnd() {
    let model = HandModel()
    let computations = Box(0)
    let sum = Computed {
      computations.value += 1
      return model.a + model.b
    }
    let doubled = Computed { sum.value * 2 }
    let seen = Box<[[Int]]>([])
    let token = observe { seen.value.append([model.a, model.b, doubled.value]) }
    withTransaction {
      model.a = 1
      #expect(sum.value == 1)
      #expect(doubled.value == 2)
      model.b = 10
      #expect(sum.value == 11)
      #expect(doubled.value == 22)
      #expect(seen.value.count == 1, "observers wait for the end of the transaction")
    }
    #expect(seen.value == [[0, 0, 0], [1, 10, 22]])
    #expect(computations.value == 3, "no recomputation after the transaction: still current")
    model.a = 2
    #expect(seen.value.last == [2, 10, 24])
    withExtendedLifetime(token) {}
  }

  /// A transaction that changes an input, reads the derived value, and changes the input
  /// back: whatever its observer decides to do at the end, what it last saw is the current
  /// value, and the next change outside a transaction reaches it.
  @Test func aTransactionThatRestoresAnInputLeavesObserversCurrent() {
    let model = HandModel()
    let doubled = Computed { model.a * 2 }
    let seen = Box<[Int]>([])
    let token = observe { seen.value.append(doubled.value) }
    withTransaction {
      model.a = 5
      #expect(doubled.value == 10)
      model.a = 0
      #expect(doubled.value == 0)
    }
    #expect(seen.value.last == 0)
    #expect(doubled.value == 0)
    model.a = 3
    #expect(seen.value.last == 6)
    withTransaction {
      model.a = 4
      model.a = 3  // back, without a read in between
    }
    #expect(seen.value.last == 6)
    model.a = 7
    #expect(seen.value.last == 14)
    withExtendedLifetime(token) {}
  }

  /// A one-shot on a derived value fires inside the first `willSet` of a transaction, where
  /// reads still see the old values; the derived value read there must not keep a value
  /// computed from a mix of old and new inputs after the transaction.
  @Test func aOneShotFiringInsideATransactionReadsTheOldValueAndLeavesNoMix() {
    let model = HandModel()
    let sum = Computed { model.a + model.b }
    let readInOnChange = LockedBox<[Int]>([])
    ReactiveState.withObservationTracking(
      { _ = sum.value }, onChange: { readInOnChange.value.append(sum.value) })
    withTransaction {
      model.a = 1
      model.b = 2
    }
    #expect(readInOnChange.value == [0], "fired once, in the first willSet: the old sum")
    #expect(sum.value == 3)
    model.b = 3
    #expect(sum.value == 4)
  }

  // MARK: Tracked and untracked reads

  /// The same value read by one-shot tracking (armed again after each firing) and outside
  /// tracking, alternately: each change fires the one-shot once, the untracked read sees it,
  /// and the value is computed once per change.
  @Test func oneShotAndUntrackedReadsAlternate() {
    let model = HandModel()
    let computations = Box(0)
    let doubled = Computed {
      computations.value += 1
      return model.a * 2
    }
    let fired = Box(0)
    for step in 1...6 {
      ReactiveState.withObservationTracking({ _ = doubled.value }, onChange: { fired.value += 1 })
      #expect(doubled.value == 2 * (step - 1))
      model.a = step
      #expect(fired.value == step)
      #expect(doubled.value == 2 * step)
      #expect(doubled.value == 2 * step)
      #expect(computations.value == step + 1)
    }
    model.a = 100  // no one-shot armed now
    #expect(fired.value == 6)
    #expect(doubled.value == 200)
  }

  // MARK: Lingering

  /// An observer that stops reading a derived value (it lingers), lets `gap` changes pass and
  /// reads it again: within the window it finds the links in place, after it the value was
  /// dropped and validates by version — either way it sees the current value, recomputes only
  /// when an input changed, and is linked again for the next change.
  @Test(arguments: [0, 1, 2, 3, 5])
  func anObserverThatComesBackAfterChangesSeesTheCurrentValue(gap: Int) {
    let model = HandModel()
    let computations = Box(0)
    let doubled = Computed {
      computations.value += 1
      return model.a * 2
    }
    let seen = Box<[Int]>([])
    let token = observe { if model.c == 0 { seen.value.append(doubled.value) } }
    for round in 1...3 {
      model.c = 1  // stops reading `doubled`
      for _ in 0..<gap { model.a += 1 }
      let before = computations.value
      model.c = 0  // reads it again
      #expect(seen.value.last == model.a * 2, "round \(round): the current value")
      #expect(computations.value == before + (gap > 0 ? 1 : 0), "round \(round)")
      model.a += 1
      #expect(seen.value.last == model.a * 2, "round \(round): linked again")
      #expect(computations.value == before + (gap > 0 ? 2 : 1), "round \(round)")
    }
    withExtendedLifetime(token) {}
  }

  /// A selecting derived value switches between two derived inputs and back while changes
  /// land on both, under an observer: each switch and each change gives the right value, the
  /// branch not taken is not recomputed, and no change is lost after a switch back.
  @Test func aSelectorSwitchingBetweenDerivedInputsAcrossTheLingeringWindow() {
    let model = HandModel()
    let counts = Box([0, 0])
    let left = Computed {
      counts.value[0] += 1
      return model.a * 10
    }
    let right = Computed {
      counts.value[1] += 1
      return model.b * 100
    }
    let selected = Computed { model.c == 0 ? left.value : right.value }
    let seen = Box<[Int]>([])
    let token = observe { seen.value.append(selected.value) }
    func expected() -> Int { model.c == 0 ? model.a * 10 : model.b * 100 }
    let script: [(ReferenceWritableKeyPath<HandModel, Int>, Int)] = [
      (\.c, 1), (\.a, 1), (\.c, 0), (\.b, 1), (\.b, 2), (\.b, 3), (\.c, 1), (\.a, 2),
      (\.a, 3), (\.a, 4), (\.c, 0), (\.c, 1), (\.c, 0), (\.a, 5), (\.c, 1), (\.b, 4),
    ]
    for (step, (keyPath, value)) in script.enumerated() {
      let before = counts.value
      model[keyPath: keyPath] = value
      #expect(seen.value.last == expected(), "step \(step)")
      #expect(selected.value == expected(), "step \(step)")
      if keyPath == \.a && model.c == 1 {
        #expect(counts.value[0] == before[0], "step \(step): the left branch is not computed")
      }
      if keyPath == \.b && model.c == 0 {
        #expect(counts.value[1] == before[1], "step \(step): the right branch is not computed")
      }
    }
    withExtendedLifetime(token) {}
  }

  // MARK: Errors

  /// Value, error, another error, recovery to the value from before the error, the first
  /// error again: every transition reaches the observer (an error always counts as a change,
  /// and so does the first value after one, even if equal to the last value), and reads
  /// outside tracking while it is observed — the lock-free path for an `Int` — never return
  /// the value from before an error.
  @Test func errorsAndRecoveriesAreEachAChangeAndNeverReadAsAStaleValue() {
    struct Negative: Error, Equatable { let input: Int }
    let model = HandModel()
    let computations = Box(0)
    let checked = Computed { () throws -> Int in
      computations.value += 1
      if model.a < 0 { throw Negative(input: model.a) }
      return model.a % 10
    }
    let seen = Box<[String]>([])
    let token = observe {
      do {
        seen.value.append("\(try checked.get())")
      } catch {
        seen.value.append("\(error)")
      }
    }
    func untracked() -> String {
      do { return "\(try checked.get())" } catch { return "\(error)" }
    }
    model.a = 1
    #expect(untracked() == "1")
    model.a = -1
    #expect(untracked() == "\(Negative(input: -1))")
    #expect(untracked() == "\(Negative(input: -1))")
    model.a = -2
    #expect(untracked() == "\(Negative(input: -2))")
    model.a = 11  // the value from before the errors
    #expect(untracked() == "1")
    model.a = -1
    #expect(untracked() == "\(Negative(input: -1))")
    model.a = 21  // equal value again
    #expect(untracked() == "1")
    model.a = 31  // equal: cut off
    #expect(
      seen.value == [
        "0", "1", "\(Negative(input: -1))", "\(Negative(input: -2))", "1",
        "\(Negative(input: -1))", "1",
      ])
    #expect(computations.value == 8, "one computation per change, none per read")
    withExtendedLifetime(token) {}
  }

  /// An error that passes through a chain: the middle value rethrows it, the last one turns it
  /// into a fallback. Recovery and a second failure reach the end of the chain, and a
  /// failure whose fallback equals the previous result is cut off there.
  @Test func anErrorPropagatesThroughAChainAndAFallbackCutsItOff() throws {
    struct Failure: Error {}
    let model = HandModel()
    let source = Computed { () throws -> Int in
      if model.a < 0 { throw Failure() }
      return model.a
    }
    let middle = Computed { () throws -> Int in try source.get() * 2 }
    let fallback = Computed { (try? middle.get()) ?? 0 }
    let runs = Box<[Int]>([])
    let token = observe { runs.value.append(fallback.value) }
    model.a = -1
    #expect(throws: Failure.self) { try middle.get() }
    #expect(runs.value == [0], "the fallback equals the first value: cut off")
    model.a = 2
    #expect(try middle.get() == 4)
    model.a = -5
    #expect(throws: Failure.self) { try middle.get() }
    #expect(runs.value == [0, 4, 0])
    model.a = -6  // another error: `middle` changes, the fallback does not
    #expect(runs.value == [0, 4, 0])
    model.a = 3
    #expect(runs.value == [0, 4, 0, 6])
    withExtendedLifetime(token) {}
  }

  // MARK: Equality rules

  /// `isEqual` receives the cached value first and the new one second: a rule that lets only
  /// increases through propagates them and cuts off decreases.
  @Test func isEqualReceivesTheOldValueThenTheNewOne() {
    let model = HandModel()
    let calls = Box<[[Int]]>([])
    let risingOnly = Computed(
      "risingOnly",
      isEqual: { old, new in
        calls.value.append([old, new])
        return new <= old
      },
      { model.a })
    let seen = Box<[Int]>([])
    let token = observe { seen.value.append(risingOnly.value) }
    model.a = 5
    model.a = 3
    #expect(seen.value == [0, 5], "a decrease is cut off")
    model.a = 4
    #expect(calls.value.first == [0, 5])
    #expect(calls.value.count == 3)
    #expect(calls.value[1] == [5, 3])
    withExtendedLifetime(token) {}
  }

  /// A value that is not equal to itself (`Double.nan` under `==`) is a change on every
  /// recomputation: its observer re-runs on each change of its input, while a downstream
  /// value that maps it to an equal result is cut off.
  @Test func aValueUnequalToItselfIsAChangeOnEveryRecomputation() {
    let model = HandModel()
    let ratio = Computed { model.a < 100 ? Double.nan : Double(model.a) }
    let label = Computed { ratio.value.isNaN ? "none" : "some" }
    let ratioRuns = Box(0)
    let labelRuns = Box(0)
    let tokens = [
      observe {
        _ = ratio.value
        ratioRuns.value += 1
      },
      observe {
        _ = label.value
        labelRuns.value += 1
      },
    ]
    model.a = 1
    model.a = 2
    #expect(ratioRuns.value == 3, "NaN != NaN: a change each time")
    #expect(labelRuns.value == 1, "\"none\" == \"none\": cut off")
    withExtendedLifetime(tokens) {}
  }

  /// Small plain values are read lock-free from one word while observed: values of several
  /// sizes and layouts, negative and optional ones included, round-trip exactly through it.
  @Test func smallPlainValuesRoundTripThroughTheLockFreeWord() {
    let model = HandModel()
    let byte = Computed { Int8(truncatingIfNeeded: model.a - 3) }
    let flag = Computed { model.a % 2 == 1 }
    let optional = Computed { model.a == 0 ? nil : Int32(-model.a) }
    let wide = Computed { UInt64.max - UInt64(model.a) }
    let real = Computed { -Double(model.a) / 4 }
    let token = observe {
      _ = byte.value
      _ = flag.value
      _ = optional.value
      _ = wide.value
      _ = real.value
    }
    for value in [0, 1, 2, 0, 130, 3] {
      model.a = value
      for _ in 0..<2 {  // the first read may take the lock; the second is lock-free
        #expect(byte.value == Int8(truncatingIfNeeded: value - 3))
        #expect(flag.value == (value % 2 == 1))
        #expect(optional.value == (value == 0 ? nil : Int32(-value)))
        #expect(wide.value == UInt64.max - UInt64(value))
        #expect(real.value == -Double(value) / 4)
      }
    }
    withExtendedLifetime(token) {}
  }
}
