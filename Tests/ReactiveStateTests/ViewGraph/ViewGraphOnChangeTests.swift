import ReactiveStateMacrosFree
import Testing

/// `onChange(of:initial:_:)` and cascades through it.
@MainActor
@Suite struct ViewGraphOnChangeTests {
  struct Mirrored: View {
    @State private var source = 0
    @State private var copy = -1
    let changes: (Int, Int) -> Void

    var body: some View {
      VStack {
        Text("source \(source) copy \(copy)")
        Button("bump") { source += 1 }
        Button("same") { source = source }
      }
      .onChange(of: source, initial: true) { old, new in
        changes(old, new)
        copy = new
      }
    }
  }

  @Test func firesAfterThePassWithOldAndNewAndItsWritesSettleInTheSameFlush() throws {
    var changes: [[Int]] = []
    let host = ViewHost(Mirrored(changes: { changes.append([$0, $1]) }))
    #expect(changes == [[0, 0]], "initial: true runs once on appear")
    #expect(host.texts.first == "source 0 copy 0")
    let passes = host.passCount
    try host.tap("bump")
    #expect(changes == [[0, 0], [0, 1]])
    #expect(host.texts.first == "source 1 copy 1")
    #expect(host.passCount == passes + 2, "the action's write ran in a follow-up pass")
    try host.tap("same")
    #expect(changes.count == 2, "an equal value does not fire")
    #expect(host.issues.isEmpty)
  }

  struct Runaway: View {
    @State private var count = 0
    @State private var other = 0
    var body: some View {
      VStack {
        Button("start \(count)") { count += 1 }
          .onChange(of: count) { count += 1 }
        Button("other \(other)") { other += 1 }
      }
    }
  }

  /// The host recovers: after the loop is cut off, the view still updates for later changes.
  @Test func aSelfPerpetuatingCascadeStopsWithAnUpdateLoopIssue() throws {
    let host = ViewHost(Runaway())
    try host.tap("start 0")
    #expect(host.issues.map(\.kind) == [.updateLoop])
    #expect(!host.hasPendingUpdates)
    #expect(host.bodyCount(Runaway.self) == 1 + host.maxPassesPerFlush)
    try host.tap("other 0")
    #expect(host.texts.last == "other 1")
  }
}
