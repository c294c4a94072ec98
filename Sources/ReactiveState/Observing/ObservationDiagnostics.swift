import CReactiveState

/// A problem the engine detected at run time and recovered from (it never traps for these;
/// a read of ``Computed/value`` that fails after one, such as a cycle, still traps: read
/// with ``Computed/get()`` to handle it).
public struct ObservationDiagnostic: Sendable, CustomStringConvertible {
  /// What went wrong, in words that name the culprit (an observer's last invalidating key
  /// path, a derived value's name).
  public let message: String

  /// The message.
  public var description: String { message }
}

/// Where the engine reports ``ObservationDiagnostic``s: kept in a bounded log and passed to
/// an optional handler. Runtime issues are values, so tests can assert them.
public enum ObservationDiagnostics {
  private static let lock = WordLock()
  nonisolated(unsafe) private static var log: [ObservationDiagnostic] = []
  nonisolated(unsafe) private static var installedHandler:
    (@Sendable (ObservationDiagnostic) -> Void)?

  /// The most recent diagnostics (at most 100), oldest first.
  public static var recent: [ObservationDiagnostic] { lock.withLock { log } }

  /// Called for each new diagnostic, on the thread that detected it. Default: none (the log
  /// still records it).
  public static var handler: (@Sendable (ObservationDiagnostic) -> Void)? {
    get { lock.withLock { installedHandler } }
    set { lock.withLock { installedHandler = newValue } }
  }

  /// Empties the log.
  public static func clear() { lock.withLock { log.removeAll() } }

  /// Runs `body` and returns, oldest first, every diagnostic reported on the calling thread
  /// while it ran — also by nested captures, which see their own share too.
  ///
  /// The way to assert a runtime issue in a test: `recent` is shared by the whole process
  /// and keeps only the last 100, so other work running in parallel can push a diagnostic
  /// out of it or add look-alikes. A diagnostic reported on another thread (a writer thread
  /// running an observer) is not captured. Captured diagnostics are still logged and passed
  /// to the ``handler``.
  public static func capture(_ body: () throws -> Void) rethrows -> [ObservationDiagnostic] {
    let capture = DiagnosticCapture()
    let thread = rs_current_thread()
    capture.parent = thread.pointee.diagnostics_capture
    thread.pointee.diagnostics_capture = Unmanaged.passUnretained(capture).toOpaque()
    defer { thread.pointee.diagnostics_capture = capture.parent }
    try body()
    return capture.diagnostics
  }

  /// Records a diagnostic, as the library's own are (for `ReactiveStateMacrosFree`; not for
  /// general use).
  public static func _report(_ message: String) { report(message) }

  static func report(_ message: String) {
    let diagnostic = ObservationDiagnostic(message: message)
    var pointer = rs_current_thread().pointee.diagnostics_capture
    while let current = pointer {
      let capture = Unmanaged<DiagnosticCapture>.fromOpaque(current).takeUnretainedValue()
      capture.diagnostics.append(diagnostic)
      pointer = capture.parent
    }
    let handler = lock.withLock {
      log.append(diagnostic)
      if log.count > 100 { log.removeFirst(log.count - 100) }
      return installedHandler
    }
    handler?(diagnostic)
  }
}

/// One running ``ObservationDiagnostics/capture(_:)``: what it collected, and the capture it
/// is nested in (both touched only by the thread running it).
private final class DiagnosticCapture {
  var diagnostics: [ObservationDiagnostic] = []
  var parent: UnsafeMutableRawPointer?
}
