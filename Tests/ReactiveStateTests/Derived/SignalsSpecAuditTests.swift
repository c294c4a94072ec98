import ReactiveState
import Testing

/// The propagation semantics of the signals research note (`signals.md` §2.3–2.4, §3.1, §5.2)
/// that no other test pinned, run against `Computed`: a write computes nothing, a branch the
/// new run does not take is never evaluated, each node of the benchmark shapes (triangle, mux,
/// repeated reads) recomputes once per change with cut-off at every node, transactions that
/// revert or nest, and the order of observers that own one another.
@Suite struct SignalsSpecAuditTests {
  /// §2.3: "No value is computed during push." A write to an input of a derived value that a
  /// one-shot registration or a continuous observer inside a transaction depends on marks it
  /// stale and computes nothing; the first read afterwards computes it once.
  @Test func aWriteComputesNothingUntilSomeoneReads() {
    let model = HandModel()
    let computations = Box(0)
    let doubled = Computed {
      computations.value += 1
      return model.a * 2
    }
    let label = Computed { "\(doubled.value)" }
    let fired = Box(0)
    ReactiveState.withObservationTracking({ _ = label.value }, onChange: { fired.value += 1 })
    #expect(computations.value == 1)
    model.a = 1
    #expect(fired.value == 1, "the one-shot heard the change")
    #expect(computations.value == 1, "the write computed nothing")

    let runs = Box(0)
    let token = observe {
      runs.value += 1
      _ = label.value
    }
    #expect(computations.value == 2, "the observer's first run pulled the stale value")
    withTransaction {
      model.a = 2
      model.a = 3
      #expect(computations.value == 2, "writes inside a transaction compute nothing")
    }
    #expect(computations.value == 3, "the observer's run at the end computes it once")
    #expect(runs.value == 2)
    #expect(label.value == "6")
    withExtendedLifetime(token) {}
  }

