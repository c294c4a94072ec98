/// A problem the engine detected at run time and recovered from (it never traps for these).
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

  static func report(_ message: String) {
    let diagnostic = ObservationDiagnostic(message: message)
    let handler = lock.withLock {
      log.append(diagnostic)
      if log.count > 100 { log.removeFirst(log.count - 100) }
      return installedHandler
    }
    handler?(diagnostic)
  }
}
