import ReactiveStateMacrosFree
import Testing

/// C: environment lookup, scope and per-key invalidation.
@MainActor
@Suite struct ViewGraphEnvironmentTests {
  struct AccentReader: View {
    @Environment(\.accent) private var accent
    var body: some View { Text("accent \(accent)") }
  }

  struct LevelReader: View {
    @Environment(\.level) private var level
    var body: some View { Text("level \(level)") }
  }

  struct Middle: View {
    var body: some View {
      VStack {
        AccentReader()
        LevelReader()
      }
    }
  }

  struct Root: View {
    let model: Triple
    var body: some View {
      VStack {
        Middle()
          .environment(\.accent, model.flag ? "red" : "blue")
          .environment(\.level, model.a)
        AccentReader()
      }
    }
  }

  struct ThemeReader: View {
    @Environment(\.theme) private var theme
    var body: some View { Text("\(theme.color) \(theme.size)") }
  }

  struct NestedThemeWriter: View {
    let model: Triple
    var body: some View {
      VStack {
        ThemeReader().environment(\.theme.size, 20)
        ThemeReader()
      }
      .environment(\.theme, Theme(color: model.flag ? "red" : "blue", size: 12))
    }
  }

  /// SwiftUI semantics: `.environment(\.theme.size, v)` modifies the inherited theme.
  @Test func aWriteIntoAnInheritedValueKeepsTheRestOfItAndFollowsItsChanges() {
    let model = Triple()
    let host = ViewHost(NestedThemeWriter(model: model))
    #expect(host.texts == ["red 20", "red 12"])
    host.resetCounts()
    model.flag = false
    host.flush()
    #expect(host.texts == ["blue 20", "blue 12"])
    #expect(host.bodyCount(ThemeReader.self) == 2)
  }

  @Test func lookupFindsNearestAncestorOrDefault() {
    let host = ViewHost(Root(model: Triple()))
    #expect(host.texts == ["accent red", "level 0", "accent none"])
  }

  @Test func innermostModifierWins() {
    struct Chained: View {
      var body: some View {
        AccentReader().environment(\.accent, "inner").environment(\.accent, "outer")
      }
    }
    let host = ViewHost(Chained())
    #expect(host.texts == ["accent inner"])
  }

  @Test func changingAKeyReEvaluatesOnlyItsReaders() {
    let model = Triple()
    let host = ViewHost(Root(model: model))
    host.resetCounts()
    model.flag = false
    host.flush()
    #expect(host.texts == ["accent blue", "level 0", "accent none"])
    #expect(host.bodyCount(Root.self) == 1)
    #expect(host.bodyCount(Middle.self) == 0)
    #expect(host.bodyCount(AccentReader.self) == 1)
    #expect(host.bodyCount(LevelReader.self) == 0)
    #expect(host.updateLog.map(\.description).contains("AccentReader ← environment AccentKey"))
  }

  @Test func settingAnEqualValueReEvaluatesNoReader() {
    let model = Triple()
    let host = ViewHost(Root(model: model))
    host.resetCounts()
    model.b = 1
    model.a = 0
    host.flush()
    #expect(host.totalBodyEvaluations == 0)
    model.a = 3
    host.flush()
    #expect(host.bodyLog == ["Root", "LevelReader"])
  }

  final class Account: Observable {
    private let registrar = ObservationRegistrar()
    private var _userName: String?
    var userName: String? {
      get {
        registrar.access(self, keyPath: \.userName)
        return _userName
      }
      set {
        registrar.withMutation(of: self, keyPath: \.userName, replacing: _userName, with: newValue)
        {
          _userName = newValue
        }
      }
    }
  }

  struct Badge: View {
    @Environment(Account.self) private var account
    var body: some View { Text(account.userName ?? "Guest") }
  }

  struct OptionalBadge: View {
    @Environment(Account.self) private var account: Account?
    var body: some View { Text(account == nil ? "no account" : "has account") }
  }

  @Test func missingEnvironmentObjectIsARecordedIssueNamingTheType() {
    let host = ViewHost(
      VStack {
        Badge()
        OptionalBadge()
      })
    #expect(host.issues.count == 1)
    let issue = host.issues.first
    #expect(issue?.kind == .missingEnvironmentObject)
    #expect(issue?.message.contains("Account") == true)
    #expect(issue?.message.contains("View.environment(_:)") == true)
    #expect(host.bodyCount(Badge.self) == 0)
    #expect(host.texts == ["no account"])
    #expect(host.render().contains("⚠ Badge: No Observable object of type Account found"))
  }

  @Test func injectedObjectIsTrackedPerPropertyRead() {
    let account = Account()
    let host = ViewHost(
      VStack {
        Badge()
        OptionalBadge()
      }.environment(account))
    #expect(host.texts == ["Guest", "has account"])
    account.userName = "Ada"
    host.flush()
    #expect(host.texts == ["Ada", "has account"])
    #expect(host.bodyCount(Badge.self) == 2)
    #expect(host.bodyCount(OptionalBadge.self) == 1)
  }

  struct Switching: View {
    let first: Account
    let second: Account
    @State private var useSecond = false
    var body: some View {
      VStack {
        Badge()
        Toggle("second", isOn: $useSecond)
      }
      .environment(useSecond ? second : first)
    }
  }

  @Test func replacingTheInjectedObjectReEvaluatesItsReaders() throws {
    let first = Account()
    let second = Account()
    second.userName = "Grace"
    let host = ViewHost(Switching(first: first, second: second))
    try host.toggle("second")
    #expect(host.texts == ["Grace"])
    #expect(host.updateLog.map(\.description).contains("Badge ← environment Account"))
    host.perform { first.userName = "Ada" }
    #expect(host.bodyCount(Badge.self) == 2, "the replaced object no longer invalidates")
  }

  @Test func readingOutsideAViewReturnsTheDefaultAndIsReported() {
    let reported = ObservationDiagnostics.capture {
      #expect(Environment(\.accent).wrappedValue == "none")
    }
    #expect(reported.count == 1)
    #expect(reported.first?.message.contains("Environment<String>") == true)
  }
}
