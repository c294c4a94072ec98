import ReactiveStateMacrosFree
import Testing

/// A view value whose bits are identical to the previous one is known equal without `Mirror`
/// only when the memberwise rules would agree: each case re-evaluates its parent and checks
/// which children were re-evaluated.
@MainActor
@Suite struct ViewGraphBitwiseEqualityTests {
  final class Model {}

  /// Not `Equatable`; fields of types whose identical bits mean equal values.
  struct Row: View {
    let model: Model
    let title: String
    let index: Int
    let note: String?
    var body: some View { Text("\(title) \(index)") }
  }

  /// A `Double` field: `.nan` is never equal to itself.
  struct Measure: View {
    let value: Double
    var body: some View { Text("measure") }
  }

  /// An existential field: the first value holds an `Int`, later ones a `Double`.
  struct Payload: View {
    let payload: Any
    var body: some View { Text("payload") }
  }

  struct Parent: View {
    let model: Model
    @State private var ticks = 0
    var body: some View {
      VStack {
        Button("tick \(ticks)") { ticks += 1 }
        Row(model: model, title: "same", index: 1, note: "a note")
        Row(model: model, title: "changing", index: ticks, note: nil)
        Measure(value: .nan)
        Payload(payload: ticks == 0 ? 1 as Any : Double.nan as Any)
      }
    }
  }

  @Test func identicalBitsSkipOnlyWhatTheMemberwiseRulesWouldSkip() throws {
    let host = ViewHost(Parent(model: Model()))
    try host.tap("tick 0")
    try host.tap("tick 1")
    #expect(host.bodyCounts(of: Row.self) == [1, 3], "unchanged row skipped, changed one not")
    #expect(host.bodyCounts(of: Measure.self) == [3], "NaN is not equal to itself")
    #expect(host.bodyCounts(of: Payload.self) == [3], "an Int first, then NaN each time")
  }
}
