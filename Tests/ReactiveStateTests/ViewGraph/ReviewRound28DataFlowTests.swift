import ReactiveStateMacrosFree
import Testing

/// Review round 28: data flow in views (the child-skip rules, host actions, writes during an
/// update).
@MainActor
@Suite struct ReviewRound28DataFlowTests {
  // MARK: - Enum inputs

  /// Not `Equatable` (a case has a closure payload), with one description for every case.
  enum Sorting: CustomStringConvertible {
    case byName, byDate
    case custom((Int, Int) -> Bool)
    var description: String { "Sorting" }
  }

  struct SortedList: View {
    let sorting: Sorting
    var body: some View {
      switch sorting {
      case .byName: Text("by name")
      case .byDate: Text("by date")
      case .custom: Text("custom")
      }
    }
  }

  struct SortingScreen: View {
    @State private var byDate = false
    var body: some View {
      VStack {
        Button("flip") { byDate.toggle() }
        SortedList(sorting: byDate ? .byDate : .byName)
      }
    }
  }

  /// Two cases without payload of a non-`Equatable` enum are told apart by name, not by a
  /// custom description (which may be the same for both): the child shows the new case.
  @Test func enumCasesWithTheSameCustomDescriptionAreNotKnownEqual() throws {
    let host = ViewHost(SortingScreen())
    try host.tap("flip")
    #expect(host.texts == ["flip", "by date"])
    #expect(host.bodyCount(SortedList.self) == 2)
  }

  // MARK: - Custom mirrors

  /// A custom mirror that shows one of its two stored values.
  struct Secretive: CustomReflectable {
    var shown = 0
    var hidden = 0
    var customMirror: Mirror { Mirror(self, children: ["shown": shown], displayStyle: .struct) }
  }

  struct SecretView: View {
    let secret: Secretive?
    var body: some View { Text("hidden \(secret?.hidden ?? -1)") }
  }

  /// A view compared through `Mirror` (its `weak` field keeps it off the in-place comparison)
  /// whose own mirror hides its count.
  struct MirroredView: View, CustomReflectable {
    let count: Int
    weak var anchor: Log?
    nonisolated var customMirror: Mirror { Mirror(self, children: [:], displayStyle: .struct) }
    var body: some View { Text("mirrored \(count)") }
  }

  @MainActor final class Log {}

  struct SecretScreen: View {
    @State private var hidden = 0
    var body: some View {
      VStack {
        Button("bump") { hidden += 1 }
        SecretView(secret: Secretive(shown: 0, hidden: hidden))
        MirroredView(count: hidden)
      }
    }
  }

  /// A custom mirror need not list every stored property: a value with one (a field's, or the
  /// view's own) is not known equal, so the child re-evaluates with the new value.
  @Test func valuesWithACustomMirrorAreNotKnownEqual() throws {
    let host = ViewHost(SecretScreen())
    try host.tap("bump")
    #expect(host.texts == ["bump", "hidden 1", "mirrored 1"])
  }

  // MARK: - Actions on a closed host

  final class Counter: ObservableObject {
    @Published var value = 0
  }

  struct CounterScreen: View {
    let counter: Counter
    @State private var taps = 0
    var body: some View {
      VStack {
        Button("count \(taps)") {
          taps += 1
          counter.value += 1
        }
        Toggle("flag", isOn: .constant(false))
      }
    }
  }

  /// After `close()` no control is live: an action throws `notFound` instead of running the
  /// ended view's action (which wrote its model and recorded a write to an ended identity).
  @Test func actionsOnAClosedHostFindNoControl() throws {
    let counter = Counter()
    let host = ViewHost(CounterScreen(counter: counter))
    try host.tap("count 0")
    host.close()
    #expect(throws: ViewHostError.notFound("count 1")) { try host.tap("count 1") }
    #expect(throws: ViewHostError.notFound("flag")) { try host.toggle("flag") }
    #expect(counter.value == 1)
    #expect(host.issues.isEmpty)
    #expect(host.texts.contains("count 1"), "the ended tree is still there to inspect")
  }

  // MARK: - A @StateObject's autoclosure

  @MainActor final class Selector: ObservableObject {
    init(selection: Binding<Int>) { selection.wrappedValue = 5 }
  }

  struct SelectorChild: View {
    @StateObject private var selector: Selector
    init(selection: Binding<Int>) {
      _selector = StateObject(wrappedValue: Selector(selection: selection))
    }
    var body: some View { Text("selector") }
  }

  struct SelectorParent: View {
    @State private var selection = 0
    var body: some View {
      VStack {
        Text("selection \(selection)")
        SelectorChild(selection: $selection)
      }
    }
  }

  /// The autoclosure runs as part of the view's update: a `@State` it writes is a write during
  /// the update, recorded and dropped as one from `body` is.
  @Test func stateWrittenByAStateObjectsAutoclosureIsAWriteDuringUpdate() throws {
    let host = ViewHost(SelectorParent())
    #expect(host.texts == ["selection 0", "selector"])
    #expect(host.issues.map(\.kind) == [.stateWriteDuringUpdate])
    #expect(host.issues.first?.viewPath.hasSuffix("SelectorChild") == true)
  }
}
