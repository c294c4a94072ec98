/// A programmer error the host detected and recovered from, recorded instead of crashing so
/// tests can assert it (SwiftUI logs these as runtime warnings or traps).
public struct RuntimeIssue: Sendable, Equatable, CustomStringConvertible {
  /// The category of a ``RuntimeIssue``.
  public enum Kind: Sendable, Equatable {
    /// `@State` written while a body (or a container's expansion) was being evaluated; the
    /// write was dropped and evaluation was not re-entered.
    case stateWriteDuringUpdate
    /// An observable model property changed while a body was being evaluated; the affected
    /// views were scheduled for the next pass (bounded by ``ViewHost/maxPassesPerFlush``).
    case modelWriteDuringUpdate
    /// `@Environment(Model.self)` or `@EnvironmentObject` found no ancestor
    /// `.environment(model)` or `.environmentObject(model)`; the view's body was not evaluated.
    case missingEnvironmentObject
    /// A `ForEach` produced the same id twice; later rows got fresh identities.
    case duplicateID
    /// Updates kept scheduling further updates; the flush stopped after the pass limit.
    case updateLoop
    /// `@State` (or another identity-owned storage) was written after its identity ended; the
    /// write was ignored. Not recorded for clean-up of the views that ended with it (in the
    /// same removal): writes from their `onDisappear` or `onDismiss` actions, or from their
    /// `.task`s finishing after cancellation, are dropped silently.
    case writeToEndedIdentity
    /// A legacy `ObservableObject` sent `objectWillChange` while a body was being evaluated;
    /// its observers update in a later pass.
    case objectWillChangeDuringUpdate
    /// A legacy `ObservableObject` sent `objectWillChange` off the main thread (SwiftUI:
    /// "Publishing changes from background threads is not allowed"); the views observing it
    /// were still updated, on the main actor. Recorded once per view it invalidated.
    case publishedFromBackgroundThread
  }

  /// The category.
  public var kind: Kind
  /// A human-readable explanation naming the view and, where known, the type or property.
  public var message: String
  /// Structural path of the view involved.
  public var viewPath: String

  /// `kind: message`.
  public var description: String { "\(kind): \(message)" }
}
