import ReactiveStateMacrosFree
import Testing

/// Promises of the view graph's lifecycle, modifiers, presentations and scenes (effects,
/// `onAppear`/`onDisappear`, `.task`, `close()`, `onChange`, environment writers, sheets,
/// `AppHost`) that a further round of mutation testing found unpinned: each test fails when the
/// behaviour it names is broken.
@MainActor
@Suite struct MutationFindingsViewLifecycleRound2Tests {
  /// Records what the views under test did, in order.
  @MainActor final class Log {
    var entries: [String] = []
  }

  // MARK: - onDismiss of a presenter removed while nothing is presented

  /// Presents a sheet on "Present"; logs its dismissals.
  struct LoggingPresenter: View {
    let log: Log
    @State private var isPresented = false
    var body: some View {
      Button("Present") { isPresented = true }
        .sheet(isPresented: $isPresented, onDismiss: logDismissal) { Text("presented") }
    }

    func logDismissal() { log.entries.append("dismissed") }
  }

  /// Shows the presenter until "Remove presenter".
  struct RemovesLoggingPresenter: View {
    let log: Log
    @State private var shown = true
    var body: some View {
      VStack {
        Button("Remove presenter") { shown = false }
        if shown { LoggingPresenter(log: log) }
      }
    }
  }

  /// Pins that removing a presenter whose sheet is not shown runs no `onDismiss`: only a
  /// presentation that was shown is dismissed when its presenter's identity ends.
  @Test func removingAPresenterShowingNothingRunsNoOnDismiss() throws {
    let log = Log()
    let host = ViewHost(RemovesLoggingPresenter(log: log))
    try host.tap("Remove presenter")
    #expect(log.entries.isEmpty)
    #expect(host.texts == ["Remove presenter"])
  }

  // MARK: - onDismiss of a removed presenter runs after its content disappeared

  /// Presents content that logs its disappearance; logs its dismissals.
  struct PresenterOfLoggingContent: View {
    let log: Log
    @State private var isPresented = false
    var body: some View {
      Button("Present") { isPresented = true }
        .onDisappear { log.entries.append("presenter disappeared") }
        .sheet(isPresented: $isPresented, onDismiss: logDismissal) {
          Text("presented").onDisappear { log.entries.append("content disappeared") }
        }
    }

    func logDismissal() { log.entries.append("dismissed") }
  }

  /// Shows the presenter until "Remove presenter".
  struct RemovesPresenterOfLoggingContent: View {
    let log: Log
    @State private var shown = true
    var body: some View {
      VStack {
        Button("Remove presenter") { shown = false }
        if shown { PresenterOfLoggingContent(log: log) }
      }
    }
  }

  /// Pins that when a presenter's identity ends with its sheet shown, `onDismiss` runs in the
  /// dismiss phase: after every `onDisappear` of that removal (the presented content's and the
  /// presenter's own), as when the binding closes the sheet.
  @Test func onDismissOfARemovedPresenterRunsAfterEveryDisappear() throws {
    let log = Log()
    let host = ViewHost(RemovesPresenterOfLoggingContent(log: log))
    try host.tap("Present")
    #expect(host.texts.contains("presented"))
    try host.tap("Remove presenter")
    #expect(log.entries.last == "dismissed")
    #expect(log.entries.count == 3)
  }

  // MARK: - The removal path runs the latest onDismiss

  /// Presents a sheet whose `onDismiss` logs the label of the view value that carried it.
  struct LabelledPresenter: View {
    let label: String
    let log: Log
    @State private var isPresented = false
    var body: some View {
      Button("Present") { isPresented = true }
        .sheet(isPresented: $isPresented, onDismiss: logDismissal) { Text("presented") }
    }

    func logDismissal() { log.entries.append("dismissed \(label)") }
  }

  /// Relabels the presenter on "Relabel" and removes it on "Remove presenter".
  struct RelabelsPresenter: View {
    let log: Log
    @State private var label = "first"
    @State private var shown = true
    var body: some View {
      VStack {
        Button("Relabel") { label = "second" }
        Button("Remove presenter") { shown = false }
        if shown { LabelledPresenter(label: label, log: log) }
      }
    }
  }

