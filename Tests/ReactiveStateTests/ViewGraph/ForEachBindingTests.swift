import ReactiveStateMacrosFree
import Testing

/// `ForEach($todos) { $todo in … }`: a binding to a mutable collection is a collection of
/// bindings to its elements, keyed by the elements' ids, as in SwiftUI.
@MainActor
@Suite struct ForEachBindingTests {
  struct Todo: Identifiable, Equatable {
    let id: String
    var done = false
  }

  /// A row editing its element through the binding, with state of its own.
  struct TodoRow: View {
    @Binding var todo: Todo
    @State private var edits = 0
    var body: some View {
      VStack {
        Toggle(todo.id, isOn: $todo.done)
        Button("edit \(todo.id)") { edits += 1 }
        Text("\(todo.id) edits \(edits)")
      }
    }
  }

  struct TodoList: View {
    @State private var todos = [Todo(id: "milk"), Todo(id: "eggs")]
    var body: some View {
      VStack {
        ForEach($todos) { $todo in TodoRow(todo: $todo) }
        Text("done \(todos.filter(\.done).map(\.id).joined(separator: ","))")
        Button("Reverse") { todos.reverse() }
      }
    }
  }

  @Test func rowsEditTheirElementAndKeepTheirStateWhenTheElementsMove() throws {
    let host = ViewHost(TodoList())
    try host.toggle("eggs")
    #expect(host.texts.contains("done eggs"), "the row's binding wrote its element")
    try host.tap("edit milk")
    try host.tap("Reverse")
    let rows = { host.texts.filter { $0.contains(" edits ") } }
    #expect(rows() == ["eggs edits 0", "milk edits 1"], "each row's state moved with its element")
    try host.toggle("milk")
    #expect(host.texts.contains("done eggs,milk"), "after the move, each row edits its own element")
    #expect(host.value(of: "milk") == "true" && host.value(of: "eggs") == "true")
  }

  @Test func aBindingToACollectionIsACollectionOfElementBindings() {
    var storage = [Todo(id: "a"), Todo(id: "b")]
    let todos = Binding(get: { storage }, set: { storage = $0 })
    #expect(todos.map(\.id) == ["a", "b"], "each element binding has its element's id")
    todos[1].wrappedValue.done = true
    #expect(storage.map(\.done) == [false, true])
  }

  /// Found by the session-41 re-entrancy review: a binding a removed row kept trapped with
  /// "Index out of range" when used (SwiftUI traps too). Deliberate difference: it reports an
  /// `ObservationDiagnostic` instead; a read returns the last element the binding read and a
  /// write is ignored.
  @Test func aBindingToARemovedElementReportsInsteadOfTrapping() {
    var storage = [Todo(id: "a"), Todo(id: "b"), Todo(id: "c")]
    let todos = Binding(get: { storage }, set: { storage = $0 })
    let last = todos[2]
    #expect(last.wrappedValue == Todo(id: "c"))
    storage.removeLast()
    var read: Todo?
    let diagnostics = ObservationDiagnostics.capture {
      read = last.wrappedValue
      last.wrappedValue.done = true
    }
    #expect(read == Todo(id: "c"), "the last element the binding read")
    #expect(storage == [Todo(id: "a"), Todo(id: "b")], "the write was ignored")
    // The read, then the in-place write's read and write.
    #expect(
      diagnostics.map { $0.message.contains("the write was ignored") } == [false, false, true])
    #expect(
      diagnostics.allSatisfy {
        $0.message.contains("binding to element 2 of a Array<")
          && $0.message.contains("shrank to 2 elements")
      })
    storage.append(Todo(id: "d"))
    last.wrappedValue.done = true
    #expect(storage.last == Todo(id: "d", done: true), "in range again, it edits its position")
  }

  struct NameRow: View {
    @Binding var name: String
    var body: some View { TextField("name", text: $name) }
  }

  /// Passes one element's binding, without reading the array itself.
  struct SecondNameEditor: View {
    @State private var names = ["a", "b"]
    var body: some View { NameRow(name: $names[1]) }
  }

  /// Making an element binding reads nothing the view depends on: editing through it
  /// re-evaluates the row that reads it, not the view that made it (the binding keeps the
  /// element it was made with for a read out of range, read untracked).
  @Test func makingAnElementBindingIsNoDependencyOfTheViewThatMakesIt() throws {
    let host = ViewHost(SecondNameEditor())
    host.resetCounts()
    try host.setText("bee", in: "name")
    #expect(host.value(of: "name") == "bee")
    #expect(host.bodyCount(SecondNameEditor.self) == 0)
  }

  /// Making an element binding reads nothing: one made for a position that is not there yet
  /// works once it is (the session-41 review of this session's changes: a binding that read
  /// its element when made trapped here).
  @Test func aBindingMadeBeforeItsPositionExistsWorksOnceItDoes() {
    var storage = [1]
    let numbers = Binding(get: { storage }, set: { storage = $0 })
    let second = numbers[1]
    storage.append(2)
    #expect(second.wrappedValue == 2)
    second.wrappedValue = 3
    #expect(storage == [1, 3])
  }

  final class Token {}

  /// An element binding keeps only the last element it read, for a read after its position
  /// went away: an element it never read, or one it read before another, goes when the
  /// collection lets it go.
  @Test func aBindingKeepsOnlyTheLastElementItRead() {
    var storage = [Token()]
    let tokens = Binding(get: { storage }, set: { storage = $0 })
    let first = tokens[0]
    weak let neverRead = storage[0]
    storage[0] = Token()
    #expect(neverRead == nil, "an element the binding never read is not kept")
    weak let readBefore = first.wrappedValue
    storage[0] = Token()
    _ = first.wrappedValue
    #expect(readBefore == nil, "reading the new element lets the previous one go")
  }
}
