/// The state of a load, as the article's `LoadPhase`: a small state machine whose transitions
/// keep the previous value visible during a refresh and never turn a cancellation into an
/// error. Drive it with ``LatestTask``:
///
/// ```swift
/// func reload() {
///   phase.begin()
///   loads.run({ try await service.articles() }) { self.phase.finish($0) }
/// }
/// func cancel() { loads.cancel(); phase.cancel() }
/// ```
public enum LoadPhase<Value> {
  /// Nothing requested yet.
  case idle
  /// A request is running; `previous` is the value shown meanwhile (a refresh).
  case loading(previous: Value?)
  /// The last request succeeded (an empty collection is a success, not an error).
  case loaded(Value)
  /// The last request failed; `previous` is still shown.
  case failed(message: String, previous: Value?)

  /// The value to show: the loaded one, or the previous one while loading or after a failure.
  public var value: Value? {
    switch self {
    case .idle: nil
    case .loading(let previous): previous
    case .loaded(let value): value
    case .failed(_, let previous): previous
    }
  }

  /// True while a request is running.
  public var isLoading: Bool {
    if case .loading = self { return true }
    return false
  }

  /// The failure message, if the last request failed.
  public var errorMessage: String? {
    if case .failed(let message, _) = self { return message }
    return nil
  }

  /// A request starts: `.loading`, keeping the value currently shown.
  public mutating func begin() { self = .loading(previous: value) }

  /// The latest request completed: `.loaded`, or `.failed` keeping the value shown so far. A
  /// `CancellationError` is no failure: it ends the request as ``cancel()`` does.
  public mutating func finish(_ result: Result<Value, any Error>) {
    switch result {
    case .success(let value): self = .loaded(value)
    case .failure(let error) where error is CancellationError: cancel()
    case .failure(let error):
      self = .failed(message: String(describing: error), previous: value)
    }
  }

  /// The request was cancelled: back to what was shown before it (never `.failed`).
  public mutating func cancel() {
    guard case .loading(let previous) = self else { return }
    self = previous.map { .loaded($0) } ?? .idle
  }
}

extension LoadPhase: Equatable where Value: Equatable {}
extension LoadPhase: Sendable where Value: Sendable {}
