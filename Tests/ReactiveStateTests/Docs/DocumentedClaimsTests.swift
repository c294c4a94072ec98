// Claims of the DocC articles that no other test pinned. The articles' own Swift blocks run in
// `DocCArticleSnippetTests.swift` and, for the `ReactiveStateMacrosFree` articles, in
// `WritingModelsSamples` below (both checked against the articles); the other samples here are
// further code the claims need. Each
// test names the article and the claim. The README's tour is `ReadmeTourTests.swift`.
import ReactiveStateMacrosFree
import Testing

// MARK: - Samples, as the articles write them

/// *Writing models without macros* and the `ReactiveStateMacrosFree` landing page, as
/// `Scripts/check-docc-snippets.py` checks them (each `Person` nested in its own namespace).
enum WritingModelsSamples {
  /// "Writing it by hand", with the optional `_modify`.
  enum HandWritten {
    // DocC: WritingModelsWithoutMacros/hand-written
    final class Person: Observable, @unchecked Sendable {
      private let registrar = ObservationRegistrar()
      private var _name = ""

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
        _modify {  // optional: in-place mutation (`+=`, `append`) without a copy
          registrar.access(self, keyPath: \.name)
          registrar.willSet(self, keyPath: \.name)
          defer { registrar.didSet(self, keyPath: \.name) }
          yield &_name
        }
      }

      var cache: [String: Int] = [:]  // not observed: the stand-in for @ObservationIgnored
    }
    // DocC: end
  }

  /// "Letting `@Tracked` write it".
  enum WithTracked {
    // DocC: WritingModelsWithoutMacros/tracked
    final class Person: TrackedObservable, @unchecked Sendable {
      let observationRegistrar = ObservationRegistrar()

      @Tracked var name = ""
      var cache: [String: Int] = [:]
    }
    // DocC: end
  }

  /// The landing page's `@Tracked` sample.
  enum LandingPage {
    // DocC: ReactiveStateMacrosFree/person
    final class Person: TrackedObservable, @unchecked Sendable {
      let observationRegistrar = ObservationRegistrar()
      @Tracked var name = ""
      @Tracked var friends: [Person] = []
      var cache: [String: Int] = [:]  // a plain stored property is not observed
    }
    // DocC: end
  }

  // DocC: WritingModelsWithoutMacros/derived-cart
  final class Cart: TrackedObservable, @unchecked Sendable {
    let observationRegistrar = ObservationRegistrar()
    @Tracked var prices: [Int] = []
    @Derived({ (cart: Cart) in cart.prices.reduce(0, +) }) var total: Int
  }
  // DocC: end
}

/// *Migrating from ObservableObject*: a screen that owns the article's migrated leaf model with
/// `@State`, injects it, and hands it to children three ways.
enum MigratingFromObservableObjectSamples {
  /// The article's step 1 "after" model, as `DocCArticleSnippetTests.swift` runs it.
  typealias Settings = MigratingFromObservableObjectArticleTests.Settings

  /// Step 2: the owner.
  struct SettingsScreen: View {
    @State private var settings = Settings()
    var body: some View {
      VStack {
        Button("Dark theme") { settings.theme = "dark" }
        ThemePicker(settings: settings)
        FontSizeLabel(settings: settings)
        ThemePreview()
      }
      .environment(settings)
    }
  }

  /// Step 3: a child that edits through bindings.
  struct ThemePicker: View {
    @Bindable var settings: Settings
    var body: some View { TextField("Theme", text: $settings.theme) }
  }

  /// Step 3: a child that only reads, as a plain `let`.
  struct FontSizeLabel: View {
    let settings: Settings
    var body: some View { Text("size \(settings.fontSize)") }
  }

  /// Step 4: an environment reader, with a local `@Bindable` for a binding.
  struct ThemePreview: View {
    @Environment(Settings.self) private var settings
    var body: some View {
      @Bindable var settings = settings
      Text("theme \(settings.theme)")
    }
  }
}

