import ReactiveStateMacrosFree
import Testing

/// A child whose value's bits differ from the previous one is compared field by field: in
/// place at each field's offset, by a rule chosen from its declared type, or through `Mirror`
/// when a field cannot be read in place (`weak`, `unowned`, a closure). Each case re-evaluates
/// its parent and checks which children were re-evaluated.
@MainActor
@Suite struct ViewGraphFieldComparisonTests {
  final class Model {}

  struct Settings: Equatable {
    var name: String
    var level: Int
  }

  /// Not `Equatable`: compared through the general rules.
  struct Tag {
    let label: String
    let model: Model
  }

  /// A binding (new closures in every parent evaluation) beside fields of each rule.
  struct Bound: View {
    @Binding var isOn: Bool
    let model: Model
    let settings: Settings
    let tag: Tag?
    let payload: Any
    var body: some View { Text("bound") }
  }

  /// Bound to the parent's state through a hand-made binding, which has no source to compare.
  struct Unbound: View {
    @Binding var isOn: Bool
    var body: some View { Text("unbound") }
  }

  /// A weak field: compared through `Mirror`.
  struct Weak: View {
    weak var model: Model?
    @Binding var isOn: Bool
    var body: some View { Text("weak") }
  }

  struct Parent: View {
    let model: Model
    let other: Model
    @State private var ticks = 0
    @State private var isOn = false
    @State private var isOther = false
    var body: some View {
      VStack {
        Button("tick \(ticks)") { ticks += 1 }
        Bound(
          isOn: $isOn, model: model, settings: Settings(name: "same", level: 1),
          tag: Tag(label: "same", model: model), payload: 1)
        Bound(
          isOn: $isOn, model: ticks == 0 ? model : other, settings: Settings(name: "s", level: 1),
          tag: nil, payload: 1)
        Bound(
          isOn: $isOn, model: model, settings: Settings(name: "s", level: ticks),
          tag: nil, payload: 1)
        Bound(
          isOn: $isOn, model: model, settings: Settings(name: "s", level: 1),
          tag: Tag(label: "tag \(ticks)", model: model), payload: 1)
        Bound(
          isOn: $isOn, model: model, settings: Settings(name: "s", level: 1), tag: nil,
          payload: ticks)
        Bound(
          isOn: ticks == 0 ? $isOn : $isOther, model: model,
          settings: Settings(name: "s", level: 1), tag: nil, payload: 1)
        Unbound(isOn: Binding(get: { isOn }, set: { isOn = $0 }))
        Weak(model: ticks < 2 ? model : other, isOn: $isOn)
      }
    }
  }

  /// Not `Equatable`, nesting another non-`Equatable` struct: compared field by field, in
  /// place, at every level.
  struct Entry {
    let title: String
    let tag: Tag
    let count: Int
  }

  /// Not `Equatable`, holding a closure: its values never compare equal.
  struct Action {
    let title: String
    let run: () -> Void
  }

  /// Not `Equatable`, holding a weak reference: compared through `Mirror`.
  struct WeakBox {
    weak var model: Model?
  }

  struct Nested: View {
    let entry: Entry
    var body: some View { Text("nested \(entry.title)") }
  }

  struct WithAction: View {
    let action: Action
    var body: some View { Text("action") }
  }

  struct WithWeakBox: View {
    let box: WeakBox
    var body: some View { Text("weak box") }
  }

  /// Stores a closure, but is `Equatable` by its title: its `==` decides.
  struct TitledAction: View, Equatable {
    let title: String
    let run: () -> Void
    var body: some View { Text(title) }
    nonisolated static func == (lhs: TitledAction, rhs: TitledAction) -> Bool {
      lhs.title == rhs.title
    }
  }

  struct NestingParent: View {
    let model: Model
    let other: Model
    @State private var ticks = 0
    var body: some View {
      VStack {
        Button("tick \(ticks)") { ticks += 1 }
        // A title too long to be stored inline: equal strings with other storage.
        Nested(
          entry: Entry(
            title: "a title longer than fifteen bytes", tag: Tag(label: "t", model: model),
            count: 1))
        Nested(
          entry: Entry(
            title: "a title longer than fifteen bytes",
            tag: Tag(label: "t", model: ticks < 2 ? model : other), count: 1))
        Nested(entry: Entry(title: "counted", tag: Tag(label: "t", model: model), count: ticks))
        WithAction(action: Action(title: "same", run: {}))
        TitledAction(title: "titled", run: {})
        WithWeakBox(box: WeakBox(model: ticks == 0 ? model : other))
      }
    }
  }

  @Test func nestedStructsAreComparedFieldByField() throws {
    let host = ViewHost(NestingParent(model: Model(), other: Model()))
    try host.tap("tick 0")
    try host.tap("tick 1")
    #expect(host.bodyCounts(of: Nested.self) == [1, 2, 3], "equal; one change deep inside; count")
    #expect(host.bodyCounts(of: WithAction.self) == [3], "a closure inside is never equal")
    #expect(host.bodyCounts(of: TitledAction.self) == [1], "its own == ignores the closure")
    #expect(host.bodyCounts(of: WithWeakBox.self) == [2], "another object once, then the same")
  }

  @Test func eachFieldIsComparedByTheRuleOfItsDeclaredType() throws {
    let host = ViewHost(Parent(model: Model(), other: Model()))
    try host.tap("tick 0")
    try host.tap("tick 1")
    let bound = host.bodyCounts(of: Bound.self)
    #expect(bound[0] == 1, "same binding source, object, settings, tag and payload")
    #expect(bound[1] == 2, "another object once (===), then the same")
    #expect(bound[2] == 3, "settings differ each time (==)")
    #expect(bound[3] == 3, "the tag's label differs each time (general rules)")
    #expect(bound[4] == 3, "the payload differs each time (general rules on Any)")
    #expect(bound[5] == 2, "bound to another state once, then to the same")
    #expect(host.bodyCounts(of: Unbound.self) == [3], "a hand-made binding is never known equal")
    #expect(
      host.bodyCounts(of: Weak.self) == [2], "weak (through Mirror): same object, then another")
  }
}
