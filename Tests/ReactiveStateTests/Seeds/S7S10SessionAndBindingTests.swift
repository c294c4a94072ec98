import ReactiveStateMacrosFree
import Testing

@MainActor
@Suite("S7 S10 binding form and session") struct S7S10SessionAndBindingTests {
  // MARK: S7 — binding form

  struct BoundCounterEditor: View {
    @Binding var count: Int
    var body: some View { Stepper("Count", value: $count) }
  }

  struct CounterOwner: View {
    let initialCount: Int
    @State private var count = 0
    var body: some View {
      VStack {
        Text("owner \(count)")
        BoundCounterEditor(count: $count)
      }
      .onChange(of: initialCount, initial: true) { count = initialCount }
    }
  }

  struct CounterRoot: View {
    @State private var initialCount = 3
    var body: some View {
      VStack {
        Button("Parent passes 7") { initialCount = 7 }
        CounterOwner(initialCount: initialCount)
      }
    }
  }

  @Test("S7 binding form: the editor follows the parent and writes into the parent's state")
  func bindingFollowsParent() throws {
    let host = ViewHost(CounterRoot())
    #expect(host.value(of: "Count") == "3")
    try host.increment("Count")
    #expect(host.texts.first(where: { $0.hasPrefix("owner") }) == "owner 4")
    try host.tap("Parent passes 7")
    #expect(host.value(of: "Count") == "7", "the binding form follows the parent")
    #expect(host.texts.contains("owner 7"))
  }

  // MARK: S10

  struct SessionBadge: View {
    @Environment(Session.self) private var session
    var body: some View { Text(session.user?.displayName ?? "Guest") }
  }

  struct NameEditor: View {
    @Environment(Session.self) private var session
    var body: some View {
      @Bindable var session = session
      VStack {
        TextField("Name", text: $session.nameDraft)
        Button("Log in") { session.logIn() }
      }
    }
  }

  struct SessionRoot: View {
    let session: Session
    var body: some View {
      VStack {
        SessionBadge()
        NameEditor()
      }
      .environment(session)
    }
  }

  @Test("S10 the badge updates on login")
  func badgeUpdatesOnLogin() throws {
    let session = Session()
    let host = ViewHost(SessionRoot(session: session))
    #expect(host.texts.first == "Guest")
    try host.type("Ada", into: "Name")
    #expect(host.bodyCount(SessionBadge.self) == 1, "the badge does not read the draft")
    try host.tap("Log in")
    #expect(host.texts.first == "Ada")
    #expect(host.bodyCount(SessionBadge.self) == 2)
    #expect(session.user == SessionUser(displayName: "Ada"))
  }

  @Test("S10 missing injection gives a clear error naming the type")
  func missingInjectionIsNamed() {
    let host = ViewHost(VStack { SessionBadge() })
    #expect(host.issues.map(\.kind) == [.missingEnvironmentObject])
    let message = host.issues.first?.message ?? ""
    #expect(message.contains("Session") && message.contains(".environment(_:)"))
    #expect(host.render().contains("Session"), "the view renders a warning instead of a body")
  }
}
