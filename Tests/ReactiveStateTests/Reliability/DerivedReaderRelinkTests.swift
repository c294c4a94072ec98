import Foundation
import ReactiveState
import Testing

/// A derived value read, while it is unlinked, by a reader that links what it reads: the read
/// validates it, then links it back. A write that lands between the two reaches nobody, and
/// the relink leaves the value stale. The session-30 review suspected that only an
/// observer's pull handled this (it retries); a derived reader computes again when an input
/// it linked turns out outdated, and a one-shot fires: these tests pin both.
@Suite(.serialized) struct DerivedReaderRelinkTests {
  /// `outer`, observed, starts reading `shifted = tens + 100` (`tens = model[0] / 10`), which
  /// has cached values but no links. Validating it recomputes `tens`, and while `tens` runs
  /// (after it read the model) another thread writes `model[0] = 10`. `outer` must end up
  /// with the write's value, and keep hearing later writes.
  @Test func aWriteWhileADerivedReaderRelinksItsInputReachesTheReader() {
    let chain = HookedTensChain()
    let (model, duringTens, shifted) = (chain.model, chain.duringTens, chain.shifted)
    let outer = Computed("outer", isEqual: ==) { () -> Int in
      model[1] == 1 ? shifted.value : -1
    }
    #expect(shifted.value == 100)  // cached, unobserved: unlinked
    model[0] = 1  // tens recomputes (to the same 0) when it is next validated
    let seen = LockedBox<[Int]>([])
    let token = observe { seen.value.append(outer.value) }
    defer { token.cancel() }
    duringTens.value = { onAnotherThread { model[0] = 10 } }
    model[1] = 1  // outer recomputes and reads shifted: the validation, the write, the relink
    #expect(duringTens.value == nil, "the hook ran")
    #expect(seen.value.last == 101, "the reader kept the value from before the write")
    model[0] = 20
    #expect(seen.value.last == 102, "the reader no longer hears changes of its input")
  }

  /// The same window for a one-shot observer reading the unlinked value in `apply`: the
  /// write made while the value relinks must fire it (its value is outdated).
  @Test func aWriteWhileAOneShotRelinksItsInputFiresIt() {
    let chain = HookedTensChain()
    let (model, duringTens, shifted) = (chain.model, chain.duringTens, chain.shifted)
    #expect(shifted.value == 100)  // cached, unobserved: unlinked
    model[0] = 1
    duringTens.value = { onAnotherThread { model[0] = 10 } }
    let fired = LockedBox(0)
    let read = withObservationTracking {
      shifted.value
    } onChange: {
      fired.value += 1
    }
    #expect(duringTens.value == nil, "the hook ran")
    #expect(read == 100 && fired.value == 1, "the write during the relink was lost")
  }
}
