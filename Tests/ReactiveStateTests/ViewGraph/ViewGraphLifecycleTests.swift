import ReactiveStateMacrosFree
import Testing

/// `onAppear`, `onDisappear`, `task`, `task(id:)`, effect order, `close()`.
@MainActor
@Suite struct ViewGraphLifecycleTests {
  @MainActor final class Log {
    var entries: [String] = []
  }

  struct Detail: View {
    let name: String
    let log: Log
    var body: some View {
      Text(name)
        .onAppear { log.entries.append("appear \(name)") }
        .onDisappear { log.entries.append("disappear \(name)") }
    }
  }

  struct Switcher: View {
    @State private var showsA = true
    @State private var count = 0
    let log: Log
    var body: some View {
      VStack {
        Button("switch") { showsA.toggle() }
        Button("bump") { count += 1 }
        if showsA { Detail(name: "A", log: log) } else { Detail(name: "B", log: log) }
      }
      .onChange(of: showsA) { log.entries.append("change") }
      .task(id: showsA) {
        log.entries.append("task start \(showsA)")
        await Task.yield()
      }
    }
  }

  @Test func appearOnceDisappearOnEndAndEffectsRunInPhaseOrder() async throws {
    let log = Log()
    let host = ViewHost(Switcher(log: log))
    #expect(log.entries == ["appear A"], "tasks start in a Task, not synchronously")
    #expect(host.runningTaskCount == 1)
    try host.tap("bump")
    #expect(log.entries == ["appear A"], "re-evaluation does not appear again")
    await host.settle()
    #expect(log.entries == ["appear A", "task start true"])
    log.entries = []
    try host.tap("switch")
    #expect(log.entries == ["disappear A", "appear B", "change"])
    #expect(host.runningTaskCount == 1, "id change restarted the task")
    await host.settle()
    #expect(log.entries.last == "task start false")
    #expect(host.runningTaskCount == 0)
  }

  @MainActor final class Probe {
    var started = 0
    var cancelled = 0
    var finished = 0
    var gate: CheckedContinuation<Void, Never>?

    func run() async {
      started += 1
      await withTaskCancellationHandler {
        await withCheckedContinuation { gate = $0 }
      } onCancel: {
        Task { @MainActor in self.release() }
      }
      if Task.isCancelled { cancelled += 1 } else { finished += 1 }
    }

    func release() {
      gate?.resume()
      gate = nil
    }
  }

  struct Loader: View {
    let probe: Probe
    var body: some View { Text("loader").task { await probe.run() } }
  }

  struct Screen: View {
    @State var showsLoader = true
    let probe: Probe
    var body: some View {
      VStack {
        Button("hide") { showsLoader = false }
        if showsLoader { Loader(probe: probe) }
      }
    }
  }

  @Test func taskIsCancelledWhenItsIdentityEnds() async throws {
    let probe = Probe()
    let host = ViewHost(Screen(probe: probe))
    for _ in 0..<1_000 where probe.gate == nil { await Task.yield() }
    #expect(probe.started == 1)
    try host.tap("hide")
    await host.settle()
    #expect(probe.cancelled == 1 && probe.finished == 0)
    #expect(host.runningTaskCount == 0)
  }

  @Test func closingTheHostEndsStateAndCancelsTasks() async {
    let probe = Probe()
    let log = Log()
    let host = ViewHost(
      VStack {
        Loader(probe: probe)
        Detail(name: "D", log: log)
      })
    for _ in 0..<1_000 where probe.gate == nil { await Task.yield() }
    host.close()
    #expect(log.entries == ["appear D", "disappear D"])
    await host.settle()
    #expect(probe.cancelled == 1)
    #expect(host.isClosed)
  }

  @Test func closingBeforeTheFirstManualFlushRunsAppearBeforeDisappear() {
    let log = Log()
    let host = ViewHost(Detail(name: "D", log: log), mode: .manual)
    #expect(log.entries.isEmpty, "manual mode: effects wait for a flush")
    host.close()
    #expect(log.entries == ["appear D", "disappear D"])
  }

