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
  final class Item: Observable, Equatable {
    private let registrar = ObservationRegistrar()
    let id: Int
    private var _title: String
    init(id: Int, title: String) {
      self.id = id
      _title = title
    }
    var title: String {
      get {
        registrar.access(self, keyPath: \.title)
        return _title
      }
      set {
        registrar.withMutation(of: self, keyPath: \.title, replacing: _title, with: newValue) {
          _title = newValue
        }
      }
    }
    nonisolated static func == (lhs: Item, rhs: Item) -> Bool { lhs.id == rhs.id }
  }

  final class Store: Observable {
    private let registrar = ObservationRegistrar()
    private var _items: [Item]
    private var _revision = 0
    init(_ items: [Item]) { _items = items }
    var items: [Item] {
      get {
        registrar.access(self, keyPath: \.items)
        return _items
      }
      set { registrar.withMutation(of: self, keyPath: \.items) { _items = newValue } }
    }
    var revision: Int {
      get {
        registrar.access(self, keyPath: \.revision)
        return _revision
      }
      set { registrar.withMutation(of: self, keyPath: \.revision) { _revision = newValue } }
    }
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
    store.items = [replacement]
    host.flush()
    #expect(host.texts == ["revision 0", "new", "new"])
    replacement.title = "newer"
    host.flush()
    #expect(host.texts == ["revision 0", "newer", "newer"], "the child observes the new instance")
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