/// *Migrating from ObservableObject*, step 2: a `@State` model whose initializer counts.
@MainActor
final class DocCountingModel: TrackedObservable {
  /// How many instances were created.
  static var created = 0
  let observationRegistrar = ObservationRegistrar()
  @Tracked var value = 0
  /// Counts the new instance.
  init() { Self.created += 1 }
}

/// Owns a `DocCountingModel` with `@State`.
struct DocCountingOwner: View {
  let label: Int
  @State private var model = DocCountingModel()
  var body: some View {
    Button("Bump") { model.value += 1 }
    Text("\(label): \(model.value)")
  }
}

/// Re-creates its child's view value on every evaluation.
struct DocCountingParent: View {
  @State private var label = 0
  var body: some View {
    Button("Relabel") { label += 1 }
    DocCountingOwner(label: label)
  }
}

/// The `@Derived` sample's `Cart`, counting its derivations (a plain, unobserved counter).
final class DocCountingCart: TrackedObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  var evaluations = 0
  @Tracked var prices: [Int] = [1, 2]
  @Derived({ (cart: DocCountingCart) in
    cart.evaluations += 1
    return cart.prices.reduce(0, +)
  })
  var total: Int
}

/// A view used outside any host, for *Testing views with the host*'s misuse claim.
struct DocUnmountedView: View {
  @State var count = 0
  @Environment(\.dismiss) var dismiss
  var body: some View { Text("\(count)") }
}

// MARK: - Claims

@Suite("Documented claims")
struct DocumentedClaimsTests {
  @Test("GettingStarted: a transaction of several changes gives observe one re-run")
  func gettingStartedTransaction() {
    let cart = Cart()
    let runs = Recorder<Int>()
    let token = observe { runs.values.append(cart.products.count) }
    // The sample's observer reads one of the two changes only; this one reads both, so the
    // single re-run is the transaction's doing (without it: [0, 10, 11]).
    let both = Recorder<Int>()
    let bothToken = observe { both.values.append(cart.products.count * 10 + cart.discount) }
    withTransaction {  // several changes, one re-run
      cart.products.append(Product(name: "Tea", price: 4))
      cart.discount = 1
    }
    token.cancel()
    bothToken.cancel()
    cart.products.removeAll()
    #expect(runs.values == [0, 1])
    #expect(both.values == [0, 11])
  }

  @Test("GettingStarted: Computed recomputes only when an input changed and someone reads it")
  func gettingStartedComputedIsLazy() {
    let cart = Cart()
    let evaluations = Recorder<Int>()
    let total = Computed("total") {
      let value = cart.products.reduce(0) { $0 + $1.price } - cart.discount
      evaluations.values.append(value)
      return value
    }
    #expect(evaluations.values.isEmpty, "lazy: nothing before the first read")
    #expect(total.value == 0)
    #expect(total.value == 0)
    cart.discount = 1
    cart.discount = 2
    #expect(evaluations.values == [0], "cached, and no recomputation until read")
    #expect(total.value == -2)
    #expect(evaluations.values == [0, -2])
  }

  @Test("ChoosingAnObservationAPI: the for-await sample; the first value at once")
  func choosingForAwaitSample() async {
    let book = Book()
    book.title = "Dune"
    var seen: [String] = []
    for await title in ObservedValues({ book.title }) {
      seen.append(title)
      break
    }
    #expect(seen == ["Dune"])
  }

  @Test("ChoosingAnObservationAPI: removingDuplicates and untilFinished")
  func choosingSequenceVariants() async {
    let book = Book()
    var titles = ObservedValues.untilFinished { () -> ObservedValues<String, Never>.Iteration in
      book.title == "end" ? .finish : .next(book.title)
    }.makeAsyncIterator()
    #expect(await titles.next() == "")
    book.title = "end"
    #expect(await titles.next() == nil)
    var distinct = ObservedValues { book.title.count }.removingDuplicates().makeAsyncIterator()
    #expect(await distinct.next() == 3)
    book.title = "abc"  // the same count: skipped
    book.title = "abcd"
    #expect(await distinct.next() == 4)
  }

