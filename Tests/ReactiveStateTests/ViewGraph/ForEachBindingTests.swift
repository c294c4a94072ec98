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
}
