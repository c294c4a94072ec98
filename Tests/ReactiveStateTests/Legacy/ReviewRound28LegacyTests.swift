import ReactiveStateMacrosFree
import Testing

/// Legacy defects found by the 28th review.
@MainActor
@Suite(.serialized) struct ReviewRound28LegacyTests {
  /// A legacy model counting its live instances.
  final class Counted: ObservableObject {
    @Published var value = 0
    @MainActor static var alive = 0
    @MainActor init() { Self.alive += 1 }
    deinit { MainActor.assumeIsolated { Self.alive -= 1 } }
  }

  struct LabeledOwner: View {
    @StateObject var model = Counted()
    let label: String
    var body: some View { Button("\(label) \(model.value)") { model.value += 1 } }
  }

  /// Stores two view values and shows one or the other at the same identity (one expression
  /// of one type: a parent choosing which stored value to show).
  struct Alternating: View {
    let first: LabeledOwner
    let second: LabeledOwner
    @State private var usesSecond = false
    @State private var show = true
    var body: some View {
      VStack {
        Button("Switch") { usesSecond.toggle() }
        Button("Hide") { show = false }
        if show { usesSecond ? second : first }
      }
    }
  }

  /// Each installed view value's handle linked the object strongly, and only the handle of the
  /// last one was released when the identity ended: a stored view value installed earlier
  /// kept the ended identity's object alive as long as the parent lived, and a read through it
  /// returned that object instead of reporting a read after the end.
  @Test func aStoredViewValueInstalledEarlierDoesNotKeepAnEndedIdentitysObject() throws {
    Counted.alive = 0
    let first = LabeledOwner(label: "first")
    let host = ViewHost(Alternating(first: first, second: LabeledOwner(label: "second")))
    try host.tap("first 0")
    try host.tap("Switch")
    #expect(host.texts.contains("second 1"), "one identity, one object")
    try host.tap("Hide")
    #expect(Counted.alive == 0, "the identity ended: its object is released")
    let reported = ObservationDiagnostics.capture { _ = first.model }
    #expect(reported.count == 1, "a read after the end creates a throwaway and reports it")
    withExtendedLifetime(host) {}
  }
}