  @Test func taskWithoutIDIsNotRestartedByReEvaluation() async throws {
    let probe = Probe()
    struct Bumping: View {
      @State var count = 0
      let probe: Probe
      var body: some View {
        Button("bump \(count)") { count += 1 }.task { await probe.run() }
      }
    }
    let host = ViewHost(Bumping(probe: probe))
    for _ in 0..<1_000 where probe.gate == nil { await Task.yield() }
    try host.tap("bump 0")
    try host.tap("bump 1")
    await Task.yield()
    #expect(probe.started == 1)
    #expect(host.runningTaskCount == 1)
    probe.release()
    await host.settle()
    #expect(probe.finished == 1)
  }
  struct LoaderList: View {
    @State var rows = [1, 2, 3]
    let probes: [Int: Probe]
    var body: some View {
      VStack {
        Button("remove 2") { rows.removeAll { $0 == 2 } }
        ForEach(rows, id: \.self) { row in Loader(probe: probes[row]!) }
      }
    }
  }

  @Test func removingAListRowCancelsThatRowsTaskOnly() async throws {
    let probes = Dictionary(uniqueKeysWithValues: [1, 2, 3].map { ($0, Probe()) })
    let host = ViewHost(LoaderList(probes: probes))
    for _ in 0..<1_000 where probes.values.contains(where: { $0.gate == nil }) {
      await Task.yield()
    }
    #expect([1, 2, 3].map { probes[$0]?.started } == [1, 1, 1])
    try host.tap("remove 2")
    for _ in 0..<1_000 where probes[2]?.cancelled == 0 { await Task.yield() }
    #expect([1, 2, 3].map { probes[$0]?.cancelled } == [0, 1, 0])
    #expect(host.runningTaskCount == 2, "the other rows' tasks run on")
    host.close()
    await host.settle()
    #expect([1, 2, 3].map { probes[$0]?.cancelled } == [1, 1, 1])
  }
}

/// Ordering details of post-pass effects.
@MainActor
@Suite struct ViewGraphEffectOrderTests {
  @MainActor final class Log {
    var entries: [String] = []
  }

  struct Nested: View {
    let log: Log
    var body: some View {
      VStack {
        Text("inner").onAppear { log.entries.append("appear inner") }
          .onDisappear { log.entries.append("disappear inner") }
      }
      .onAppear { log.entries.append("appear outer") }
      .onDisappear { log.entries.append("disappear outer") }
    }
  }

  struct Toggler: View {
    @State private var shows = true
    @State private var value = 0
    let log: Log
    var body: some View {
      VStack {
        Button("hide") { shows = false }
        Button("twice") {
          value += 1
          value += 1
        }
        if shows { Nested(log: log) }
      }
      .onChange(of: value) { old, new in log.entries.append("change \(old)→\(new)") }
    }
  }

  @Test func appearIsPreOrderDisappearIsPostOrder() throws {
    let log = Log()
    let host = ViewHost(Toggler(log: log))
    #expect(log.entries == ["appear outer", "appear inner"])
    log.entries = []
    try host.tap("hide")
    #expect(log.entries == ["disappear inner", "disappear outer"])
  }

  @Test func onChangeNeverSeesIntermediateValuesOfOnePass() throws {
    let log = Log()
    let host = ViewHost(Toggler(log: log))
    log.entries = []
    try host.tap("twice")
    #expect(log.entries == ["change 0→2"])
  }

}

/// A host released without `close()`.
@MainActor
@Suite struct ViewGraphHostReleaseTests {
  struct Waiting: View {
    let requests: PendingRequests<Void>
    var body: some View { Text("waiting").task { _ = try? await requests.request() } }
  }

  @Test func releasingTheHostCancelsItsTasks() async {
    let requests = PendingRequests<Void>()
    var host: ViewHost? = ViewHost(Waiting(requests: requests))
    await requests.waitForRequests(1)
    #expect(host?.runningTaskCount == 1)
    host = nil
    for _ in 0..<1_000 where requests.cancelled.isEmpty { await Task.yield() }
    #expect(requests.cancelled == [0])
  }
}
