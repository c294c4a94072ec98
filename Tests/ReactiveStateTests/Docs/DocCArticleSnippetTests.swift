// The Swift samples of the DocC articles (Sources/ReactiveState/ReactiveState.docc), compiled and
// run. Each block between `// DocC: ARTICLE/NAME` and `// DocC: end` is the article's block
// marked `<!-- snippet: NAME -->`, verbatim but for the marker's indentation
// (Scripts/check-docc-snippets.py checks that they stay in sync; CI runs it). Edit both together.
// Each article's samples are nested in its suite, so they keep the article's names (`Book`,
// `Settings`, `Person`) without clashing with the README tour's. The file opens with the
// sample of *Testing views with the host* that shows a test file's imports.

// DocC: TestingViewsWithTheHost/first-test
import ReactiveStateMacrosFree
import Testing

@MainActor @Test func addsATodo() throws {
  let host = ViewHost(TodoListView())
  #expect(host.isDisabled("Add"))
  try host.type("Buy milk", into: "New todo")
  try host.tap("Add")
  #expect(host.texts == ["Add", "Buy milk", "1 to do"])
  #expect(host.bodyCount(TodoCount.self) == 2)
  #expect(host.issues.isEmpty)
}
// DocC: end

/// A suite whose samples print: inside it, `print` is this member, which records the line
/// (as `Swift.print` would write it, without the newline) so the test can assert it.
protocol CapturesPrints: Sendable {
  /// The lines printed so far, in order.
  var printed: LockedBox<[String]> { get }
}

extension CapturesPrints {
  /// Records the line instead of writing it to standard output.
  func print(_ items: Any..., separator: String = " ") {
    let line = items.map { "\($0)" }.joined(separator: separator)
    printed.value.append(line)
  }
}

// MARK: - Testing views with the host

/// Reads a legacy model from the environment, where nothing provides it.
struct DocOrphanSettingsReader: View {
  @EnvironmentObject var settings: Settings
  var body: some View { Text(settings.theme) }
}

/// A counter next to the orphan reader: the part of the screen that keeps working.
struct DocScreenWithAMissingObject: View {
  @State private var taps = 0
  var body: some View {
    VStack {
      Button("Tap") { taps += 1 }
      Text("\(taps) taps")
      DocOrphanSettingsReader()
    }
  }
}

@Suite("DocC: Testing views with the host")
struct TestingViewsWithTheHostArticleTests {
  @MainActor @Test("a missing environment object is an issue; the host keeps going")
  func missingEnvironmentObjectIsAnIssue() throws {
    let host = ViewHost(DocScreenWithAMissingObject())
    // DocC: TestingViewsWithTheHost/issues
    #expect(host.issues.map(\.kind) == [.missingEnvironmentObject])
    // DocC: end
    #expect(host.issues.first?.message.contains("Settings") == true)
    try host.tap("Tap")
    #expect(host.texts == ["Tap", "1 taps"])
    #expect(host.bodyCount(DocOrphanSettingsReader.self) == 0)
  }
}

// MARK: - Getting started

@Suite("DocC: Getting started")
struct GettingStartedArticleTests: CapturesPrints {
  let printed = LockedBox<[String]>([])

  // DocC: GettingStarted/hand-written-model
  final class Book: Observable, @unchecked Sendable {
    private let registrar = ObservationRegistrar()
    private var _title = ""

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
  }
  // DocC: end

  // DocC: GettingStarted/tracked-model
  struct Product: Equatable, Sendable {
    var name: String
    var price: Int
  }

  final class Cart: TrackedObservable, @unchecked Sendable {
    let observationRegistrar = ObservationRegistrar()
    @Tracked var products: [Product] = []
    @Tracked var discount = 0
  }
  // DocC: end

  @Test("the hand-written model notifies on a change, not on an equal value (the macro's rule)")
  func handWrittenModel() {
    let book = Book()
    let seen = Recorder<String>()
    let token = observe { seen.values.append(book.title) }
    book.title = ""  // equal: no notification
    book.title = "Dune"
    #expect(seen.values == ["", "Dune"])
    token.cancel()
  }

  @Test("the @Tracked model notifies on a change of each property, not on an equal value")
  func trackedModel() {
    let cart = Cart()
    let seen = Recorder<String>()
    let token = observe { seen.values.append("\(cart.products.count) \(cart.discount)") }
    cart.products.append(Product(name: "Tea", price: 4))
    cart.discount = 0  // equal: no notification
    cart.discount = 1
    #expect(seen.values == ["0 0", "1 0", "1 1"])
    token.cancel()
  }

