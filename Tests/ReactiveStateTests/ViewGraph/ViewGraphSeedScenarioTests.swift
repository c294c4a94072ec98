import ReactiveStateMacrosFree
import Testing

/// Seed scenarios S1, S3, S5, S6, S7, S8 (seeds 000, 001, 002).
@MainActor
@Suite struct ViewGraphSeedScenarioTests {
  // MARK: S1 — reading list

  struct BookCount: View {
    let count: Int
    var body: some View {
      Text("\(count) books").foregroundStyle(Color.secondary)
    }
  }

  struct ReadingListView: View {
    @State private var model = ReadingList()

    var body: some View {
      @Bindable var model = model
      Form {
        TextField("Book title", text: $model.draft)
        Button("Add", action: model.addBook)
          .disabled(!model.canAdd)
        ForEach(model.books, id: \.self) { book in
          Text(book)
        }
        BookCount(count: model.books.count)
      }
    }
  }

  @Test func s1TypingEnablesAddWhichAppendsAndClears() throws {
    let host = ViewHost(ReadingListView())
    #expect(host.isDisabled("Add"))
    #expect(throws: ViewHostError.disabled("Add")) { try host.tap("Add") }
    try host.type("Dune", into: "Book title")
    #expect(!host.isDisabled("Add"))
    try host.tap("Add")
    #expect(host.value(of: "Book title") == "")
    #expect(host.isDisabled("Add"))
    #expect(host.texts == ["Add", "Dune", "1 books"])
    #expect(
      host.render() == """
        ReadingListView
          Form
            TextField "Book title" text=""
            Button "Add" [disabled]
            Text "Dune"
            BookCount
              Text "1 books" [foregroundStyle=secondary]
        """)
  }

  @Test func s1CountChildReEvaluatesOnlyWhenTheCountChanges() throws {
    let host = ViewHost(ReadingListView())
    try host.type("D", into: "Book title")
    try host.type("une", into: "Book title")
    #expect(host.bodyCount(ReadingListView.self) == 3, "the list reads canAdd, so draft")
    #expect(host.bodyCount(BookCount.self) == 1)
    try host.tap("Add")
    #expect(host.bodyCount(BookCount.self) == 2)
    try host.type("x", into: "Book title")
    #expect(host.bodyCount(BookCount.self) == 2)
  }

  // MARK: S3 — narrow summary

  struct ArticleSummary: View {
    let count: Int
    let selectionTitle: String?
    var body: some View {
      LabeledContent("Articles", value: "\(count)")
      if let selectionTitle {
        Text(selectionTitle)
      }
    }
  }

  struct SearchBox: View {
    @Bindable var store: ArticleStore
    var body: some View { TextField("Query", text: $store.query) }
  }

  struct ArticleFeature: View {
    let store: ArticleStore
    var body: some View {
      VStack {
        ArticleSummary(count: store.articles.count, selectionTitle: store.selectionTitle)
        SearchBox(store: store)
      }
    }
  }

  @Test func s3SummaryFollowsItsValuesNotOtherStoreFields() throws {
    let store = ArticleStore()
    store.articles = ["A", "B"]
    let host = ViewHost(ArticleFeature(store: store))
    try host.type("swift", into: "Query")
    #expect(store.query == "swift")
    #expect(host.bodyCount(ArticleFeature.self) == 1)
    #expect(host.bodyCount(ArticleSummary.self) == 1)
    host.perform { store.articles = ["A", "C"] }
    #expect(host.bodyCount(ArticleFeature.self) == 2)
    #expect(host.bodyCount(ArticleSummary.self) == 1, "same count, same title: skipped")
    host.perform { store.selectedIndex = 1 }
    #expect(host.bodyCount(ArticleSummary.self) == 2)
    #expect(host.texts == ["2", "C"])
    host.perform { store.articles.append("D") }
    #expect(host.bodyCount(ArticleSummary.self) == 3)
    #expect(host.texts == ["3", "C"])
  }

  // MARK: S5 — custom Binding(get:set:) adapters

  struct TitleEditor: View {
    let store: ArticleStore
    let profile: ArticleStore
    var body: some View {
      let title = Binding(
        get: { store.draftTitle ?? "" },
        set: { store.draftTitle = $0.isEmpty ? nil : $0 })
      let trimmedName = Binding(
        get: { profile.query },
        set: { profile.query = trimmed($0) })
      VStack {
        TextField("Title", text: title)
        TextField("Name", text: trimmedName)
      }
    }
  }

  @Test func s5AdaptersWriteTrimmedAndNilValues() throws {
    let store = ArticleStore()
    let profile = ArticleStore()
    let host = ViewHost(TitleEditor(store: store, profile: profile))
    try host.setText("Draft", in: "Title")
    #expect(store.draftTitle == "Draft")
    try host.setText("", in: "Title")
    #expect(store.draftTitle == nil)
    #expect(host.value(of: "Title") == "")
    try host.setText("  Ada Lovelace \n", in: "Name")
    #expect(profile.query == "Ada Lovelace")
    #expect(host.value(of: "Name") == "Ada Lovelace")
  }

  // MARK: S6 — expandable section

  struct DetailContent: View {
    @State private var likes = 0
    var body: some View { Button("Like \(likes)") { likes += 1 } }
  }

  struct ExpandableSection: View {
    let title: String
    @State private var isExpanded = false
    var body: some View {
      VStack(alignment: .leading) {
        Text(title)
        Button(isExpanded ? "Collapse" : "Expand") { isExpanded.toggle() }
        if isExpanded {
          DetailContent()
        }
      }
    }
  }

  struct SectionHost: View {
    let model: Triple
    var body: some View { ExpandableSection(title: "Section \(model.a)") }
  }

  @Test func s6ToggleShowsDetailAndStateSurvivesParentReEvaluation() throws {
    let model = Triple()
    let host = ViewHost(SectionHost(model: model))
    #expect(host.count(of: DetailContent.self) == 0)
    try host.tap("Expand")
    try host.tap("Like 0")
    #expect(host.texts == ["Section 0", "Collapse", "Like 1"])
    host.perform { model.a = 1 }
    #expect(host.bodyCount(ExpandableSection.self) == 3, "mount, Expand, new title")
    #expect(host.texts == ["Section 1", "Collapse", "Like 1"], "isExpanded and likes survive")
    try host.tap("Collapse")
    #expect(host.count(of: DetailContent.self) == 0)
    try host.tap("Expand")
    #expect(host.texts.last == "Like 0", "the detail is a new identity after it was removed")
  }

  // MARK: S7 — initial value vs binding

  struct CounterEditor: View {
    let initialCount: Int
    @State private var count: Int
    init(initialCount: Int) {
      self.initialCount = initialCount
      _count = State(initialValue: initialCount)
    }
    var body: some View { Stepper("Count: \(count)", value: $count) }
  }

  struct BoundCounterEditor: View {
    @Binding var count: Int
    var body: some View { Stepper("Bound: \(count)", value: $count) }
  }

  struct CounterParent: View {
    let model: Triple
    @State private var shared = 1
    var body: some View {
      VStack {
        CounterEditor(initialCount: model.a)
        BoundCounterEditor(count: $shared)
        Button("Parent sets 5") { shared = 5 }
      }
    }
  }

  @Test func s7StateKeepsTheUsersValueBindingFollowsTheParent() throws {
    let model = Triple()
    model.a = 1
    let host = ViewHost(CounterParent(model: model))
    try host.increment("Count: 1")
    host.perform { model.a = 5 }
    #expect(host.bodyCount(CounterEditor.self) == 3, "re-evaluated with initialCount 5")
    #expect(host.value(of: "Count: 2") == "2", "initial value used once per identity")
    try host.increment("Bound: 1")
    #expect(host.value(of: "Bound: 2") == "2")
    try host.tap("Parent sets 5")
    #expect(host.value(of: "Bound: 5") == "5")
    #expect(host.bodyCount(CounterParent.self) == 2, "the parent does not read `shared`")
  }

  // MARK: S8 — profile editor

  struct DisplayNameField: View {
    @Binding var name: String
    var body: some View { TextField("Display name", text: $name) }
  }

  struct ProfileEditor: View {
    @State private var displayName = ""
    let save: (String) -> Void
    var body: some View {
      VStack {
        DisplayNameField(name: $displayName)
        Button("Save") { save(displayName) }
      }
    }
  }

  @Test func s8ChildWritesLandInParentStateWithoutReEvaluatingTheParent() throws {
    var saved: [String] = []
    let host = ViewHost(ProfileEditor(save: { saved.append($0) }))
    try host.setText("Ada", in: "Display name")
    try host.tap("Save")
    #expect(saved == ["Ada"])
    #expect(host.value(of: "Display name") == "Ada")
    #expect(host.bodyCount(ProfileEditor.self) == 1)
    #expect(host.bodyCount(DisplayNameField.self) == 1, "only the TextField control re-read")
  }
}
