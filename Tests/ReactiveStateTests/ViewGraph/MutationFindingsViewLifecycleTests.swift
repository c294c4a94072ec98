import ReactiveStateMacrosFree
import Testing

/// Lifecycle promises of the view host (tasks, queued effects, `close()` and `settle()`,
/// presentations, `LatestTask`) that a second round of mutation testing found unpinned: each
/// test fails when the behaviour it names is broken.
@MainActor
@Suite struct MutationFindingsViewLifecycleTests {
  // MARK: - Tasks restarted by an id change

  /// Opens once; every wait, before or after the opening, returns once it is open.
  @MainActor final class OpenOnce {
    private var isOpen = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func wait() async {
      if isOpen { return }
      await withCheckedContinuation { waiting.append($0) }
    }

    func open() {
      isOpen = true
      for continuation in waiting { continuation.resume() }
      waiting = []
    }
  }

  /// Restarts its task on "Next round"; each task writes the note once the gate opens.
  struct RestartingWriter: View {
    let gate: OpenOnce
    @State private var round = 0
    @State private var note = "none"
    var body: some View {
      VStack {
        Button("Next round") { round += 1 }
        Text("note \(note)")
      }
      .task(id: round) {
        await gate.wait()
        note = "written"
      }
    }
  }

  /// Shows the writer until "Remove writer".
  struct RemovesRestartingWriter: View {
    let gate: OpenOnce
    @State private var shown = true
    var body: some View {
      VStack {
        Button("Remove writer") { shown = false }
        if shown { RestartingWriter(gate: gate) }
      }
    }
  }

  /// Pins that every task an identity started, restarted ones included, is clean-up of that
  /// identity: one cancelled by an id change that writes the identity's state after it ended
  /// is dropped silently, as the latest task's write is.
  @Test func aTaskCancelledByAnIDChangeWritingAfterTheEndIsSilent() async throws {
    let gate = OpenOnce()
    let host = ViewHost(RemovesRestartingWriter(gate: gate))
    try host.tap("Next round")
    #expect(host.runningTaskCount == 2, "the first task is cancelled, not finished")
    try host.tap("Remove writer")
    gate.open()
    await host.settle()
    #expect(host.runningTaskCount == 0)
    #expect(host.issues.isEmpty)
  }

  // MARK: - onDismiss of a presenter whose identity ended

  /// Counts its sheet's dismissals in its own state.
  struct CountingPresenter: View {
    @State private var isPresented = false
    @State private var dismissals = 0
    var body: some View {
      Button("Present \(dismissals)") { isPresented = true }
        .sheet(isPresented: $isPresented, onDismiss: countDismissal) { Text("presented") }
    }

    func countDismissal() { dismissals += 1 }
  }

  /// Shows the presenter until "Remove presenter".
  struct RemovesCountingPresenter: View {
    @State private var shown = true
    var body: some View {
      VStack {
        Button("Remove presenter") { shown = false }
        if shown { CountingPresenter() }
      }
    }
  }

  /// Pins that the `onDismiss` run because the presenting view's identity ended is clean-up of
  /// that identity: its write to the presenter's own state is dropped silently.
  @Test func onDismissOfARemovedPresenterWritingItsStateIsSilent() throws {
    let host = ViewHost(RemovesCountingPresenter())
    try host.tap("Present 0")
    #expect(host.texts.contains("presented"))
    try host.tap("Remove presenter")
    #expect(!host.texts.contains("presented"))
    #expect(host.issues.isEmpty)
  }

  /// Shows whether it is presented.
  struct PresentationReader: View {
    @Environment(\.isPresented) private var isPresented
    var body: some View { Text("presented \(isPresented)") }
  }

  /// Shows a reader, and presents another in a sheet.
  struct PresentsAReader: View {
    @State private var isPresented = false
    var body: some View {
      VStack {
        Button("Present reader") { isPresented = true }
        PresentationReader()
      }
      .sheet(isPresented: $isPresented) { PresentationReader() }
    }
  }

  /// Pins that presented content reads `\.isPresented` as true, and the presenter's own content
  /// as false.
  @Test func presentedContentReadsIsPresentedAsTrue() throws {
    let host = ViewHost(PresentsAReader())
    #expect(host.texts == ["Present reader", "presented false"])
    try host.tap("Present reader")
    #expect(host.texts == ["Present reader", "presented false", "presented true"])
  }

  // MARK: - Queued effects are pending updates

