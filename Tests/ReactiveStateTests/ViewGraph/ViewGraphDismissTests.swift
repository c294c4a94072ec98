import ReactiveStateMacrosFree
import Testing

/// A presentation's end: `DismissAction` closes only the presentation that provided it, and
/// `onDismiss` runs however the presentation ended.
@MainActor
@Suite struct ViewGraphDismissTests {
  @MainActor final class Log {
    var dismissActions: [DismissAction] = []
    var dismissed: [String] = []
    /// Appearances, disappearances and dismissals, in order.
    var events: [String] = []
  }

  struct Content: View {
    @Environment(\.dismiss) private var dismiss
    let name: String
    let log: Log
    var body: some View {
      Button("Close \(name)") { dismiss() }
        .onAppear {
          log.dismissActions.append(dismiss)
          log.events.append("appear \(name)")
        }
        .onDisappear { log.events.append("disappear \(name)") }
    }
  }

  struct Item: Identifiable, Equatable {
    var id: Int
  }

  struct ItemPresenter: View {
    @State private var item: Item?
    let log: Log
    var body: some View {
      VStack {
        Button("Show 1") { item = Item(id: 1) }
        Button("Show 2") { item = Item(id: 2) }
      }
      .sheet(item: $item, onDismiss: recordDismissal) { item in
        Content(name: "\(item.id)", log: log)
      }
    }

    func recordDismissal() {
      log.dismissed.append("item")
      log.events.append("dismiss")
    }
  }

  struct FlagPresenter: View {
    @State private var isPresented = false
    let log: Log
    var body: some View {
      Button("Show") { isPresented = true }
        .sheet(isPresented: $isPresented, onDismiss: recordDismissal) {
          Content(name: "flag", log: log)
        }
    }

    func recordDismissal() { log.dismissed.append("flag") }
  }

  @Test func aDismissFromAnEndedPresentationDoesNotCloseTheNextItem() throws {
    let log = Log()
    let host = ViewHost(ItemPresenter(log: log))
    try host.tap("Show 1")
    try host.tap("Show 2")
    #expect(host.texts.contains("Close 2"))
    host.perform { log.dismissActions[0]() }
    #expect(host.texts.contains("Close 2"))
    #expect(log.dismissed == ["item"], "only the switch from item 1 ended a presentation")
    try host.tap("Close 2")
    #expect(!host.texts.contains("Close 2"))
    #expect(log.dismissed == ["item", "item"])
  }

  /// Switching to another item ends the first presentation before the next one appears, as
  /// SwiftUI presents the next sheet once the first is dismissed: an `onDismiss` that resets
  /// shared state runs before the new content's `onAppear`, not after it.
  @Test func switchingItemsDismissesBeforeTheNextContentAppears() throws {
    let log = Log()
    let host = ViewHost(ItemPresenter(log: log))
    try host.tap("Show 1")
    #expect(log.events == ["appear 1"])
    try host.tap("Show 2")
    #expect(log.events == ["appear 1", "disappear 1", "dismiss", "appear 2"])
  }

  @Test func aDismissFromAnEndedPresentationDoesNotCloseAReopenedSheet() throws {
    let log = Log()
    let host = ViewHost(FlagPresenter(log: log))
    try host.tap("Show")
    try host.tap("Close flag")
    try host.tap("Show")
    host.perform { log.dismissActions[0]() }
    #expect(host.texts.contains("Close flag"))
    host.perform { log.dismissActions[1]() }
    #expect(!host.texts.contains("Close flag"), "the current presentation's own action closes it")
  }

  struct PresenterHolder: View {
    @State private var showsPresenter = true
    let log: Log
    var body: some View {
      VStack {
        Button("Remove presenter") { showsPresenter = false }
        if showsPresenter { FlagPresenter(log: log) }
      }
    }
  }

  @Test func onDismissRunsWhenThePresentingViewIsRemoved() throws {
    let log = Log()
    let host = ViewHost(PresenterHolder(log: log))
    try host.tap("Show")
    try host.tap("Remove presenter")
    #expect(!host.texts.contains("Close flag"))
    #expect(log.dismissed == ["flag"])
    #expect(host.issues.isEmpty)
  }
}