  /// Above, "abc" and "abcd" coalesce, so 4 comes next with or without `removingDuplicates()`.
  /// Here the duplicate is evaluated on its own (the second evaluation) before the next change.
  @Test("ChoosingAnObservationAPI: removingDuplicates skips an evaluated equal value")
  func removingDuplicatesSkipsAnEvaluatedEqualValue() async {
    let book = Book()
    book.title = "end"
    let evaluations = LockedBox(0)
    let iteration = Task {
      var distinct = ObservedValues { () -> Int in
        let count = book.title.count
        evaluations.value += 1
        return count
      }.removingDuplicates().makeAsyncIterator()
      return [await distinct.next(), await distinct.next()]
    }
    while evaluations.value < 1 { await Task.yield() }
    book.title = "abc"  // the same count
    while evaluations.value < 2 { await Task.yield() }
    book.title = "abcd"
    #expect(await iteration.value == [3, 4], "the evaluated 3 was not emitted")
    #expect(evaluations.value == 3)
  }

  @MainActor @Test("ChoosingAnObservationAPI: the @MainActor spellings of both continuous forms")
  func choosingMainActorSpellings() async {
    let counter = Counter()
    let runs = Recorder<Int>()
    let token = observe { @MainActor in runs.values.append(counter.count) }
    let events = Recorder<Int>()
    let eventToken = withContinuousObservation(options: .didSet) { @MainActor event in
      events.values.append(counter.count)
    }
    counter.count = 1
    for _ in 0..<100 where runs.values.count < 2 || events.values.count < 2 {
      await Task.yield()
    }
    #expect(runs.values == [0, 1])
    #expect(events.values == [0, 1])  // the `.initial` event, then the `.didSet`
    token.cancel()
    eventToken.cancel()
  }

  /// The oracle comparison: `ObservationParityRound3Tests.plainWithMutationNotifiesWithoutAChange`.
  @Test("MigratingFromObservation: withMutation(of:keyPath:_:) always notifies, as in Observation")
  func plainWithMutationAlwaysNotifies() {
    let person = MigratingFromObservationArticleTests.HandWritten.Person()
    let registrar = ObservationRegistrar()
    let fired = Recorder<Int>()
    withObservationTracking {
      registrar.access(person, keyPath: \.name)
    } onChange: {
      fired.values.append(1)
    }
    registrar.withMutation(of: person, keyPath: \.name) {}  // nothing changed
    #expect(fired.values == [1])
  }

  @Test("MigratingFromObservation: the replacing:with: overload skips an equal assignment")
  func replacingOverloadSkipsEqualValues() {
    let person = MigratingFromObservationArticleTests.HandWritten.Person()
    let tracked = MigratingFromObservationArticleTests.WithTracked.Person()
    let fired = Recorder<Int>()
    withObservationTracking {
      _ = person.name
      _ = tracked.name
    } onChange: {
      fired.values.append(1)
    }
    person.name = ""
    tracked.name = ""
    #expect(fired.values.isEmpty)
    tracked.name = "Ada"
    #expect(fired.values == [1])
  }

  @Test("MigratingFromObservation: ObservationTracking.Token is the class ObservationToken")
  func tokenIsAClass() {
    let token: ObservationTracking.Token = withContinuousObservation(options: .didSet) { _ in }
    let stored: Set<ObservationToken> = [token]
    #expect(stored.contains(token))
    token.cancel()
  }

  @Test("WritingModelsWithoutMacros: the hand-written _modify notifies once per +=")
  func handWrittenModifySample() {
    let person = WritingModelsSamples.HandWritten.Person()
    let seen = Recorder<String>()
    let token = observe { seen.values.append(person.name) }
    person.name += "Ada"
    person.cache["x"] = 1  // not observed
    #expect(seen.values == ["", "Ada"])
    token.cancel()
  }

