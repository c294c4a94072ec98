import ReactiveStateMacrosFree
import Testing

/// Promises of the view graph's views, modifiers, async helpers and bindings that mutation
/// round 44 found unpinned: each test fails when the behaviour it names is broken.
@MainActor
@Suite struct MutationFindingsViewCoreRound44Tests {
  // MARK: - Rendered attributes and stack arguments

  struct Attributes: View {
    var body: some View {
      VStack(spacing: 8) {
        Text("flagged").attribute("pinned")
        Button("Save") {}.disabled(false)
        Button("Delete") {}.disabled(true)
      }
    }
  }

  /// A free-form attribute without a value renders as `[name]` (not `[name=]`), an enabled
  /// `.disabled(false)` renders no attribute at all, and a `VStack` renders the spacing it
  /// was given. Kills: `attribute(_:_:)` rendering `name=` for a nil value
  /// (AttributeModifiers.swift:34), `.disabled(false)` recording `"disabled"`
  /// (AttributeModifiers.swift:19), and `VStack` dropping its spacing from the rendered line
  /// (Stacks.swift:72).
  @Test func renderShowsAValuelessAttributeNoEnabledMarkAndAVStacksSpacing() {
    let host = ViewHost(Attributes())
    #expect(
      host.render() == """
        Attributes
          VStack spacing=8.0
            Text "flagged" [pinned]
            Button "Save"
            Button "Delete" [disabled]
        """)
    #expect(!host.isDisabled("Save"))
    #expect(host.isDisabled("Delete"))
  }

  // MARK: - LatestTask cancels the run it replaces

  /// Starting a run cancels the previous run's task (step 1 of the type's contract), so its
  /// operation sees the cancellation and can stop its work (a network request, say), not only
  /// have its result dropped. Kills: `run(_:commit:)` no longer calling `task?.cancel()` on
  /// the previous task (LatestTask.swift:48).
  @Test func startingARunCancelsThePreviousRunsOperation() async {
    let latest = LatestTask<Int>()
    var firstSawCancellation: Bool?
    var committed: [Int] = []
    // Neither task starts before this (main-actor) test suspends, so the first operation
    // runs after the second `run` replaced it.
    let first = latest.run(
      {
        firstSawCancellation = Task.isCancelled
        return 1
      }, commit: { committed.append((try? $0.get()) ?? -1) })
    latest.run({ 2 }, commit: { committed.append((try? $0.get()) ?? -1) })
    await first.value
    await latest.wait()
    #expect(firstSawCancellation == true, "the replaced run's operation was cancelled")
    #expect(committed == [2])
  }

  // MARK: - LoadPhase.cancel outside a load

  struct Offline: Error, CustomStringConvertible {
    var description: String { "offline" }
  }

  /// `cancel()` ends a running request only: after a failure (or a completed load) there is
  /// nothing to cancel, so the failure and its message stay visible, and a `CancellationError`
  /// finishing a request that already failed changes nothing either. Kills: `cancel()` without
  /// its `guard case .loading` (LoadPhase.swift:60), which turned `.failed` into `.loaded`.
  @Test func cancellingWhenNothingIsLoadingChangesNothing() {
    var phase = LoadPhase<[Int]>.loaded([1])
    phase.begin()
    phase.finish(.failure(Offline()))
    #expect(phase == .failed(message: "offline", previous: [1]))
    phase.cancel()
    #expect(phase == .failed(message: "offline", previous: [1]))
    #expect(phase.errorMessage == "offline")
    phase.finish(.failure(CancellationError()))
    #expect(phase == .failed(message: "offline", previous: [1]))

    var idle = LoadPhase<[Int]>.idle
    idle.cancel()
    #expect(idle == .idle)
  }

  // MARK: - An element binding below a collection's start index

  struct Todo: Identifiable, Equatable {
    let id: String
    var done = false
  }

  /// An element binding whose position fell below the collection's `startIndex` (a slice
  /// whose first element was removed, so its indices start later) is out of range like one
  /// past the end: a read returns the last element it read and a write is ignored, each with
  /// an ``ObservationDiagnostic``, instead of trapping. Kills: the range check dropping
  /// `position >= source.startIndex` (Binding+Collection.swift:64): the mutant traps (the
  /// test process crashes).
  @Test func aBindingToAnElementBelowTheStartIndexReportsInsteadOfTrapping() {
    var storage = ArraySlice([Todo(id: "a"), Todo(id: "b"), Todo(id: "c")])
    let todos = Binding(get: { storage }, set: { storage = $0 })
    let first = todos[0]
    #expect(first.wrappedValue == Todo(id: "a"))
    storage.removeFirst()
    #expect(storage.startIndex == 1)
    var read: Todo?
    let diagnostics = ObservationDiagnostics.capture {
      read = first.wrappedValue
      first.wrappedValue.done = true
    }
    #expect(read == Todo(id: "a"), "the last element the binding read")
    #expect(storage.map(\.done) == [false, false], "the write was ignored")
    #expect(diagnostics.count == 3)
    #expect(diagnostics.allSatisfy { $0.message.contains("binding to element 0 of a") })
    #expect(todos.map(\.id) == ["b", "c"])
  }

  /// A binding to a collection walks backwards like its source (it is a
  /// `BidirectionalCollection`): the index before the end is the last element's, so `last`
  /// and `reversed()` (a newest-first `ForEach($todos.reversed())`) give the source's
  /// elements. Kills: `index(before:)` stepping forwards (Binding+Collection.swift:88); the
  /// mutant fails the first expectation, then traps reading a binding past the end.
  @Test func aCollectionBindingWalksBackwardsLikeItsSource() {
    var storage = [Todo(id: "a"), Todo(id: "b"), Todo(id: "c")]
    let todos = Binding(get: { storage }, set: { storage = $0 })
    #expect(todos.index(before: todos.endIndex) == 2)
    #expect(todos.last?.id == "c")
    #expect(todos.reversed().map(\.id) == ["c", "b", "a"])
    todos.last?.wrappedValue.done = true
    #expect(storage.map(\.done) == [false, false, true])
  }

  // MARK: - A search field's prompt

  struct Finder: View {
    @State private var query = ""
    var body: some View {
      Text("query \(query)").searchable(text: $query, prompt: "Find")
    }
  }

  /// A search field with a custom prompt is found by that prompt, as its rendered line names
  /// it. Kills: `SearchableView` answering lookups with the default label `"Search"`
  /// (Searchable.swift:12).
  @Test func aSearchFieldIsFoundByItsPrompt() throws {
    let host = ViewHost(Finder())
    try host.setText("milk", in: "Find")
    #expect(host.texts == ["query milk"])
    #expect(host.value(of: "Find") == "milk")
    #expect(host.render().contains(#"SearchField "Find" text="milk""#))
  }

  // MARK: - A value without equality always reaches its readers

  /// An environment value of a type without `Equatable`.
  struct Greeting {
    var text: String
  }

  struct GreetingKey: EnvironmentKey {
    static let defaultValue = Greeting(text: "hello")
  }

  struct GreetingReader: View {
    @Environment(\.greeting) private var greeting
    var body: some View { Text(greeting.text) }
  }

  struct Greeter: View {
    @State private var name = "Ada"
    var body: some View {
      Button("Rename") { name = "Grace" }
      GreetingReader().environment(\.greeting, Greeting(text: "hi \(name)"))
    }
  }

  /// A value whose type has no equality cannot be shown unchanged, so each new value a writer
  /// sets is a change that reaches the readers of the key (the modifier's documented rule;
  /// SwiftUI compares such values bit by bit). Kills: `EnvironmentCell` treating a comparison
  /// it cannot make as "unchanged" (EnvironmentValues.swift:83), which left the reader showing
  /// the first value.
  @Test func aNewValueWithoutEqualityReachesTheKeysReaders() throws {
    let host = ViewHost(Greeter())
    #expect(host.texts == ["Rename", "hi Ada"])
    try host.tap("Rename")
    #expect(host.texts == ["Rename", "hi Grace"])
  }

  // MARK: - A write reads back what the same write set

  struct ThemeReader: View {
    @Environment(\.theme) private var theme
    var body: some View { Text("\(theme.color) \(theme.size)") }
  }

  struct CompactThemed: View {
    var body: some View {
      ThemeReader()
        .environment(\.compactTheme, true)
        .environment(\.theme, Theme(color: "blue", size: 20))
    }
  }

  /// A key set by a modifier reads, within that same write, the value the write already set,
  /// not the inherited one: `EnvironmentValues` is a value, and a setter that updates two
  /// members of one key (`compactTheme` below) keeps both, as with SwiftUI's
  /// `EnvironmentValues`. Kills: the subscript's getter looking at inherited cells before this
  /// copy's writes (EnvironmentValues.swift:29-30), which lost the first member's write.
  @Test func aSetterWritingTwoMembersOfOneKeyKeepsBoth() {
    let host = ViewHost(CompactThemed())
    #expect(host.texts == ["dense 8"])
  }
}

extension EnvironmentValues {
  fileprivate var greeting: MutationFindingsViewCoreRound44Tests.Greeting {
    get { self[MutationFindingsViewCoreRound44Tests.GreetingKey.self] }
    set { self[MutationFindingsViewCoreRound44Tests.GreetingKey.self] = newValue }
  }

  /// Sets two members of ``theme`` one after the other: the second reads the first's write.
  fileprivate var compactTheme: Bool {
    get { theme.size < 10 }
    set {
      theme.size = newValue ? 8 : 12
      theme.color = newValue ? "dense" : "plain"
    }
  }
}
