import ReactiveState
import Testing

/// Which equality rule each `Computed` initialiser picks: `==` for `Equatable` values, none
/// (every recomputation is a change) for other values unless an `isEqual` is given — for
/// standalone values and for values of an object alike.
@Suite struct ComputedEqualityRuleTests {
  /// A value without equality.
  struct Bucket {
    let tens: Int
  }

  /// How many times an observer of `computed` runs over the writes 1, 2 and 15 to `a`, whose
  /// value's tens (0, 0, 1) the derivations return.
  static func observerRuns<Value>(of computed: Computed<Value>, writing model: HandModel) -> Int {
    let runs = Box(0)
    let token = observe {
      _ = computed.value
      runs.value += 1
    }
    for value in [1, 2, 15] { model.a = value }
    token.cancel()
    return runs.value
  }

  @Test func aValueWithoutEqualityIsAChangeOnEveryRecomputation() {
    let model = HandModel()
    let standalone = Computed { Bucket(tens: model.a / 10) }
    #expect(Self.observerRuns(of: standalone, writing: model) == 4, "the first run and 3 writes")

    let object = HandModel()
    let ofObject = Computed(of: object) { Bucket(tens: $0.a / 10) }
    #expect(Self.observerRuns(of: ofObject, writing: object) == 4)
    #expect(ofObject.value.tens == 1)
  }

  @Test func anEquatableValueIsCutOffByEquality() {
    let model = HandModel()
    let standalone = Computed { model.a / 10 }
    #expect(Self.observerRuns(of: standalone, writing: model) == 2, "the first run and 15")

    let object = HandModel()
    let ofObject = Computed(of: object) { $0.a / 10 }
    #expect(Self.observerRuns(of: ofObject, writing: object) == 2)
  }

  @Test func anIsEqualRuleCutsOffAValueWithoutEquality() {
    let model = HandModel()
    let sameTens: (Bucket, Bucket) -> Bool = { $0.tens == $1.tens }
    let standalone = Computed(isEqual: sameTens) { Bucket(tens: model.a / 10) }
    #expect(Self.observerRuns(of: standalone, writing: model) == 2)

    let object = HandModel()
    let ofObject = Computed(of: object, isEqual: sameTens) { Bucket(tens: $0.a / 10) }
    #expect(Self.observerRuns(of: ofObject, writing: object) == 2)
  }

  /// A recomputation the rule calls equal is dropped, so the value readers saw stays cached:
  /// a rule that calls close values equal cannot let the cache drift away from what an
  /// observer saw in steps each too small to report (it drifted to 50 while the observer
  /// kept 0; a later reader then saw 50).
  @Test func aValueTheRuleCallsEqualIsDroppedSoTheCacheStaysWhatReadersSaw() {
    let model = HandModel()
    let withinTen: (Int, Int) -> Bool = { abs($0 - $1) < 10 }
    let coarse = Computed("coarse", isEqual: withinTen) { model.a }
    let seen = Box<[Int]>([])
    let token = observe { seen.value.append(coarse.value) }
    for value in stride(from: 5, through: 45, by: 5) { model.a = value }
    #expect(seen.value == [0, 10, 20, 30, 40], "each 10 or more away from the last value seen")
    #expect(coarse.value == 40, "45 is within 10 of the cached 40: dropped")
    token.cancel()
  }
}
