import ReactiveStateMacrosFree
import Testing

/// Review round 28: presentation, lifecycle, async helpers.
@MainActor
@Suite struct ReviewRound28ViewGraphTests {
  @MainActor final class Log {
    var entries: [String] = []
    weak var host: ViewHost?
  }

  struct ClosesOnAppear: View {
    let log: Log
    var body: some View {
      Text("closer").onAppear {
        log.entries.append("appear closer")
        log.host?.close()
      }
    }
  }

  struct Sibling: View {
    @State private var seen = 0
    let log: Log
    var body: some View {
      Text("sibling \(seen)")
        .onAppear { log.entries.append("appear sibling") }
        .onDisappear { log.entries.append("disappear sibling") }
        .onChange(of: seen, initial: true) { seen = 1 }
    }
  }

  struct ClosingWindow: View {
    let log: Log
    var body: some View {
      VStack {
        ClosesOnAppear(log: log)
        Sibling(log: log)
      }
    }
  }

  /// A host closed by an effect (an `onAppear` closing its window) first runs the effects its
  /// pass queued after that one, so no view appears (or sees its `onChange`) after it ended.
  @Test func closingTheHostFromAnEffectRunsTheRestOfThePassFirst() {
    let log = Log()
    let host = ViewHost(ClosingWindow(log: log), mode: .manual)
    log.host = host
    host.flush()
    #expect(
      log.entries == [
        "appear closer", "appear sibling", "disappear sibling",
      ])
    #expect(host.issues.isEmpty, "the onChange write ran while its identity lived")
    #expect(host.isClosed)
  }

  /// `LoadPhase` never turns a cancellation into an error, even one passed to `finish(_:)`.
  @Test func aCancellationFinishingALoadIsNotAFailure() {
    var phase = LoadPhase<[Int]>.loaded([1])
    phase.begin()
    phase.finish(.failure(CancellationError()))
    #expect(phase == .loaded([1]))
    #expect(phase.errorMessage == nil)
    var first = LoadPhase<[Int]>.idle
    first.begin()
    first.finish(.failure(CancellationError()))
    #expect(first == .idle)
  }

  struct GroupWithAppearance: View {
    @State private var flipped = false
    let log: Log
    var body: some View {
      VStack {
        Group {
          Text("a")
          if flipped { Text("c") } else { Text("b") }
        }
        .onAppear { log.entries.append("group appeared") }
        Button("Flip") { flipped.toggle() }
      }
    }
  }

  /// `Group`'s documented simplification: a lifecycle modifier on a group treats it as one
  /// view (SwiftUI would run it for each child, and again for a switched branch).
  @Test func anAppearanceModifierOnAGroupRunsOnceForTheGroup() throws {
    let log = Log()
    let host = ViewHost(GroupWithAppearance(log: log), mode: .manual)
    host.flush()
    #expect(log.entries == ["group appeared"])
    try host.tap("Flip")
    host.flush()
    #expect(host.texts.contains("c"))
    #expect(log.entries == ["group appeared"])
  }
}