  /// §2.4: inputs are checked in the order the last run read them, and the check stops at the
  /// first one that changed, "so a branch the new run will not take is never evaluated". Here
  /// one write makes both `gate` and `expensive` stale; `picked` read `gate` first, finds it
  /// changed, and its new run no longer reads `expensive`, which must stay uncomputed.
  @Test(arguments: [false, true])
  func aBranchTheNewRunDoesNotTakeIsNeverEvaluated(observed: Bool) {
    let model = HandModel()
    let expensiveComputations = Box(0)
    let gate = Computed { model.a > 0 }
    let expensive = Computed {
      expensiveComputations.value += 1
      return model.a * 100
    }
    let picked = Computed { gate.value ? model.b : expensive.value }
    let seen = Box<[Int]>([])
    let token = observed ? observe { seen.value.append(picked.value) } : nil
    #expect(picked.value == 0)
    model.b = 7  // not an input yet
    model.a = 1  // `gate` changes and `expensive` is stale
    #expect(picked.value == 7)
    #expect(expensiveComputations.value == 1, "the branch not taken was not evaluated")
    model.a = 0  // back to the expensive branch: computed once, on demand
    #expect(picked.value == 0)
    #expect(expensiveComputations.value == 2)
    if observed { #expect(seen.value == [0, 7, 0]) }
    withExtendedLifetime(token) {}
  }

  /// §3.1 `triangle`: a chain `c1 → c2 → c3` and a sum reading the input and every link of
  /// the chain. Each node recomputes exactly once per write and the observer, run once per
  /// write, sees the sum of one state only.
  @Test func eachNodeOfATriangleRecomputesOncePerWrite() {
    let model = HandModel()
    let counts = Box([0, 0, 0, 0])
    let c1 = Computed {
      counts.value[0] += 1
      return model.a + 1
    }
    let c2 = Computed {
      counts.value[1] += 1
      return c1.value + 1
    }
    let c3 = Computed {
      counts.value[2] += 1
      return c2.value + 1
    }
    let sum = Computed {
      counts.value[3] += 1
      return model.a + c1.value + c2.value + c3.value
    }
    let seen = Box<[Int]>([])
    let token = observe { seen.value.append(sum.value) }
    let writes = [1, 2, 3, 10]
    for value in writes { model.a = value }
    #expect(counts.value == Array(repeating: 1 + writes.count, count: 4))
    #expect(seen.value == ([0] + writes).map { 4 * $0 + 6 }, "one run per write, never a mix")
    withExtendedLifetime(token) {}
  }

  /// §3.1 `mux` ("cut-off at every node"): one value gathers all inputs into an array, one
  /// value per element picks its element, one more adds 1, and one observer reads each. A
  /// write to one input recomputes the gathering value and every picker, but only the
  /// changed element's `+1` value and observer: the other pickers are cut off.
  @Test func aMuxCutsOffEveryBranchButTheChangedOne() {
    let width = 4
    let heads = (0..<width).map { _ in HandModel() }
    let gathered = Computed { heads.map(\.a) }
    let pickerCounts = Box([Int](repeating: 0, count: width))
    let plusOneCounts = Box([Int](repeating: 0, count: width))
    let pickers = (0..<width).map { index in
      Computed {
        pickerCounts.value[index] += 1
        return gathered.value[index]
      }
    }
    let plusOnes = (0..<width).map { index in
      Computed {
        plusOneCounts.value[index] += 1
        return pickers[index].value + 1
      }
    }
    let seen = Box([[Int]](repeating: [], count: width))
    let tokens = (0..<width).map { index in
      observe { seen.value[index].append(plusOnes[index].value) }
    }
    for written in 0..<width {
      let (pickersBefore, plusOnesBefore) = (pickerCounts.value, plusOneCounts.value)
      let runsBefore = seen.value.map(\.count)
      heads[written].a = 10 + written
      for index in 0..<width {
        let isWritten = index == written ? 1 : 0
        #expect(pickerCounts.value[index] == pickersBefore[index] + 1, "every picker rechecks")
        #expect(plusOneCounts.value[index] == plusOnesBefore[index] + isWritten, "\(index)")
        #expect(seen.value[index].count == runsBefore[index] + isWritten, "\(index)")
      }
      #expect(seen.value[written].last == 11 + written)
    }
    withExtendedLifetime(tokens) {}
  }

  /// §3.1 `repeatedObservers` and §2.2's A,B,A pattern: a derivation reads one input many
  /// times, interleaved with a derived value that reads the same input. Each write recomputes
  /// it once and runs its observer once, and once unobserved every edge it made is dropped
  /// (a duplicate edge that outlived its observer would stay linked to the input).
  @Test func repeatedReadsOfOneInputAreOneDependency() {
    let model = HandModel()
    let inner = Computed { model.a + 1 }
    let computations = Box(0)
    let repeated = Computed { () -> Int in
      computations.value += 1
      var total = 0
      for _ in 0..<30 {
        total += model.a
        total += inner.value
      }
      return total
    }
    let seen = Box<[Int]>([])
    let token = observe { seen.value.append(repeated.value) }
    for value in 1...3 { model.a = value }
    #expect(seen.value == (0...3).map { 30 * (2 * $0 + 1) }, "one run per write")
    #expect(computations.value == 4, "one computation per write")
    token.cancel()
    model.a = 4
    model.a = 5  // past the lingering window
    #expect(model.aDidSetListeners == 0, "no edge to the input outlives the observer")
    #expect(repeated.value == 30 * 11)
  }

  /// §2.3: a write followed by a revert inside a batch is "not changed" downstream. The
  /// derived value may recompute (at most once) but finds an equal value, so its observer
  /// does not run.
  @Test func aTransactionThatRevertsAnInputWakesNoObserverOfItsDerivedValue() {
    let model = HandModel()
    let computations = Box(0)
    let doubled = Computed {
      computations.value += 1
      return model.a * 2
    }
    let runs = Box(0)
    let token = observe {
      runs.value += 1
      _ = doubled.value
    }
    model.a = 3
    let (runsBefore, computationsBefore) = (runs.value, computations.value)
    withTransaction {
      model.a = 4
      model.a = 3
    }
    #expect(runs.value == runsBefore, "restored within the transaction: nothing changed")
    #expect(computations.value - computationsBefore <= 1)
    #expect(doubled.value == 6)
    model.a = 5
    #expect(runs.value == runsBefore + 1)
    withExtendedLifetime(token) {}
  }

  /// §5.2 "queue effects and flush at the end of the outermost batch": a diamond written
  /// several times in nested transactions recomputes each node once, at the end of the
  /// outermost one, and its observer runs once with the final inputs.
  @Test func nestedTransactionsRecomputeADiamondOnceAtTheOutermostEnd() {
    let model = HandModel()
    let diamond = CountedDiamond(model) { "\($0)/\($1)/\(model.b)" }
    let (counts, bottom) = (diamond.counts, diamond.bottom)
    let seen = Box<[String]>([])
    let token = observe { seen.value.append(bottom.value) }
    withTransaction {
      model.a = 1
      model.b = 1
      withTransaction {
        model.a = 2
        model.b = 2
      }
      #expect(seen.value.count == 1, "the inner transaction's end runs nothing")
      model.a = 3
    }
    #expect(seen.value == ["1/0/0", "4/30/2"])
    #expect(counts.value == [2, 2, 2], "each node once for the whole transaction")
    withExtendedLifetime(token) {}
  }

  /// §2.3/§5.2 "outer effects run before inner ones; an outer re-run may dispose the inner
  /// effects": an observer that creates an inner observer of the same derived value on each
  /// run (dropping the previous one's token). A change runs the outer one first, which
  /// replaces the inner one; the replaced inner observer never runs again.
  @Test func anOuterObserverRunsFirstAndTheInnerOneItReplacedNeverRuns() {
    let model = HandModel()
    let doubled = Computed { model.a * 2 }
    let order = Box<[String]>([])
    let inner = Box<ObservationToken?>(nil)
    let outer = observe {
      order.value.append("outer \(doubled.value)")
      inner.value = observe { order.value.append("inner \(doubled.value)") }
    }
    #expect(order.value == ["outer 0", "inner 0"])
    for value in 1...2 {
      order.value = []
      model.a = value
      #expect(order.value == ["outer \(2 * value)", "inner \(2 * value)"])
    }
    inner.value = nil
    withExtendedLifetime(outer) {}
  }
}
