import ReactiveState

/// The derived-value tests' diamond over a model's `a`: `left = a + 1` and `right = a * 10`,
/// joined by `bottom`. `counts` holds how many times each of left, right and bottom computed.
struct CountedDiamond<Bottom: Equatable> {
  let counts = Box([0, 0, 0])
  let bottom: Computed<Bottom>

  init(_ model: HandModel, join: @escaping (Int, Int) -> Bottom) {
    let counts = counts
    let left = Computed {
      counts.value[0] += 1
      return model.a + 1
    }
    let right = Computed {
      counts.value[1] += 1
      return model.a * 10
    }
    bottom = Computed {
      counts.value[2] += 1
      return join(left.value, right.value)
    }
  }
}
