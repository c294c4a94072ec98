import ReactiveStateMacrosFree

/// `true` when `text` has a non-whitespace character (Foundation-free `trimmingCharacters`).
func hasContent(_ text: String) -> Bool { text.contains { !$0.isWhitespace } }

/// `text` without leading and trailing whitespace.
func trimmed(_ text: String) -> String {
  String(text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
}

/// S1 (seed 002): the reading list model (`@MainActor`, as in the article).
@MainActor
final class ReadingList: Observable {
  private let registrar = ObservationRegistrar()
  private var _books: [String] = []
  private var _draft = ""

  var books: [String] {
    get {
      registrar.access(self, keyPath: \.books)
      return _books
    }
    set {
      registrar.withMutation(of: self, keyPath: \.books, replacing: _books, with: newValue) {
        _books = newValue
      }
    }
  }

  var draft: String {
    get {
      registrar.access(self, keyPath: \.draft)
      return _draft
    }
    set {
      registrar.withMutation(of: self, keyPath: \.draft, replacing: _draft, with: newValue) {
        _draft = newValue
      }
    }
  }

  var canAdd: Bool { hasContent(draft) }

  func addBook() {
    guard canAdd else { return }
    books.append(draft)
    draft = ""
  }
}

/// S3, S5 (seed 000): the article store's fields that the summary and adapters use.
final class ArticleStore: Observable {
  private let registrar = ObservationRegistrar()
  private var _articles: [String] = []
  private var _selectedIndex: Int?
  private var _query = ""
  private var _draftTitle: String?

  var articles: [String] {
    get {
      registrar.access(self, keyPath: \.articles)
      return _articles
    }
    set {
      registrar.withMutation(of: self, keyPath: \.articles, replacing: _articles, with: newValue) {
        _articles = newValue
      }
    }
  }

  var selectedIndex: Int? {
    get {
      registrar.access(self, keyPath: \.selectedIndex)
      return _selectedIndex
    }
    set {
      registrar.withMutation(
        of: self, keyPath: \.selectedIndex, replacing: _selectedIndex, with: newValue
      ) { _selectedIndex = newValue }
    }
  }

  var query: String {
    get {
      registrar.access(self, keyPath: \.query)
      return _query
    }
    set {
      registrar.withMutation(of: self, keyPath: \.query, replacing: _query, with: newValue) {
        _query = newValue
      }
    }
  }

  var draftTitle: String? {
    get {
      registrar.access(self, keyPath: \.draftTitle)
      return _draftTitle
    }
    set {
      registrar.withMutation(
        of: self, keyPath: \.draftTitle, replacing: _draftTitle, with: newValue
      ) {
        _draftTitle = newValue
      }
    }
  }

  var selectionTitle: String? { selectedIndex.map { articles[$0] } }
}

/// S12 (seed 001): a search service and the model a screen owns.
final class SearchService {
  let name: String
  init(name: String) { self.name = name }
  func results(for query: String) -> [String] { query.isEmpty ? [] : ["\(name):\(query)"] }
}

final class SearchModel: Observable {
  private let registrar = ObservationRegistrar()
  let service: SearchService
  private var _query = ""
  private var _results: [String] = []
  init(service: SearchService) { self.service = service }

  var query: String {
    get {
      registrar.access(self, keyPath: \.query)
      return _query
    }
    set {
      registrar.withMutation(of: self, keyPath: \.query, replacing: _query, with: newValue) {
        _query = newValue
      }
    }
  }

  var results: [String] {
    get {
      registrar.access(self, keyPath: \.results)
      return _results
    }
    set {
      registrar.withMutation(of: self, keyPath: \.results, replacing: _results, with: newValue) {
        _results = newValue
      }
    }
  }

  func run() { results = service.results(for: query) }
}

/// S14 (seed 001): a cart whose total is derived, never stored.
struct CartItem: Equatable {
  var priceCents: Int
  var quantity: Int
}

final class CartModel: Observable {
  private let registrar = ObservationRegistrar()
  private var _items: [CartItem] = []

  var items: [CartItem] {
    get {
      registrar.access(self, keyPath: \.items)
      return _items
    }
    set {
      registrar.withMutation(of: self, keyPath: \.items, replacing: _items, with: newValue) {
        _items = newValue
      }
    }
  }

  var totalCents: Int { items.reduce(0) { $0 + $1.priceCents * $1.quantity } }
}

/// S18 (seed 004): the food truck model.
final class FoodTruckModel: Observable {
  private let registrar = ObservationRegistrar()
  private var _orders: [String] = []
  private var _donuts: [String] = ["Glazed"]
  private var _revenue = 0

  var orders: [String] {
    get {
      registrar.access(self, keyPath: \.orders)
      return _orders
    }
    set {
      registrar.withMutation(of: self, keyPath: \.orders, replacing: _orders, with: newValue) {
        _orders = newValue
      }
    }
  }

  var donuts: [String] {
    get {
      registrar.access(self, keyPath: \.donuts)
      return _donuts
    }
    set {
      registrar.withMutation(of: self, keyPath: \.donuts, replacing: _donuts, with: newValue) {
        _donuts = newValue
      }
    }
  }

  var revenue: Int {
    get {
      registrar.access(self, keyPath: \.revenue)
      return _revenue
    }
    set {
      registrar.withMutation(of: self, keyPath: \.revenue, replacing: _revenue, with: newValue) {
        _revenue = newValue
      }
    }
  }

  var orderCount: Int { orders.count }
}

/// S20 (seed 004): the account read from the environment.
final class Account: Observable {
  private let registrar = ObservationRegistrar()
  private var _userName: String?

  var userName: String? {
    get {
      registrar.access(self, keyPath: \.userName)
      return _userName
    }
    set {
      registrar.withMutation(of: self, keyPath: \.userName, replacing: _userName, with: newValue) {
        _userName = newValue
      }
    }
  }

  func showLogin() { userName = "Ada" }
  func logOut() { userName = nil }
}

/// S21, S22 (seed 004): a donut.
final class Donut: Observable, Identifiable {
  private let registrar = ObservationRegistrar()
  let id: Int
  private var _name: String
  private var _flavor = ""
  init(id: Int, name: String) {
    self.id = id
    _name = name
  }

  var name: String {
    get {
      registrar.access(self, keyPath: \.name)
      return _name
    }
    set {
      registrar.withMutation(of: self, keyPath: \.name, replacing: _name, with: newValue) {
        _name = newValue
      }
    }
  }

  var flavor: String {
    get {
      registrar.access(self, keyPath: \.flavor)
      return _flavor
    }
    set {
      registrar.withMutation(of: self, keyPath: \.flavor, replacing: _flavor, with: newValue) {
        _flavor = newValue
      }
    }
  }
}

/// S23 (seed 004): storage outside the model, and a model exposing it through hand-written
/// `access` / `withMutation`.
final class ExternalNameStore {
  var name = "Plain"
}

final class ManualDonut: Observable {
  private let registrar = ObservationRegistrar()
  let location: ExternalNameStore
  init(location: ExternalNameStore) { self.location = location }

  var name: String {
    get {
      registrar.access(self, keyPath: \.name)
      return location.name
    }
    set { registrar.withMutation(of: self, keyPath: \.name) { location.name = newValue } }
  }
}