  @Test("one-shot: onChange runs once, at the first change to what apply read")
  func oneShot() {
    let book = Book()
    // DocC: GettingStarted/one-shot
    withObservationTracking {
      _ = book.title
    } onChange: {
      print("title will change")
    }
    // DocC: end
    #expect(printed.value.isEmpty)
    book.title = "Dune"
    book.title = "Emma"  // one-shot: already fired
    #expect(printed.value == ["title will change"])
  }

  @Test("continuous: a run now, one re-run for the transaction, none after cancel()")
  func continuous() {
    let cart = Cart()
    // DocC: GettingStarted/continuous
    let token = observe { print("products:", cart.products.count, "discount:", cart.discount) }
    withTransaction {  // several changes, one re-run
      cart.products.append(Product(name: "Tea", price: 4))
      cart.discount = 1
    }
    token.cancel()
    // DocC: end
    cart.products.removeAll()  // cancelled: no run
    #expect(printed.value == ["products: 0 discount: 0", "products: 1 discount: 1"])
  }

  @Test("Computed: the derived total follows its inputs; an equal result stops there")
  func computed() {
    let cart = Cart()
    // DocC: GettingStarted/computed
    let total = Computed("total") {
      cart.products.reduce(0) { $0 + $1.price } - cart.discount
    }
    // DocC: end
    let seen = Recorder<Int>()
    let token = observe { seen.values.append(total.value) }
    cart.products.append(Product(name: "Tea", price: 4))
    cart.products[0].name = "Green tea"  // recomputed to 4: the observer does not run
    cart.discount = 1
    #expect(seen.values == [0, 4, 3])
    #expect(total.value == 3)
    token.cancel()
  }

  // DocC: GettingStarted/view-test
  @MainActor @Test func addingATodo() throws {
    let host = ViewHost(TodoListView())
    try host.type("Buy milk", into: "New todo")
    try host.tap("Add")
    #expect(host.texts == ["Add", "Buy milk", "1 to do"])
    #expect(host.bodyCount(TodoCount.self) == 2)
  }
  // DocC: end
}

// MARK: - Choosing an observation API

@Suite("DocC: Choosing an observation API")
struct ChoosingAnObservationAPIArticleTests: CapturesPrints {
  let printed = LockedBox<[String]>([])

  @Test(
    "for await: the current value at once, then each change, until the task is cancelled",
    .timeLimit(.minutes(1)))
  func forAwait() async {
    let book = Book()
    let loop = Task {
      // DocC: ChoosingAnObservationAPI/for-await
      for await title in ObservedValues({ book.title }) {
        print(title)
      }
      // DocC: end
      return "ended"
    }
    while printed.value.count < 1 { await Task.yield() }
    book.title = "Dune"
    while printed.value.count < 2 { await Task.yield() }
    loop.cancel()
    #expect(await loop.value == "ended")
    #expect(printed.value == ["", "Dune"])
  }
}

// MARK: - Migrating from ObservableObject

@Suite("DocC: Migrating from ObservableObject")
struct MigratingFromObservableObjectArticleTests {
  /// Step 1, the model before the migration.
  enum Before {
    // DocC: MigratingFromObservableObject/leaf-model-before
    // Before
    final class Settings: ObservableObject {
      @Published var theme = "light"
      @Published var fontSize = 14
    }
    // DocC: end
  }

  // DocC: MigratingFromObservableObject/leaf-model-after
  // After
  @MainActor
  final class Settings: TrackedObservable {
    let observationRegistrar = ObservationRegistrar()
    @Tracked var theme = "light"
    @Tracked var fontSize = 14
  }
  // DocC: end

  /// Step 2's owner, with one reader of each property for step 5.
  struct SettingsScreen: View {
    // DocC: MigratingFromObservableObject/state-owner
    @State private var settings = Settings()
    // DocC: end

    var body: some View {
      VStack {
        Button("Dark theme") { settings.theme = "dark" }
        ThemePreview(settings: settings)
        FontSizeLabel(settings: settings)
      }
    }
  }

  /// Reads the theme.
  struct ThemePreview: View {
    let settings: Settings
    var body: some View { Text("theme \(settings.theme)") }
  }

  /// Reads the font size.
  struct FontSizeLabel: View {
    let settings: Settings
    var body: some View { Text("size \(settings.fontSize)") }
  }

