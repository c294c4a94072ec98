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
    #expect(message.contains("observe { … } invalidated itself"))
    #expect(message.contains("\\LoopingCounter."), "names the key path")
    #expect(message.contains("To fix:"))
    #expect(message.contains("withoutObservationTracking"))
    withExtendedLifetime(token) {}
  }

  @Test func aCaptureCollectsThisThreadsDiagnosticsIncludingNestedOnes() {
    @Sendable func cycle(_ name: String) {
      let holder = Box<Computed<Int>?>(nil)
      let cyclic = Computed(name) { (try holder.value?.get() ?? 0) + 1 }
      holder.value = cyclic
      _ = try? cyclic.get()
      holder.value = nil
    }
    var inner: [ObservationDiagnostic] = []
    let outer = ObservationDiagnostics.capture {
      cycle("OuterCycle")
      inner = ObservationDiagnostics.capture { cycle("InnerCycle") }
      // Reported on another thread while this capture runs: not this capture's.
      let done = DispatchSemaphore(value: 0)
      Thread.detachNewThread {
        cycle("OtherThreadCycle")
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
