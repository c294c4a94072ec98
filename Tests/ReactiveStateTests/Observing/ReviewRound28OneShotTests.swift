import Observation
import ReactiveState
import Testing

/// Review round 28 (one-shot tracking): a one-shot nested in a continuous observer's run or a
/// derived value's computation hands its reads to that scope at the versions it read them.
@Suite struct ReviewRound28OneShotTests {
  /// Another thread writes `a` after the nested one-shot read it, before its `apply` ends:
  /// the enclosing run saw the old value, so it must run again (as it does for a direct read).
  @Test func anObserverRunsAgainAfterAChangeMadeDuringANestedOneShotsApply() {
    let model = HandModel()
    let seen = Box<[Int]>([])
    let wrote = Box(false)
    let token = observe {
      ReactiveState.withObservationTracking {
        seen.value.append(model.a)
        if !wrote.value {
          wrote.value = true
          onAnotherThread { model.a = 1 }
        }
      } onChange: {
      }
    }
    #expect(seen.value == [0, 1])
    token.cancel()
  }

  /// The same for a derived value: its computation read `a` through a nested one-shot, and a
  /// change of `a` made meanwhile must not leave it cached with the old value.
  @Test func aDerivedValueIsNotCachedStaleAfterAChangeMadeDuringANestedOneShotsApply() {
    let model = HandModel()
    let wrote = Box(false)
    let derived = Computed {
      ReactiveState.withObservationTracking {
        let value = model.a
        if !wrote.value {
          wrote.value = true
          onAnotherThread { model.a = 1 }
        }
        return value
      } onChange: {
      }
    }
    let seen = Box<[Int]>([])
    let token = observe { seen.value.append(derived.value) }
    #expect(seen.value.last == 1)
    #expect(derived.value == 1)
    token.cancel()
  }
}