  /// Records, in each of its two `onAppear` actions, whether the host has pending updates.
  struct ReportsPendingOnAppear: View {
    let probe: PendingProbe
    var body: some View {
      VStack {
        Text("first").onAppear { probe.note() }
        Text("second").onAppear { probe.note() }
      }
    }
  }

  /// What each `onAppear` saw.
  @MainActor final class PendingProbe {
    weak var host: ViewHost?
    var seen: [Bool] = []
    func note() { seen.append(host?.hasPendingUpdates ?? false) }
  }

  /// Pins that ``ViewHost/hasPendingUpdates`` counts queued effects though no view is dirty: a
  /// manual host's mount effects before its first flush, and while an effect runs, the effects
  /// of its batch still to run.
  @Test func queuedEffectsArePendingUpdates() {
    let probe = PendingProbe()
    let host = ViewHost(ReportsPendingOnAppear(probe: probe), mode: .manual)
    probe.host = host
    #expect(host.hasPendingUpdates)
    host.flush()
    #expect(probe.seen == [true, false])
    #expect(!host.hasPendingUpdates)
  }

  /// Shows `a` of its model.
  struct ShowsA: View {
    let model: Triple
    var body: some View { Text("a \(model.a)") }
  }

  /// Pins that ``ViewHost/close()`` drops the changes not yet flushed: nothing is pending
  /// afterwards.
  @Test func closingDropsUnflushedChanges() {
    let model = Triple()
    let host = ViewHost(ShowsA(model: model), mode: .manual)
    host.flush()
    model.a = 1
    #expect(host.hasPendingUpdates)
    host.close()
    #expect(!host.hasPendingUpdates)
    #expect(host.texts == ["a 0"])
  }

  // MARK: - Settling every window

  /// Marks itself done from its task.
  struct FinishesInATask: View {
    @State private var done = false
    var body: some View { Text("done \(done)").task { done = true } }
  }

  /// A window without tasks, and one whose task finishes on its own.
  struct PlainAndWorkerApp: App {
    var body: some Scene {
      WindowGroup(id: "plain") { Text("plain") }
      WindowGroup(id: "worker") { FinishesInATask() }
    }
  }

  /// Pins that ``AppHost/settle()`` settles every open window, not only the first.
  @Test func settlingAnAppSettlesEveryWindow() async throws {
    let app = AppHost(PlainAndWorkerApp())
    try app.openWindow(id: "plain")
    let worker = try app.openWindow(id: "worker")
    await app.settle()
    #expect(worker.host.runningTaskCount == 0)
    #expect(worker.host.texts == ["done true"])
  }

  // MARK: - LatestTask

  /// Pins that a stale run finishing after a newer one started leaves the newer one running:
  /// `isRunning` stays true and `wait()` waits for the newer run's commit.
  @Test func aStaleRunFinishingDoesNotEndTheLatestRun() async {
    let requests = PendingRequests<Int>()
    requests.honorsCancellation = false
    let latest = LatestTask<Int>()
    var committed: [Int] = []
    let first = latest.run({ try await requests.request("a") }, commit: { _ in })
    await requests.waitForRequests(1)
    latest.run(
      { try await requests.request("b") }, commit: { committed.append((try? $0.get()) ?? -1) })
    await requests.waitForRequests(2)
    requests.succeed(0, 1)
    await first.value
    #expect(latest.isRunning, "the second run has not finished")
    requests.succeed(1, 2)
    await latest.wait()
    #expect(committed == [2])
    #expect(!latest.isRunning)
  }

  /// Pins that a run whose task was cancelled through the handle `run` returned commits
  /// nothing, even a success, though no newer run replaced it.
  @Test func aRunCancelledThroughItsTaskCommitsNothing() async {
    let requests = PendingRequests<Int>()
    requests.honorsCancellation = false
    let latest = LatestTask<Int>()
    var committed: [Int] = []
    let task = latest.run(
      { try await requests.request() }, commit: { committed.append((try? $0.get()) ?? -1) })
    await requests.waitForRequests(1)
    task.cancel()
    requests.succeed(0, 7)
    await task.value
    #expect(committed.isEmpty)
    #expect(!latest.isRunning)
  }

  /// Pins that ``LatestTask/cancel()`` moves ``LatestTask/revision`` on, as every run does.
  @Test func cancellingMovesTheRevisionOn() {
    let latest = LatestTask<Int>()
    latest.run({ 1 }, commit: { _ in })
    latest.cancel()
    #expect(latest.revision == 2)
    #expect(!latest.isRunning)
  }
}
