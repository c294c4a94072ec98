import ReactiveStateMacrosFree
import Testing

/// A `@StateObject`'s object is released when its view's identity ends, as in SwiftUI, also
/// when the parent stores the view value (a `let child` field, or a container's `content`).
/// The view value's handle kept a strong reference to the object, so a parent that stored the
/// value kept every ended identity's object alive (with whatever work it runs).
@MainActor
@Suite(.serialized) struct StateObjectReleaseTests {
  /// A legacy model counting its live instances.
  final class Tracked: ObservableObject {
    @Published var count = 0
    @MainActor static var alive = 0
    @MainActor static var created = 0
    @MainActor init() {
      Self.alive += 1
      Self.created += 1
    }
    deinit { MainActor.assumeIsolated { Self.alive -= 1 } }
  }

  /// Records what the owner's `onDisappear` read.
  final class Seen { var counts: [Int] = [] }

  struct Owner: View {
    @StateObject var model = Tracked()
    let seen: Seen
    var body: some View {
      Button("Owned \(model.count)") { model.count += 1 }
        .onDisappear { seen.counts.append(model.count) }
    }
  }

  /// Stores its child's view value and shows it conditionally.
  struct StoringParent: View {
    let child: Owner
    @State private var show = true
    var body: some View {
      VStack {
        Button("Hide") { show = false }
        Button("Show") { show = true }
        if show { child }
      }
    }
  }

  @Test func aStoredViewValueDoesNotKeepAnEndedIdentitysObject() throws {
    Tracked.alive = 0
    Tracked.created = 0
    let seen = Seen()
    var host: ViewHost?
    let reported = try ObservationDiagnostics.capture {
      let mounted = ViewHost(StoringParent(child: Owner(seen: seen)))
      host = mounted
      try mounted.tap("Owned 0")
      try mounted.tap("Hide")
    }
    #expect(seen.counts == [1], "onDisappear still reads the identity's object")
    #expect(Tracked.alive == 0, "the identity ended: its object is released")
    #expect(reported.isEmpty)

    try host?.tap("Show")
    #expect(host?.texts.contains("Owned 0") == true, "a new identity, a new object")
    #expect(Tracked.created == 2)
    #expect(Tracked.alive == 1)
  }

  /// Opens once; a wait after the opening returns at once.
  @MainActor final class Gate {
    private var isOpen = false
    private var waiting: CheckedContinuation<Void, Never>?

    func wait() async {
      if isOpen { return }
      await withCheckedContinuation { waiting = $0 }
    }

    func open() {
      isOpen = true
      waiting?.resume()
      waiting = nil
    }
  }

  /// Loads after its identity may have ended, then writes to its model.
  struct Loader: View {
    @StateObject var model = Tracked()
    let gate: Gate
    var body: some View {
      Text("Loader \(model.count)").task {
        await gate.wait()
        model.count = 42
      }
    }
  }

  struct StoringLoaderParent: View {
    let child: Loader
    @State private var show = true
    var body: some View {
      VStack {
        Button("Hide") { show = false }
        if show { child }
      }
    }
  }

  @Test func aTaskStillRunningKeepsTheObjectUntilItFinishes() async throws {
    Tracked.alive = 0
    Tracked.created = 0
    let gate = Gate()
    let host = ViewHost(StoringLoaderParent(child: Loader(gate: gate)))
    try host.tap("Hide")
    #expect(host.runningTaskCount == 1, "cancelled, not finished")
    gate.open()
    await host.settle()
    #expect(Tracked.created == 1, "the task wrote to the identity's object, not to a new one")
    #expect(Tracked.alive == 0, "released once the task finished")
  }
}