  /// The same screen before the migration.
  struct LegacySettingsScreen: View {
    @StateObject private var settings = Before.Settings()
    var body: some View {
      VStack {
        Button("Dark theme") { settings.theme = "dark" }
        LegacyThemePreview(settings: settings)
        LegacyFontSizeLabel(settings: settings)
      }
    }
  }

  /// Reads the legacy theme.
  struct LegacyThemePreview: View {
    @ObservedObject var settings: Before.Settings
    var body: some View { Text("theme \(settings.theme)") }
  }

  /// Reads the legacy font size.
  struct LegacyFontSizeLabel: View {
    @ObservedObject var settings: Before.Settings
    var body: some View { Text("size \(settings.fontSize)") }
  }

  /// Shows the screen or not: hiding it ends its identity.
  struct ScreenSwitch: View {
    @State private var shown = true
    var body: some View {
      Button("Toggle screen") { shown.toggle() }
      if shown { SettingsScreen() }
    }
  }

  @MainActor @Test("before: every @Published change re-evaluates every view that holds the object")
  func beforeObjectLevel() throws {
    let host = ViewHost(LegacySettingsScreen())
    host.resetCounts()
    try host.tap("Dark theme")
    #expect(host.bodyCount(LegacyThemePreview.self) == 1)
    #expect(host.bodyCount(LegacyFontSizeLabel.self) == 1)  // it reads fontSize only, and ran
    #expect(host.texts == ["Dark theme", "theme dark", "size 14"])
  }

  @MainActor @Test("step 5: after the migration, only the theme's reader re-evaluates")
  func updateScope() throws {
    let host = ViewHost(SettingsScreen())
    #expect(host.texts == ["Dark theme", "theme light", "size 14"])
    // DocC: MigratingFromObservableObject/update-scope
    host.resetCounts()
    try host.tap("Dark theme")
    #expect(host.bodyCount(ThemePreview.self) == 1)
    #expect(host.bodyCount(FontSizeLabel.self) == 0)  // it reads fontSize only
    // DocC: end
    #expect(host.texts == ["Dark theme", "theme dark", "size 14"])
    #expect(host.issues.isEmpty)
  }

  @MainActor @Test("step 2: the @State model lives as long as the view's identity")
  func stateModelPerIdentity() throws {
    let host = ViewHost(ScreenSwitch())
    try host.tap("Dark theme")
    #expect(host.texts == ["Toggle screen", "Dark theme", "theme dark", "size 14"])
    try host.tap("Toggle screen")
    try host.tap("Toggle screen")  // a new identity: a new model
    #expect(host.texts == ["Toggle screen", "Dark theme", "theme light", "size 14"])
  }
}

// MARK: - Migrating from Observation

/// A model with a `name`, in either macro-free form.
protocol DocNamedModel: AnyObject {
  /// The observed property.
  var name: String { get set }
}

extension MigratingFromObservationArticleTests.HandWritten.Person: DocNamedModel {}
extension MigratingFromObservationArticleTests.WithTracked.Person: DocNamedModel {}

@Suite("DocC: Migrating from Observation")
struct MigratingFromObservationArticleTests {
  /// Step 2, the macro's expansion written by hand.
  enum HandWritten {
    // DocC: MigratingFromObservation/hand-written
    final class Person: Observable {
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
      }
    }
    // DocC: end
  }

  /// Step 2, `@Tracked`.
  enum WithTracked {
    // DocC: MigratingFromObservation/tracked
    final class Person: TrackedObservable {
      let observationRegistrar = ObservationRegistrar()
      @Tracked var name = ""
    }
    // DocC: end
  }

  /// Whether setting `value` notifies a one-shot observer of `name`.
  func notifies(_ model: any DocNamedModel, whenSetTo value: String) -> Bool {
    let fired = LockedBox(false)
    withObservationTracking {
      _ = model.name
    } onChange: {
      fired.value = true
    }
    model.name = value
    return fired.value
  }

  @Test("step 2: both forms notify as the macro does: on a change, never on an equal value")
  func bothFormsNotifyAsTheMacro() {
    let models: [any DocNamedModel] = [HandWritten.Person(), WithTracked.Person()]
    for model in models {
      #expect(notifies(model, whenSetTo: "Ada"))
      #expect(!notifies(model, whenSetTo: "Ada"))  // equal: no notification
      #expect(notifies(model, whenSetTo: "Grace"))
      #expect(model.name == "Grace")
    }
  }
}
