import ReactiveStateMacrosFree
import Testing

/// One view value (stored by its parent) mounted at two places, or reused under a new `.id`:
/// each identity has its own `@State`, `@StateObject` and environment, as in SwiftUI, and an
/// action reaches the identity whose body created it.
@MainActor
@Suite struct ViewGraphSharedViewValueTests {
  /// Shows the one value it stores twice.
  struct TwoOf<Content: View>: View {
    let content: Content
    var body: some View {
      VStack {
        content
        content
      }
    }
  }

  @Test func aViewValueAtTwoPlacesHasStateAtEach() throws {
    let host = ViewHost(TwoOf(content: CounterView(label: "count")))
    try host.tap("count 0", occurrence: 0)
    #expect(host.texts == ["count 1", "count 0"])
    try host.tap("count 0")
    try host.tap("count 1", occurrence: 1)
    #expect(host.texts == ["count 1", "count 2"])
  }

  struct NestedCounter: DynamicProperty {
    @State var count = 0
  }

  struct UsesNestedCounter: View {
    var counter = NestedCounter()
    var body: some View { Button("nested \(counter.count)") { counter.count += 1 } }
  }

  /// The new links reach `@State` nested in a custom `DynamicProperty` struct too.
  @Test func aViewValueAtTwoPlacesHasNestedStateAtEach() throws {
    let host = ViewHost(TwoOf(content: UsesNestedCounter()))
    try host.tap("nested 0", occurrence: 1)
    #expect(host.texts == ["nested 0", "nested 1"])
  }

  struct ObjectCounter: View {
    @StateObject private var model = AdvLegacy()
    var body: some View { Button("object \(model.count)") { model.count += 1 } }
  }

  @Test func aViewValueAtTwoPlacesHasAStateObjectAtEach() throws {
    let host = ViewHost(TwoOf(content: ObjectCounter()))
    try host.tap("object 0", occurrence: 0)
    #expect(host.texts == ["object 1", "object 0"])
  }

  struct AccentButton: View {
    let log: AdvLog
    @Environment(\.accent) private var accent
    var body: some View { Button("accent \(accent)") { log.entries.append(accent) } }
  }

  struct TwoEnvironments: View {
    let button: AccentButton
    var body: some View {
      VStack {
        button.environment(\.accent, "a")
        button.environment(\.accent, "b")
      }
    }
  }

  @Test func anActionReadsTheEnvironmentOfItsOwnIdentity() throws {
    let log = AdvLog()
    let host = ViewHost(TwoEnvironments(button: AccentButton(log: log)))
    #expect(host.texts == ["accent a", "accent b"])
    try host.tap("accent a")
    try host.tap("accent b")
    #expect(log.entries == ["a", "b"])
  }

  struct Resettable: View {
    let log: AdvLog
    @State private var count = 0
    var body: some View {
      Text("n \(count)").onAppear { log.actions.append { count = 99 } }
    }
  }

  struct ResetContainer: View {
    let content: Resettable
    @State private var generation = 0
    var body: some View {
      VStack {
        Button("reset") { generation += 1 }
        content.id(generation)
      }
    }
  }

  @Test func aClosureOfAnEndedIdentityDoesNotWriteIntoItsSuccessor() throws {
    let log = AdvLog()
    let host = ViewHost(ResetContainer(content: Resettable(log: log)))
    try host.tap("reset")
    #expect(log.actions.count == 2, "the new identity appeared")
    host.perform { log.actions[0]() }
    #expect(host.texts == ["reset", "n 0"])
    #expect(host.issues.map(\.kind) == [.writeToEndedIdentity])
    host.perform { log.actions[1]() }
    #expect(host.texts == ["reset", "n 99"], "the live identity's own closure still writes")
  }
}
