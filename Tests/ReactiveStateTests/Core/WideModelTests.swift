import ReactiveState
import Testing

/// A model with many observed properties (one per subscript index): lookups switch from the
/// slot list to a hash index past eight properties; behaviour must not change.
@Suite struct WideModelTests {
  final class Wide: ReactiveState.Observable, @unchecked Sendable {
    private let registrar = ReactiveState.ObservationRegistrar()
    private var storage = [Int](repeating: 0, count: 64)
    subscript(index: Int) -> Int {
      get {
        registrar.access(self, keyPath: \.[index])
        return storage[index]
      }
      set { registrar.withMutation(of: self, keyPath: \.[index]) { storage[index] = newValue } }
    }
  }

  @Test func eachObserverHearsOnlyItsOwnProperty() {
    let wide = Wide()
    let fired = Box([Int](repeating: 0, count: 64))
    for index in 0..<64 {
      ReactiveState.withObservationTracking(
        { _ = wide[index] }, onChange: { fired.value[index] += 1 })
    }
    wide[50] = 1
    wide[3] = 1
    #expect(fired.value[50] == 1)
    #expect(fired.value[3] == 1)
    #expect(fired.value.reduce(0, +) == 2)
  }

  @Test func wideModelsAreReleased() {
    weak var weakWide: Wide?
    do {
      let wide = Wide()
      weakWide = wide
      for index in 0..<20 {
        ReactiveState.withObservationTracking({ _ = wide[index] }, onChange: {})
      }
    }
    #expect(weakWide == nil)
  }
}
