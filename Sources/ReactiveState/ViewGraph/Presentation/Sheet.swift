/// A view that presents `sheet` content while a binding says so, as SwiftUI's
/// `sheet(isPresented:onDismiss:content:)` and `sheet(item:onDismiss:content:)`.
///
/// The presented content is mounted as a child identity of this view (after `content`), keyed
/// by the item's id: presenting another item ends the previous content's identity (state,
/// tasks) and mounts a new one. It renders under a `Sheet` line, and ``ViewHost`` actions
/// (``ViewHost/tap(_:occurrence:)``, …) find its controls. Its environment carries a
/// ``DismissAction`` (`@Environment(\.dismiss)`) that resets the binding while that
/// presentation lasts. `onDismiss` runs after the pass in which the presentation ended,
/// however it ended — also when this view's own identity ends — after the ended content's
/// `onDisappear` and before any `onAppear` of that pass (another item's content included).
public struct SheetView<Content: View, Sheet: View>: View, PrimitiveView {
  let content: Content
  /// Reads the binding (tracked: this node re-expands when it changes).
  let presented: @MainActor () -> (id: AnyHashable, content: Sheet)?
  let reset: @MainActor () -> Void
  let onDismiss: (@MainActor () -> Void)?

  func makeChildren(_ node: ViewNode) -> [ChildSpec] {
    var specs = [ChildSpec(component: .slot(0), view: content)]
    let state = node.sheetState
    let current = presented()
    if state.shownID != current?.id {
      if state.shownID != nil, let onDismiss { node.host.enqueueEffect(.dismiss, onDismiss) }
      state.beginPresentation(current?.id)
    }
    state.dismiss.action = reset
    state.onDismiss = onDismiss
    if let current {
      let action = DismissAction(closing: state.dismiss)
      let root = current.content.environment(\.dismiss, action).environment(\.isPresented, true)
      specs.append(
        ChildSpec(
          component: .explicit(ErasedID(SheetIdentity(id: current.id))),
          view: PresentedSheet(content: root)))
    }
    return specs
  }

  func renderLine(_ node: ViewNode) -> String? { nil }
}

/// The root of presented content: renders as a `Sheet` line above it.
public struct PresentedSheet<Content: View>: View, PrimitiveView {
  let content: Content

  func makeChildren(_ node: ViewNode) -> [ChildSpec] {
    [ChildSpec(component: .slot(0), view: content)]
  }

  func renderLine(_ node: ViewNode) -> String? { "Sheet" }
}

/// The identity component of presented content.
struct SheetIdentity: Hashable, CustomStringConvertible {
  var id: AnyHashable
  var description: String { "sheet(\(id))" }
}

/// What a ``SheetView`` node remembers: the presented id, the target of that presentation's
/// dismiss action, and what to run when it ends.
@MainActor
final class SheetState: KillableCell {
  private unowned let host: ViewHost
  private(set) var shownID: AnyHashable?
  /// One per presentation: a `DismissAction` read from an ended presentation closes nothing,
  /// not the one shown now.
  private(set) var dismiss = DismissAction.Box()
  var onDismiss: (@MainActor () -> Void)?

  init(host: ViewHost) { self.host = host }

  /// The presented id changed: the previous presentation's dismiss action goes dead.
  func beginPresentation(_ id: AnyHashable?) {
    dismiss.action = {}
    dismiss = DismissAction.Box()
    shownID = id
  }

  /// The presenting view's identity ended: so did its presentation.
  func kill() {
    guard shownID != nil else { return }
    beginPresentation(nil)
    if let onDismiss { host.enqueueEffect(.dismiss, ViewGraphRuntime.endOfLifeAction(onDismiss)) }
  }
}

extension ViewNode {
  var sheetState: SheetState {
    if let existing = slots[-3] as? SheetState { return existing }
    let created = SheetState(host: host)
    slots[-3] = created
    return created
  }
}

extension View {
  /// Presents `sheet()` while `isPresented` is true (see ``SheetView``).
  public func sheet<Sheet: View>(
    isPresented: Binding<Bool>, onDismiss: (@MainActor () -> Void)? = nil,
    @ViewBuilder content sheet: @escaping @MainActor () -> Sheet
  ) -> SheetView<Self, Sheet> {
    SheetView(
      content: self,
      presented: { isPresented.wrappedValue ? (AnyHashable(true), sheet()) : nil },
      reset: { isPresented.wrappedValue = false }, onDismiss: onDismiss)
  }

  /// Presents `sheet(item)` while `item` is non-nil; a different item id is a new
  /// presentation (see ``SheetView``).
  public func sheet<Item: Identifiable, Sheet: View>(
    item: Binding<Item?>, onDismiss: (@MainActor () -> Void)? = nil,
    @ViewBuilder content sheet: @escaping @MainActor (Item) -> Sheet
  ) -> SheetView<Self, Sheet> {
    SheetView(
      content: self,
      presented: { item.wrappedValue.map { (AnyHashable($0.id), sheet($0)) } },
      reset: { item.wrappedValue = nil }, onDismiss: onDismiss)
  }
}
