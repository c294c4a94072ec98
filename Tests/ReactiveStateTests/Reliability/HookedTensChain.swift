import ReactiveState

/// The relink tests' chain over `model[0]`: `tens = model[0] / 10` and `shifted = tens + 100`.
/// A closure put in `duringTens` runs once, inside the next computation of `tens`, after it
/// read the model (a write made there lands while the chain is being validated or relinked).
struct HookedTensChain {
  let model = LockedTriple()
  let duringTens = LockedBox<(() -> Void)?>(nil)
  let shifted: Computed<Int>

  init() {
    let (model, duringTens) = (model, duringTens)
    let tens = Computed("tens", isEqual: ==) { () -> Int in
      let read = model[0]
      if let hook = duringTens.value {
        duringTens.value = nil
        hook()
      }
      return read / 10
    }
    shifted = Computed("shifted", isEqual: ==) { tens.value + 100 }
  }
}
