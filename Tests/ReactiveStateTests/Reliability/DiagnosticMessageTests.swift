import Foundation
import ReactiveState
import Testing

/// Every diagnostic names what went wrong (the observer, key path, derived value, view or id
/// involved) and says how to fix it ("To fix: …" with a concrete remedy). Covers the
/// engine's `ObservationDiagnostics` and the view host's `RuntimeIssue`s.
@Suite struct DiagnosticMessageTests {
  final class LoopingCounter: ReactiveState.Observable, @unchecked Sendable {
    private let registrar = ReactiveState.ObservationRegistrar()
    private var _count = 0
    var count: Int {
      get {
        registrar.access(self, keyPath: \.count)
        return _count
      }
      set { registrar.withMutation(of: self, keyPath: \.count) { _count = newValue } }
    }
  }

  @Test func aSelfInvalidatingObserverSaysWhatAndHowToFix() throws {
    let model = LoopingCounter()
    let (token, reported) = observeCapturingDiagnostics { model.count += 1 }
    let message = try #require(reported.last { $0.contains("LoopingCounter") })
    #expect(message.contains("observe { … } at ReactiveStateTests/"), "names where it started")
    #expect(message.contains("invalidated itself"))
    #expect(message.contains("\\LoopingCounter."), "names the key path")
    #expect(message.contains("To fix:"))
    #expect(message.contains("withoutObservationTracking"))
    withExtendedLifetime(token) {}
  }

  /// Stopped at the rerun limit, the observer stays registered: the next change made from
  /// outside runs it again (and, looping again, it is stopped and reported again).
  @Test func aStoppedSelfInvalidatingObserverRunsAgainAtTheNextChange() {
    let model = LoopingCounter()
    let runs = LockedBox(0)
    let (token, firstReports) = observeCapturingDiagnostics {
      runs.value += 1
      model.count += 1
    }
    #expect(firstReports.count { $0.contains("invalidated itself") } == 1)
    let runsWhenStopped = runs.value
    #expect(runsWhenStopped > 1)
    let laterReports = ObservationDiagnostics.capture { model.count = 0 }
    #expect(runs.value > runsWhenStopped, "the outside write ran it again")
    #expect(laterReports.count { $0.message.contains("invalidated itself") } == 1)
    let runsBeforeCancel = runs.value
    token.cancel()
    model.count = 0
    #expect(runs.value == runsBeforeCancel, "cancelled: no run")
  }

  /// Two observers that keep changing each other: the first one's write runs the second
  /// inline, whose write changes what the first reads. The loop stops with a diagnostic that
  /// names the observer by where it was started (both are `observe { … }`) and does not claim
  /// it wrote what it reads itself.
  @Test func aCycleThroughTwoObserversStopsWithADiagnosticNamingWhereItStarted() throws {
    let (a, b) = (LoopingCounter(), LoopingCounter())
    var tokens: [ObservationToken] = []
    let line = #line + 2
    let reported = ObservationDiagnostics.capture {
      tokens.append(observe { b.count = a.count + 1 })
      tokens.append(observe { a.count = b.count + 1 })
    }
    let message = try #require(reported.last { $0.message.contains("invalidated") }?.message)
    let sites = [line, line + 1].map { "observe { … } at \(#fileID):\($0) invalidated itself" }
    #expect(sites.contains { message.hasPrefix($0) }, "\(message)")
    #expect(message.contains("directly, or through the observers its writes ran"))
    #expect(message.contains("\\LoopingCounter."))
    withExtendedLifetime(tokens) {}
  }

  /// The loop goes through a derived value: the diagnostic still names the property that
  /// keeps changing (it used to say "an observed value").
  @Test func aSelfInvalidationThroughADerivedValueNamesTheWrittenProperty() throws {
    let model = LoopingCounter()
    let doubled = Computed { model.count * 2 }
    let (token, reported) = observeCapturingDiagnostics {
      _ = doubled.value
      model.count += 1
    }
    let message = try #require(reported.last { $0.contains("invalidated itself") })
    #expect(message.contains("\\LoopingCounter."), "names the key path: \(message)")
    withExtendedLifetime(token) {}
  }

  /// Reports one diagnostic naming `name`: a derived value that reads itself.
  static func cycle(_ name: String) {
    let holder = Box<Computed<Int>?>(nil)
    let cyclic = Computed(name) { (try holder.value?.get() ?? 0) + 1 }
    holder.value = cyclic
    _ = try? cyclic.get()
    holder.value = nil
  }

