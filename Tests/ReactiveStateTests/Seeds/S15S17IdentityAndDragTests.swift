import ReactiveStateMacrosFree
import Testing

/// S15 (seed 001 §12): documents the editor edits.
final class DocumentLibrary: Observable {
  private let registrar = ObservationRegistrar()
  private var _texts: [Int: String] = [1: "alpha", 2: "beta"]

  var texts: [Int: String] {
    get {
      registrar.access(self, keyPath: \.texts)
      return _texts
    }
    set {
      registrar.withMutation(of: self, keyPath: \.texts, replacing: _texts, with: newValue) {
        _texts = newValue
      }
    }
  }
}

@MainActor
@Suite("S15 S17 identity reset and drag coordinator") struct S15S17IdentityAndDragTests {
  // MARK: S15

  struct DocumentEditor: View {
    let incoming: String
    @State private var draft: String
    @State private var isDirty = false

    init(incoming: String) {
      self.incoming = incoming
      _draft = State(initialValue: incoming)
    }

    var body: some View {
      TextField(
        "Draft",
        text: Binding(
          get: { draft },
          set: {
            draft = $0
            isDirty = true
          })
      )
      // Sync only while the user has no unsaved edit (the article's warning).
      .onChange(of: incoming) { _, newValue in
        if !isDirty { draft = newValue }
      }
    }
  }

  struct DocumentScreen: View {
    let library: DocumentLibrary
    @State private var documentID = 1
    @State private var tick = 0

    var body: some View {
      VStack {
        Button("Open 2") { documentID = 2 }
        Button("Tick \(tick)") { tick += 1 }
        DocumentEditor(incoming: library.texts[documentID] ?? "").id(documentID)
      }
    }
  }

  @Test("S15 changing the id resets the draft; the same id keeps it")
  func idResetsDraft() throws {
    let library = DocumentLibrary()
    let host = ViewHost(DocumentScreen(library: library))
    #expect(host.value(of: "Draft") == "alpha")
    library.texts[1] = "alpha v2"
    host.flush()
    #expect(host.value(of: "Draft") == "alpha v2", "onChange synced a clean draft")
    try host.setText("my edit", in: "Draft")
    try host.tap("Tick 0")
    #expect(host.value(of: "Draft") == "my edit", "same id keeps the draft")
    library.texts[1] = "alpha v3"
    host.flush()
    #expect(host.value(of: "Draft") == "my edit", "a dirty draft is not overwritten")
    try host.tap("Open 2")
    #expect(host.value(of: "Draft") == "beta", "a new id is a new identity with fresh state")
  }

  // MARK: S17

  struct DragOverlay: View {
    @Environment(HabitDragCoordinator.self) private var coordinator
    var body: some View {
      Text("at \(Int(coordinator.dragLocation.x)),\(Int(coordinator.dragLocation.y))")
    }
  }

  struct ActiveBadge: View {
    @Environment(HabitDragCoordinator.self) private var coordinator
    var body: some View { Text(coordinator.isActive ? "dragging" : "idle") }
  }

  struct HabitBoard: View {
    let coordinator: HabitDragCoordinator
    var body: some View {
      VStack {
        ActiveBadge()
        DragOverlay()
      }
      .environment(coordinator)
    }
  }

  @Test("S17 the overlay ignores pendingDrop; isActive readers track draggedHabit")
  func dragCoordinatorDependencies() {
    let coordinator = HabitDragCoordinator()
    let host = ViewHost(HabitBoard(coordinator: coordinator))
    coordinator.begin(habit: Habit(name: "Read"), at: DragPoint(x: 1, y: 2))
    host.flush()
    #expect(host.texts == ["dragging", "at 1,2"])
    host.resetCounts()
    coordinator.drop()
    host.flush()
    #expect(host.bodyCount(DragOverlay.self) == 0, "pendingDrop is not read by the overlay")
    #expect(host.bodyCount(ActiveBadge.self) == 0)
    coordinator.move(to: DragPoint(x: 5, y: 6))
    host.flush()
    #expect(host.bodyCount(DragOverlay.self) == 1)
    #expect(host.bodyCount(ActiveBadge.self) == 0, "isActive does not read dragLocation")
    coordinator.end()
    host.flush()
    #expect(host.bodyCount(ActiveBadge.self) == 1)
    #expect(host.texts == ["idle", "at 0,0"])
    let badgeCauses = host.updateLog.filter { $0.view == "ActiveBadge" }.map(\.cause)
    #expect(badgeCauses == [.modelProperty(ObservedKeyPath(\HabitDragCoordinator.draggedHabit))])
  }
}
