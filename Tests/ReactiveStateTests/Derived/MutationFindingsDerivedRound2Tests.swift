import ReactiveState
import Testing

/// Behaviour of derived values that the second round of mutation testing of
/// `Sources/ReactiveState/Derived/` found unpinned: each test fails with a mutant of that code
/// the rest of the suite let pass.
@Suite struct MutationFindingsDerivedRound2Tests {
  /// Pins that observed values of the two- and four-byte plain types come back whole from
  /// reads without the lock (the observer's and untracked ones), as the one-, five- and
  /// eight-byte ones of `smallPlainValuesRoundTripThroughTheLockFreeWord` do.
  @Test func lockFreeReadsReturnEveryByteOfTwoAndFourByteValues() {
    let model = HandModel()
    let short = Computed { Int16(model.a) * 300 }
    let word = Computed { Int32(model.a) * 100_000 }
    let real = Computed { Float(model.a) / 4 }
    let seen = Box<[String]>([])
    let token = observe { seen.value.append("\(short.value) \(word.value) \(real.value)") }
    for value in [1, 3] {
      model.a = value
      for _ in 0..<2 {  // the first read may take the lock; the second is lock-free
        #expect(short.value == Int16(value) * 300)
        #expect(word.value == Int32(value) * 100_000)
        #expect(real.value == Float(value) / 4)
      }
    }
    #expect(seen.value == ["0 0 0.0", "300 100000 0.25", "900 300000 0.75"])
    withExtendedLifetime(token) {}
  }

  /// Pins that a value orphaned a second time forgets what an earlier lingering learnt about
  /// its inputs: it read no derived value then and reads one now, so the second change after
  /// its last observer left, which stops at that stale derived value, still ends its
  /// lingering and drops its links and that value's.
  @Test func aValueOrphanedAgainCountsChangesThroughADerivedInputItNowReads() {
    let model = HandModel()
    let doubled = Computed { model.a * 2 }
    let orphan = Computed { model.b == 0 ? model.c : doubled.value }
    observe { _ = orphan.value }.cancel()
    model.c = 1  // lingering through one change; it reads no derived value
    let token = observe { _ = orphan.value }
    model.b = 1  // observed again, it now reads `doubled`
    #expect(model.aDidSetListeners == 1)
    token.cancel()
    model.a = 1
    #expect(model.aDidSetListeners == 1, "kept through the first change")
    model.a = 2
    #expect(model.aDidSetListeners == 0, "dropped at the second change, through `doubled`")
    #expect(orphan.value == 4)
  }
}
