import ReactiveStateMacrosFree
import Testing

/// `ForEach` and `.id(_:)` identities compare their ids with the id type's own `==` (an
/// `AnyHashable` id type gets `AnyHashable`'s answers): the host takes a shortcut for `Int`
/// and `String` ids, and these cases pin down that state survives exactly when the ids are
/// equal.
@MainActor
@Suite struct ViewGraphIDEqualityTests {
  /// Rows keyed by strings, in an order the test changes.
  struct Names: View {
    let order: [String]
    var body: some View {
      ForEach(order, id: \.self) { name in CounterView(label: name) }
    }
  }

  struct NamesParent: View {
    @State private var reversed = false
    var body: some View {
      VStack {
        Button("flip") { reversed.toggle() }
        Names(order: reversed ? ["b", "a"] : ["a", "b"])
      }
    }
  }

  @Test func stringIDsCarryStateAcrossReordering() throws {
    let host = ViewHost(NamesParent())
    try host.tap("b 0")
    try host.tap("flip")
    #expect(host.texts == ["flip", "b 1", "a 0"])
    try host.tap("flip")
    #expect(host.texts == ["flip", "a 0", "b 1"])
  }

  /// An explicit id whose type changes between evaluations: `1 as Int` and `1 as Int8` are
  /// equal as `AnyHashable` (integers compare by value across types), `1.5` is not.
  struct Typed: View {
    @State private var step = 0
    var body: some View {
      VStack {
        Button("step \(step)") { step += 1 }
        CounterView(label: "typed").id(id)
      }
    }

    private var id: AnyHashable {
      switch step {
      case 0: AnyHashable(1 as Int)
      case 1: AnyHashable(1 as Int8)
      default: AnyHashable(1.5)
      }
    }
  }

  @Test func integerIDsOfOtherTypesCompareByValue() throws {
    let host = ViewHost(Typed())
    try host.tap("typed 0")
    try host.tap("step 0")
    #expect(host.texts == ["step 1", "typed 1"], "1 as Int8 is the same id as 1 as Int")
    try host.tap("step 1")
    #expect(host.texts == ["step 2", "typed 0"], "1.5 is another id: fresh state")
  }

  struct Custom: Hashable {
    let name: String
  }

  /// Rows keyed by a custom `Hashable` type, which takes the generic path.
  struct CustomRows: View {
    @State private var order = [Custom(name: "x"), Custom(name: "y")]
    var body: some View {
      VStack {
        Button("rotate") { order.append(order.removeFirst()) }
        ForEach(order, id: \.self) { item in CounterView(label: item.name) }
      }
    }
  }

  @Test func customIDsCarryStateAcrossReordering() throws {
    let host = ViewHost(CustomRows())
    try host.tap("x 0")
    try host.tap("rotate")
    #expect(host.texts == ["rotate", "y 0", "x 1"])
  }
}