  @Test("WritingModelsWithoutMacros: @Tracked in-place mutation notifies once, even for += 0")
  func trackedInPlaceMutation() {
    let cart = Cart()
    let seen = Recorder<Int>()
    let token = observe { seen.values.append(cart.discount) }
    cart.discount += 0  // without willSet/didSet: in place, always notifies (the macro's rule)
    cart.products.append(Product(name: "Tea", price: 4))  // not read: no run
    #expect(seen.values == [0, 0])
    token.cancel()
  }

  @Test("WritingModelsWithoutMacros: @Derived runs on first read; $total is the Computed")
  func derivedSample() {
    let counting = DocCountingCart()
    #expect(counting.evaluations == 0, "nothing derived before the first read")
    #expect(counting.total == 3)
    #expect(counting.total == 3)
    #expect(counting.evaluations == 1, "first read, then cached")
    counting.prices = [4]
    #expect(counting.evaluations == 1, "no recomputation until read")
    #expect(counting.total == 4)
    #expect(counting.evaluations == 2)
    #expect(counting.$total === counting.$total, "one Computed per model")
    let cart = WritingModelsSamples.Cart()
    let computed: Computed<Int> = cart.$total
    let seen = Recorder<Int>()
    let token = observe { seen.values.append(cart.total) }
    cart.prices = [1, 2]
    cart.prices = [3]  // an equal total: observers do not run
    #expect(seen.values == [0, 3])
    #expect(computed.value == 3)
    token.cancel()
  }

  @Test("WritingModelsWithoutMacros: the @Tracked form notifies on a change, not on an equal value")
  func trackedFormSample() {
    let person = WritingModelsSamples.WithTracked.Person()
    let seen = Recorder<String>()
    let token = observe { seen.values.append(person.name + "\(person.cache.count)") }
    person.name = "Ada"
    person.name = "Ada"  // equal (String is Equatable): no run
    person.cache["x"] = 1  // read, but not observed: no run
    person.name = "Grace"
    #expect(seen.values == ["0", "Ada0", "Grace1"])
    token.cancel()
  }

  @Test("ReactiveStateMacrosFree: the landing page's model; a plain property is not observed")
  func landingPageModel() {
    let person = WritingModelsSamples.LandingPage.Person()
    let seen = Recorder<Int>()
    let token = observe { seen.values.append(person.friends.count + person.cache.count) }
    person.cache["a"] = 1  // read, but not observed: no run
    person.friends.append(WritingModelsSamples.LandingPage.Person())
    #expect(seen.values == [0, 2])
    token.cancel()
  }

  @MainActor @Test("MigratingFromObservableObject, step 5: only the readers of theme update")
  func migratedScreenUpdateScope() throws {
    typealias Samples = MigratingFromObservableObjectSamples
    let host = ViewHost(Samples.SettingsScreen())
    #expect(host.texts == ["Dark theme", "size 14", "theme light"])
    host.resetCounts()
    try host.tap("Dark theme")
    #expect(host.bodyCount(Samples.ThemePreview.self) == 1)
    // DataFlowInViews: creating a binding reads nothing; the field itself re-renders.
    #expect(host.bodyCount(Samples.ThemePicker.self) == 0)
    #expect(host.bodyCount(Samples.FontSizeLabel.self) == 0)  // it reads fontSize only
    try host.setText("sepia", in: "Theme")
    #expect(host.texts == ["Dark theme", "size 14", "theme sepia"])
    #expect(host.issues.isEmpty)
  }

  @MainActor @Test("DataFlowInViews: a missing model is an issue naming the type; no body runs")
  func missingEnvironmentModel() {
    typealias Samples = MigratingFromObservableObjectSamples
    let host = ViewHost(VStack { Samples.ThemePreview() })
    #expect(host.issues.map(\.kind) == [.missingEnvironmentObject])
    #expect(host.issues.first?.message.contains("Settings") == true)
    #expect(host.bodyCount(Samples.ThemePreview.self) == 0)
  }

