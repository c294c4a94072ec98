import ReactiveStateMacrosFree
import Testing

/// A child holding models in a collection (`let items: [Item]`) is compared element by
/// element by identity, as a single model field is: the collection's `==` would use the
/// models' own, so a new instance equal by its `==` (say, by id) would skip the child, which
/// would go on showing and observing the old instance. SwiftUI re-evaluates it too (it
/// compares the collection's storage, not the elements' `==`).
@MainActor
@Suite struct ModelCollectionEqualityTests {
  /// Equal by id, as list items often are.
  final class Item: TrackedObservable, Equatable {
    let observationRegistrar = ObservationRegistrar()
    let id: Int
    @Tracked var title: String
    init(id: Int, title: String) {
      self.id = id
      self.title = title
    }
    nonisolated static func == (lhs: Item, rhs: Item) -> Bool { lhs.id == rhs.id }
  }

  final class Store: TrackedObservable {
    let observationRegistrar = ObservationRegistrar()
    @Tracked var items: [Item]
    @Tracked var revision = 0
    init(_ items: [Item]) { self.items = items }
  }

  struct Titles: View {
    let items: [Item]
    var body: some View { Text(items.map(\.title).joined(separator: ", ")) }
  }

  struct NamedTitles: View {
    let items: [String: [Item?]]
    var body: some View {
      Text(items.values.flatMap { $0 }.compactMap { $0?.title }.joined(separator: ", "))
    }
  }

  struct Screen: View {
    let store: Store
    var body: some View {
      Text("revision \(store.revision)")
      Titles(items: store.items)
      NamedTitles(items: ["all": store.items.map { $0 }])
    }
  }

  @Test func newInstancesEqualByTheirOwnEqualityReachTheChild() {
    let store = Store([Item(id: 1, title: "old")])
    let host = ViewHost(Screen(store: store))
    #expect(host.texts == ["revision 0", "old", "old"])
    let replacement = Item(id: 1, title: "new")
    // Equal by the macro's rule (`==`), so this write alone notifies nobody; the parent
    // runs again for `revision` and hands the children the new instance.
    store.items = [replacement]
    store.revision += 1
    host.flush()
    #expect(host.texts == ["revision 1", "new", "new"])
    replacement.title = "newer"
    host.flush()
    #expect(host.texts == ["revision 1", "newer", "newer"], "the child observes the new instance")
  }

  @Test func theSameInstancesStillSkipTheChild() {
    let store = Store([Item(id: 1, title: "a"), Item(id: 2, title: "b")])
    let host = ViewHost(Screen(store: store))
    host.resetCounts()
    store.revision += 1
    host.flush()
    #expect(host.bodyCount(Screen.self) == 1)
    #expect(host.bodyCount(Titles.self) == 0)
    #expect(host.bodyCount(NamedTitles.self) == 0)
  }
}
