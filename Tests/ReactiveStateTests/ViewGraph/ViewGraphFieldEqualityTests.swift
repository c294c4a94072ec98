import ReactiveStateMacrosFree
import Testing

/// Views compared field by field through `Mirror` follow the same rules whether a field's rule
/// was decided once for the type (``FieldRule``) or per comparison: each case re-evaluates its
/// parent twice and checks which children were re-evaluated. Every view here has a `weak`
/// field, which keeps it off the in-place comparison (see `ViewGraphFieldComparisonTests`).
@MainActor
@Suite struct ViewGraphFieldEqualityTests {
  class Base {}
  final class Derived: Base {}

  /// An `Equatable` class: new instances with equal ids are equal.
  final class Tag: Equatable {
    let id: Int
    init(id: Int) { self.id = id }
    static func == (lhs: Tag, rhs: Tag) -> Bool { lhs.id == rhs.id }
  }

  /// A `@State` (equal across values) next to a plain value.
  struct Stateful: View {
    let count: Int
    weak var anchor: Base?
    @State private var taps = 0
    var body: some View { Text("stateful \(count) \(taps)") }
  }

  /// A field declared as a superclass.
  struct Holder: View {
    let item: Base
    weak var anchor: Base?
    @State private var taps = 0
    var body: some View { Text("holder") }
  }

  struct Tagged: View {
    let tag: Tag
    weak var anchor: Base?
    @State private var taps = 0
    var body: some View { Text("tagged") }
  }

  struct Note: View {
    let text: String?
    weak var anchor: Base?
    @State private var taps = 0
    var body: some View { Text(text ?? "none") }
  }

  struct Parent: View {
    let base: Base
    let derived: Derived
    @State private var ticks = 0
    var body: some View {
      VStack {
        Button("tick \(ticks)") { ticks += 1 }
        Stateful(count: 1)
        Stateful(count: ticks)
        Holder(item: derived)
        Holder(item: ticks.isMultiple(of: 2) ? base : derived)
        Tagged(tag: Tag(id: 7))
        Note(text: ticks == 0 ? nil : "note")
      }
    }
  }

  @Test func fieldRulesDecideAsTheGeneralRules() throws {
    let host = ViewHost(Parent(base: Base(), derived: Derived()))
    try host.tap("tick 0")
    try host.tap("tick 1")
    #expect(host.bodyCounts(of: Stateful.self) == [1, 3], "state is equal, a new count is not")
    #expect(host.bodyCounts(of: Holder.self) == [1, 3], "the same object, then other objects")
    #expect(host.bodyCounts(of: Tagged.self) == [1], "new tags, equal by ==")
    #expect(host.bodyCounts(of: Note.self) == [2], "nil, then the same text twice")
  }
}
