/// Closes the presentation (sheet) whose content it was read from, as SwiftUI's
/// `DismissAction`: read it with `@Environment(\.dismiss)` and call it (`dismiss()`).
///
/// Outside any presentation it does nothing, and so does one kept from a presentation that
/// ended (it never closes a later one). Two values are equal when they close the same
/// presentation, so re-evaluating the sheet does not invalidate the views that read it.
@MainActor
public struct DismissAction: Equatable {
  @MainActor
  final class Box {
    var action: @MainActor () -> Void = {}
  }
  nonisolated let box: Box?

  /// Nonisolated: `EnvironmentKey.defaultValue` builds one (closing nothing).
  nonisolated init(closing box: Box?) { self.box = box }

  /// Closes the presentation that provided this action (sets its `isPresented` binding to
  /// false or its `item` binding to nil), after which the content's identity ends.
  public func callAsFunction() { box?.action() }

  /// True when both close the same presentation.
  public nonisolated static func == (lhs: DismissAction, rhs: DismissAction) -> Bool {
    lhs.box === rhs.box
  }
}

private enum DismissKey: EnvironmentKey {
  static var defaultValue: DismissAction { DismissAction(closing: nil) }
}

private enum IsPresentedKey: EnvironmentKey {
  static var defaultValue: Bool { false }
}

extension EnvironmentValues {
  /// The action closing the nearest enclosing presentation (a no-op outside one).
  public var dismiss: DismissAction {
    get { self[DismissKey.self] }
    set { self[DismissKey.self] = newValue }
  }

  /// True inside presented content.
  public var isPresented: Bool {
    get { self[IsPresentedKey.self] }
    set { self[IsPresentedKey.self] = newValue }
  }
}
