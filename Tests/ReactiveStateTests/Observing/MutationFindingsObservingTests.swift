import CReactiveState
import ReactiveState
import Testing

// Behaviour of the observing layer that mutation testing found unpinned.

private struct CaptureFailure: Error {}

@Suite struct MutationFindingsObservingTests {
  // Pins: a `capture` whose body throws still uninstalls itself (the thread gets its previous one).
  @Test func aCaptureWhoseBodyThrowsStopsCapturing() throws {
    let thread = rs_current_thread()
    let before = thread.pointee.diagnostics_capture
    let outer = try ObservationDiagnostics.capture {
      let enclosing = thread.pointee.diagnostics_capture
      #expect(throws: CaptureFailure.self) {
        try ObservationDiagnostics.capture {
          ObservationDiagnostics._report("MutationFindingsInsideTheThrowingCapture")
          throw CaptureFailure()
        }
      }
      // The thrown-out capture is gone (else a later report would write into it).
      try #require(thread.pointee.diagnostics_capture == enclosing)
      ObservationDiagnostics._report("MutationFindingsAfterTheThrow")
    }
    #expect(thread.pointee.diagnostics_capture == before)
    #expect(
      outer.map(\.message) == [
        "MutationFindingsInsideTheThrowingCapture", "MutationFindingsAfterTheThrow",
      ])
    #expect(throws: CaptureFailure.self) {
      try ObservationDiagnostics.capture { throw CaptureFailure() }
    }
    #expect(thread.pointee.diagnostics_capture == before, "nothing left installed at the top level")
  }
}