  /// Pins that the `onDismiss` run when the presenter's identity ends is the one carried by
  /// its last view value, not the one it carried when the presentation began.
  @Test func removingAPresenterRunsTheOnDismissOfItsLastViewValue() throws {
    let log = Log()
    let host = ViewHost(RelabelsPresenter(log: log))
    try host.tap("Present")
    try host.tap("Relabel")
    #expect(host.texts.contains("presented"))
    try host.tap("Remove presenter")
    #expect(log.entries == ["dismissed second"])
  }

  // MARK: - A removed identity's task is cancelled after its onDisappear

  /// Set by a task's cancellation handler, which runs on the thread that cancels it (here the
  /// main thread, where the host cancels its tasks).
  final class CancelFlag: @unchecked Sendable {
    var isSet = false
  }

  /// A task that waits until it is cancelled, and tells when it started waiting.
  @MainActor final class CancellableWaiter {
    let cancelled = CancelFlag()
    private var gate: CheckedContinuation<Void, Never>?
    private var hasStarted = false
    private var startWaiter: CheckedContinuation<Void, Never>?

    /// The task's action: waits for its cancellation.
    func run() async {
      await withTaskCancellationHandler {
        await withCheckedContinuation { continuation in
          gate = continuation
          hasStarted = true
          startWaiter?.resume()
          startWaiter = nil
        }
      } onCancel: { [cancelled] in
        cancelled.isSet = true
        Task { @MainActor in self.release() }
      }
    }

    /// Returns once the task waits.
    func waitUntilStarted() async {
      if hasStarted { return }
      await withCheckedContinuation { startWaiter = $0 }
    }

    private func release() {
      gate?.resume()
      gate = nil
    }
  }

  /// Runs the waiter's task; its `onDisappear` (outside the task modifier, so its identity
  /// ends after the task's: teardown is post-order) logs whether the task was cancelled already.
  struct CancelWatcher: View {
    let waiter: CancellableWaiter
    let log: Log
    var body: some View {
      Text("watched")
        .task { await waiter.run() }
        .onDisappear { log.entries.append("disappear, cancelled \(waiter.cancelled.isSet)") }
    }
  }

  /// Shows the watcher until "Remove watcher".
  struct RemovesCancelWatcher: View {
    let waiter: CancellableWaiter
    let log: Log
    @State private var shown = true
    var body: some View {
      VStack {
        Button("Remove watcher") { shown = false }
        if shown { CancelWatcher(waiter: waiter, log: log) }
      }
    }
  }

  /// Pins that an ended identity's task is cancelled in the task phase, after every
  /// `onDisappear` of that removal, even one whose identity ended after the task's: the
  /// `onDisappear` still sees the task running.
  @Test func aRemovedIdentitysTaskIsCancelledAfterItsOnDisappear() async throws {
    let log = Log()
    let waiter = CancellableWaiter()
    let host = ViewHost(RemovesCancelWatcher(waiter: waiter, log: log))
    await waiter.waitUntilStarted()
    try host.tap("Remove watcher")
    #expect(log.entries == ["disappear, cancelled false"])
    #expect(waiter.cancelled.isSet)
    await host.settle()
    #expect(host.runningTaskCount == 0)
  }

  // MARK: - A task restarted by an id change keeps the new id

  /// Logs each start of its task, whose id is the round; "Bump" re-evaluates it with the same id.
  struct RoundRunner: View {
    let log: Log
    @State private var round = 0
    @State private var bumps = 0
    var body: some View {
      VStack {
        Button("Next round") { round += 1 }
        Button("Bump \(bumps)") { bumps += 1 }
      }
      .task(id: round) { log.entries.append("start \(round)") }
    }
  }

  /// Pins that a `.task(id:)` restarted by an id change compares later updates with the new id:
  /// re-evaluating it with that same id starts nothing.
  @Test func aTaskRestartedByAnIDChangeIsNotRestartedByTheSameID() async throws {
    let log = Log()
    let host = ViewHost(RoundRunner(log: log))
    await host.settle()
    try host.tap("Next round")
    await host.settle()
    try host.tap("Bump 0")
    #expect(host.texts.contains("Bump 1"))
    await host.settle()
    #expect(log.entries == ["start 0", "start 1"])
    #expect(host.runningTaskCount == 0)
  }
}
