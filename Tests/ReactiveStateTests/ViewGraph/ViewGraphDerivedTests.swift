import ReactiveStateMacrosFree
import Testing

/// Views reading derived values keep the equality cut-off.
@MainActor
@Suite struct ViewGraphDerivedTests {
  struct Parity: View {
    let isEven: Computed<Bool>
    var body: some View { Text(isEven.value ? "even" : "odd") }
  }

  @Test func aViewReadingAnUnchangedDerivedValueIsNotReEvaluated() {
    let model = Triple()
    let isEven = Computed("isEven", isEqual: ==) { model.a % 2 == 0 }
    let host = ViewHost(Parity(isEven: isEven))
    model.a = 2
    host.flush()
    #expect(host.bodyCount(Parity.self) == 1, "still even: cut off")
    model.a = 3
    host.flush()
    #expect(host.bodyCount(Parity.self) == 2)
    #expect(host.texts == ["odd"])
  }
}
