import ReactiveStateMacrosFree
import Testing

/// S19 (seed 004): the list the sheet adds to.
final class DonutListModel: Observable {
  private let registrar = ObservationRegistrar()
  private var _donuts: [Donut] = []

  var donuts: [Donut] {
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
}

@MainActor
@Suite("S9 S19 presentations") struct S9S19PresentationTests {
  // MARK: S9

  struct CloseButton: View {
    @Environment(\.dismiss) private var dismiss
    var body: some View { Button("Close") { dismiss() } }
  }

  struct Details: View {
    @State private var showsHelp = false
    @State private var edits = 0
    var body: some View {
      VStack {
        Text("details \(edits)")
        Button("Edit") { edits += 1 }
        Button("Help") { showsHelp = true }
        CloseButton()
      }
      .sheet(isPresented: $showsHelp) {
        Text("help")
        CloseButton()
      }
    }
  }

  struct Home: View {
    @State private var showsDetails = false
    let onDismiss: @MainActor () -> Void
    var body: some View {
      VStack {
        Text(showsDetails ? "presenting" : "home")
        Button("Open") { showsDetails = true }
        CloseButton()
      }
      .sheet(isPresented: $showsDetails, onDismiss: onDismiss) { Details() }
    }
  }

  @Test("S9 the dismiss action closes the presentation that injected it")
  func dismissClosesItsOwnPresentation() throws {
    var dismissals = 0
    let host = ViewHost(Home { dismissals += 1 })
    try host.tap("Close")
    #expect(host.texts.first == "home", "outside a presentation dismiss does nothing")
    try host.tap("Open")
    #expect(host.texts.contains("details 0"))
    try host.tap("Edit")
    try host.tap("Help")
    #expect(host.texts.contains("help"))
    // Three Close buttons now, in tree order: home's (0), the details' (1), the help sheet's (2).
    #expect(throws: ViewHostError.ambiguous("Close", count: 3)) { try host.tap("Close") }
    try host.tap("Close", occurrence: 2)
    #expect(!host.texts.contains("help"), "the inner sheet closed")
    #expect(host.texts.contains("details 1"), "the outer one stayed, with its state")
    #expect(dismissals == 0)
    try host.tap("Close", occurrence: 1)
    #expect(host.texts == ["home", "Open", "Close"])
    #expect(dismissals == 1, "onDismiss ran once")
    try host.tap("Open")
    #expect(host.texts.contains("details 0"), "a new presentation is a new identity")
  }

  // MARK: S19

  struct DonutEditor: View {
    @Bindable var donut: Donut
    let save: @MainActor () -> Void
    let cancel: @MainActor () -> Void
    var body: some View {
      VStack {
        TextField("Name", text: $donut.name)
        Button("Save", action: save)
        Button("Cancel", action: cancel)
      }
    }
  }

  struct DonutListView: View {
    let donutList: DonutListModel
    @State private var donutToAdd: Donut?
    @State private var nextID = 100

    var body: some View {
      VStack {
        ForEach(donutList.donuts) { donut in Text(donut.name) }
        Button("Add Donut") {
          donutToAdd = Donut(id: nextID, name: "")
          nextID += 1
        }
      }
      .sheet(item: $donutToAdd) { donut in
        DonutEditor(
          donut: donut,
          save: {
            donutList.donuts.append(donut)
            donutToAdd = nil
          },
          cancel: { donutToAdd = nil })
      }
    }
  }

  @Test("S19 save appends the edited donut; cancel discards it")
  func sheetSaveAndCancel() throws {
    let list = DonutListModel()
    let host = ViewHost(DonutListView(donutList: list))
    try host.tap("Add Donut")
    try host.setText("Maple", in: "Name")
    #expect(host.value(of: "Name") == "Maple")
    try host.tap("Save")
    #expect(list.donuts.map(\.name) == ["Maple"])
    #expect(host.texts == ["Maple", "Add Donut"], "the sheet is gone")
    try host.tap("Add Donut")
    try host.setText("Burnt", in: "Name")
    try host.tap("Cancel")
    #expect(list.donuts.map(\.name) == ["Maple"])
    #expect(throws: ViewHostError.notFound("Name")) { try host.setText("x", in: "Name") }
  }
}