  @Test("ConcurrencyAndThreading: releasing the token ends the observation")
  func releasingTheTokenEnds() {
    let book = Book()
    let seen = Recorder<String>()
    var token: ObservationToken? = observe { seen.values.append(book.title) }
    withExtendedLifetime(token) {}
    token = nil
    book.title = "Dune"
    #expect(seen.values == [""])
  }

  @Test("ConcurrencyAndThreading: transactions are per thread; other threads' changes run now")
  func transactionsArePerThread() {
    let book = Book()
    let seen = LockedBox<[String]>([])
    let token = observe {
      let title = book.title
      seen.value.append(title)
    }
    withTransaction {
      onAnotherThread { book.title = "Dune" }  // not part of this thread's transaction
      #expect(seen.value == ["", "Dune"], "it ran on the writing thread, at once")
    }
    #expect(seen.value == ["", "Dune"])
    token.cancel()
  }

  @Test("README: an observer waiting in a transaction takes in other threads' changes, once")
  func waitingObserverTakesInOtherThreadsChanges() {
    let book = Book()
    let seen = LockedBox<[String]>([])
    let token = observe {
      let title = book.title
      seen.value.append(title)
    }
    withTransaction {
      book.title = "Dune"  // defers the observer to this transaction's end
      onAnotherThread { book.title = "Emma" }
      #expect(seen.value == [""], "still waiting for the transaction")
    }
    #expect(seen.value == ["", "Emma"])
    token.cancel()
  }

  @MainActor @Test("MigratingFromObservableObject: @State's initial value runs per view value")
  func stateInitialValueRunsPerViewValue() throws {
    DocCountingModel.created = 0
    let host = ViewHost(DocCountingParent())
    try host.tap("Bump")
    #expect(host.texts == ["Relabel", "Bump", "0: 1"])
    let afterMount = DocCountingModel.created
    try host.tap("Relabel")  // a new child view value: its initializer runs again
    #expect(DocCountingModel.created == afterMount + 1)
    #expect(host.texts == ["Relabel", "Bump", "1: 1"], "only the first result is kept")
  }

  @Test("ConcurrencyAndThreading: a continuous .willSet event runs before the store")
  func continuousWillSetRunsBeforeTheStore() {
    let book = Book()
    let seen = Recorder<String>()
    let token = withContinuousObservation(options: [.willSet, .didSet]) { event in
      seen.values.append("\(event.kind) \(book.title)")
    }
    let willSetOnly = Recorder<String>()
    let willSetToken = withContinuousObservation(options: .willSet) { event in
      willSetOnly.values.append("\(event.kind) \(book.title)")
    }
    book.title = "Dune"
    withTransaction {  // deferred to the end: one event, after the store
      book.title = "Emma"
      seen.values.append("end of transaction")
      willSetOnly.values.append("end of transaction")
    }
    #expect(
      seen.values == ["initial ", "willSet ", "didSet Dune", "end of transaction", "didSet Emma"])
    #expect(
      willSetOnly.values == ["initial ", "willSet ", "end of transaction", "willSet Emma"])
    token.cancel()
    willSetToken.cancel()
  }

  @MainActor @Test("TestingViewsWithTheHost: misuse outside a host is an ObservationDiagnostic")
  func misuseOutsideAHostIsADiagnostic() {
    let view = DocUnmountedView()
    let reported = ObservationDiagnostics.capture {
      view.count = 1  // a write: ignored
      _ = view.$count  // a projection: a constant binding
      _ = view.dismiss  // an environment read: the default
    }
    #expect(reported.count == 3)
    #expect(view.count == 0)
    #expect(reported.last?.message.contains("Environment<") == true)
  }
}