  @Test func aCaptureCollectsThisThreadsDiagnosticsIncludingNestedOnes() {
    var inner: [ObservationDiagnostic] = []
    let outer = ObservationDiagnostics.capture {
      Self.cycle("OuterCycle")
      inner = ObservationDiagnostics.capture { Self.cycle("InnerCycle") }
      // Reported on another thread while this capture runs: not this capture's.
      let done = DispatchSemaphore(value: 0)
      Thread.detachNewThread {
        Self.cycle("OtherThreadCycle")
        done.signal()
      }
      done.wait()
    }
    #expect(inner.map(\.message).contains { $0.contains("InnerCycle") })
    #expect(!inner.map(\.message).contains { $0.contains("OuterCycle") })
    let outerMessages = outer.map(\.message)
    #expect(outerMessages.contains { $0.contains("OuterCycle") })
    #expect(outerMessages.contains { $0.contains("InnerCycle") }, "sees nested captures' share")
    #expect(!outerMessages.contains { $0.contains("OtherThreadCycle") })
    #expect(ObservationDiagnostics.capture {}.isEmpty)
  }

  /// The process-wide channel, which also sees what `capture` cannot (a diagnostic reported
  /// on another thread): the handler is called with each diagnostic, `recent` keeps the last
  /// 100, oldest first, and `clear()` empties it. Other suites report concurrently, so the
  /// test looks only at names carrying its own tag.
  @Test func theHandlerAndTheRecentLogSeeDiagnosticsFromEveryThread() {
    let tag = "Tagged\(UInt32.random(in: 0...UInt32.max))x"
    let handled = LockedBox<[String]>([])
    let previous = ObservationDiagnostics.handler
    ObservationDiagnostics.handler = { diagnostic in
      if diagnostic.message.contains(tag) { handled.value.append(diagnostic.description) }
      previous?(diagnostic)
    }
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      Self.cycle("\(tag)OtherThread")
      done.signal()
    }
    done.wait()
    for index in 0..<150 { Self.cycle("\(tag)Burst\(index)") }
    ObservationDiagnostics.handler = previous
    Self.cycle("\(tag)AfterTheHandler")

    let names = ["\(tag)OtherThread"] + (0..<150).map { "\(tag)Burst\($0)" }
    #expect(handled.value.map { $0.prefix { $0 != " " } } == names.map { Substring($0) })
    let recent = ObservationDiagnostics.recent.map(\.message)
    // Full: over 150 were logged since it was last emptied (only this test empties it).
    #expect(recent.count == 100)
    let ours = recent.filter { $0.contains(tag) }.map { String($0.prefix { $0 != " " }) }
    #expect(ours.last == "\(tag)AfterTheHandler", "still logged without a handler")
    #expect(!ours.contains("\(tag)OtherThread"), "pushed out by 151 later diagnostics")
    #expect(!ours.contains("\(tag)Burst0"))
    #expect(ours.dropLast() == ArraySlice(names.suffix(ours.count - 1)), "oldest first")
    ObservationDiagnostics.clear()
    #expect(!ObservationDiagnostics.recent.contains { $0.message.contains(tag) })
  }

  @Test func aDerivedCycleSaysWhatAndHowToFix() throws {
    let holder = Box<Computed<Int>?>(nil)
    let cyclic = Computed("CyclicSubtotal") { (try holder.value?.get() ?? 0) + 1 }
    holder.value = cyclic
    let reported = ObservationDiagnostics.capture { _ = try? cyclic.get() }
    let message = try #require(reported.map(\.message).last { $0.contains("CyclicSubtotal") })
    #expect(message.contains("CyclicSubtotal reads itself"))
    #expect(message.contains("To fix: remove the read of CyclicSubtotal"))
    holder.value = nil
  }

  // MARK: View host

  struct WritesStateInBody: View {
    @State private var count = 0
    var body: some View {
      count += 1
      return Text("count \(count)")
    }
  }

  struct Row: Identifiable {
    let id: Int
  }

  struct DuplicateRows: View {
    var body: some View {
      ForEach([Row(id: 1), Row(id: 1)]) { row in Text("row \(row.id)") }
    }
  }

  struct Feedback: View {
    let model: Triple
    var body: some View {
      let seen = model.a
      model.a += 1
      return Text("a \(seen)")
    }
  }

  @MainActor
  @Test func viewHostIssuesSayWhatAndHowToFix() throws {
    let stateHost = ViewHost(WritesStateInBody())
    let stateIssue = try #require(stateHost.issues.first)
    #expect(stateIssue.message.contains("WritesStateInBody.count"))
    #expect(stateIssue.message.contains("To fix: write state from an action"))

    let rowsHost = ViewHost(DuplicateRows())
    let duplicate = try #require(rowsHost.issues.first { $0.kind == .duplicateID })
    #expect(duplicate.message.contains("the ID 1 occurs more than once"))
    #expect(duplicate.message.contains("To fix: give every element a unique id"))

    let model = Triple()
    let loopHost = ViewHost(Feedback(model: model), mode: .manual)
    loopHost.flush()
    let write = try #require(loopHost.issues.first { $0.kind == .modelWriteDuringUpdate })
    #expect(write.message.contains("Feedback"))
    #expect(write.message.contains("To fix: move the write out of body"))
    let loop = try #require(loopHost.issues.first { $0.kind == .updateLoop })
    #expect(loop.message.contains("still dirty: Feedback"))
    #expect(loop.message.contains("To fix:"))
  }
}
