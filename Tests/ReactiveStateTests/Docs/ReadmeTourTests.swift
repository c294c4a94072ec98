// The README's five-minute tour, step by step. Each block between `// README:` markers is
// the README's snippet of the same name, verbatim (Scripts/check-readme-snippets.py checks that
// they stay in sync; CI runs it). Edit both together.
import ReactiveStateMacrosFree
import Testing

// README: hand-written-model
final class Book: Observable, @unchecked Sendable {
  private let registrar = ObservationRegistrar()
  private var _title = ""

  var title: String {
    get {
      registrar.access(self, keyPath: \.title)
      return _title
    }
    set {
      // No notification when the new value == the old one (the macro's rule).
      registrar.withMutation(of: self, keyPath: \.title, replacing: _title, with: newValue) {
        _title = newValue
      }
    }
  }
}
// README: end

// README: tracked-model
struct Product: Equatable, Sendable {
  var name: String
  var price: Int
}

final class Cart: TrackedObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()

  @Tracked var products: [Product] = []
  @Tracked var discount = 0
  var lastSaved: [Product] = []  // a plain stored property is not observed
}
// README: end

// README: one-shot
/// Collects what an observer saw. Observers run synchronously on the mutating thread, so a
/// single-threaded test can share a plain box with them.
final class Recorder<Value>: @unchecked Sendable {
  var values: [Value] = []
}

@Test func oneShot() {
  let book = Book()
  let seen = Recorder<String>()
  withObservationTracking {
    _ = book.title  // every observable property read here is tracked
  } onChange: {
    seen.values.append(book.title)  // once, on the mutating thread, before the store
  }
  book.title = "Dune"
  book.title = "Emma"  // one-shot: already fired
  #expect(seen.values == [""])  // it ran before "Dune" was stored
}
// README: end

// README: continuous
@Test func continuous() {
  let cart = Cart()
  let seen = Recorder<Int>()
  let token = observe {
    seen.values.append(cart.products.count)  // runs now, then after each change it depends on
  }
  cart.products.append(Product(name: "Tea", price: 4))
  cart.discount = 1  // not read by the observer: no run
  withTransaction {  // several changes, one run at the end
    cart.products.append(Product(name: "Jam", price: 3))
    cart.products.append(Product(name: "Bread", price: 2))
  }
  token.cancel()  // or drop the token
  cart.products.removeAll()
  #expect(seen.values == [0, 1, 3])
}
// README: end

// README: derived
@Test func derived() {
  let cart = Cart()
  let total = Computed("total") {
    cart.products.reduce(0) { $0 + $1.price } - cart.discount
  }
  let seen = Recorder<Int>()
  let token = observe { seen.values.append(total.value) }
  cart.products.append(Product(name: "Tea", price: 4))
  cart.products[0].name = "Green tea"  // recomputes, same total: the observer does not run
  cart.discount = 1
  #expect(seen.values == [0, 4, 3])
  token.cancel()
}
// README: end

// README: derived-property
final class Order: TrackedObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  @Tracked var lines: [Product] = []
  @Derived({ (order: Order) in order.lines.reduce(0) { $0 + $1.price } }) var total: Int
}

@Test func derivedProperty() {
  let order = Order()
  let seen = Recorder<Int>()
  let token = observe { seen.values.append(order.total) }
  order.lines.append(Product(name: "Tea", price: 4))
  order.lines[0].name = "Green tea"  // same total: the observer does not run
  #expect(seen.values == [0, 4])
  token.cancel()
}
// README: end

// README: async-sequence
@Test func asyncSequence() async {
  let book = Book()
  var titles = ObservedValues { book.title }.makeAsyncIterator()
  #expect(await titles.next() == "")  // the current value at once
  book.title = "Dune"
  book.title = "Emma"  // bursts coalesce: the next element is the latest value
  #expect(await titles.next() == "Emma")
}
// README: end

// README: view
@MainActor
final class TodoList: TrackedObservable {
  let observationRegistrar = ObservationRegistrar()
  @Tracked var todos: [String] = []
  @Tracked var draft = ""

  var canAdd: Bool { !draft.isEmpty }
  func add() {
    todos.append(draft)
    draft = ""
  }
}

struct TodoListView: View {
  @State private var model = TodoList()  // owned by this view's identity

  var body: some View {
    @Bindable var model = model  // a local projection for `$model.draft`
    VStack {
      TextField("New todo", text: $model.draft)
      Button("Add", action: model.add).disabled(!model.canAdd)
      ForEach(model.todos, id: \.self) { Text($0) }
      TodoCount(count: model.todos.count)
    }
  }
}

struct TodoCount: View {
  let count: Int
  var body: some View { Text("\(count) to do") }
}

@MainActor @Test func addingATodo() throws {
  let host = ViewHost(TodoListView())
  #expect(host.isDisabled("Add"))
  try host.type("Buy milk", into: "New todo")  // finds the field by its title
  try host.tap("Add")  // pending updates run at the end of each action
  #expect(host.texts == ["Add", "Buy milk", "1 to do"])
  #expect(host.value(of: "New todo") == "")
  #expect(host.bodyCount(TodoCount.self) == 2)  // mount + one count change; typing did not touch it
  #expect(host.issues.isEmpty)
  print(host.render())  // the tree as text
  print(host.updateLog)  // why each body was evaluated
}
// README: end

// README: legacy
final class Settings: ObservableObject, @unchecked Sendable {
  @Published var theme = "light"
  @Published var fontSize = 14
}

@Test func legacyObservableObject() {
  let settings = Settings()
  let seen = Recorder<String>()
  var bag = Set<AnyCancellable>()
  settings.objectWillChange.sink { seen.values.append("still \(settings.theme)") }.store(in: &bag)
  settings.$fontSize.sink { seen.values.append("font size \($0)") }.store(in: &bag)
  settings.theme = "dark"  // every subscriber of the object hears it, before the store
  #expect(seen.values == ["font size 14", "still light"])
}
// README: end

// README: main-actor-model
@MainActor final class Counter: Observable {
  private let registrar = MainActorObservationRegistrar()
  private var _count = 0

  var count: Int {
    get {
      registrar.access(self, keyPath: \.count)
      return _count
    }
    set {
      registrar.withMutation(of: self, keyPath: \.count, replacing: _count, with: newValue) {
        _count = newValue
      }
    }
  }
}

@MainActor @Test func mainActorModel() {
  let counter = Counter()
  let seen = Recorder<String>()
  withObservationTracking {
    _ = counter.count
  } onChange: {
    seen.values.append("changed")
  }
  counter.count = 1
  counter.count = 2  // one-shot: already fired
  #expect(seen.values == ["changed"])
}
// README: end
