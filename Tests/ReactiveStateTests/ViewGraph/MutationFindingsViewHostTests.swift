import ReactiveStateMacrosFree
import Testing

extension EnvironmentValues {
  /// Sets both adversarial keys at once: a property whose setter writes two keys.
  fileprivate var hostFindingsAccentAndOther: String {
    get { advAccent }
    set {
      advAccent = newValue
      advOther = newValue
    }
  }
}

/// Promises of the view host, its data wrappers and its legacy wrappers that a second round of
/// mutation testing found unpinned: each test fails when the behaviour it names is broken.
@MainActor
@Suite struct MutationFindingsViewHostTests {
  // MARK: - @State of an existential type holding a model

  /// Holds a model in a `@State` whose declared type is `Any`.
  struct AnyStateOwner: View {
    @State private var held: Any = AuditProfile(id: 1, name: "Ada")
    var body: some View {
      VStack {
        Button("Reload held") { held = AuditProfile(id: 1, name: "Grace") }
        Text("held \((held as? AuditProfile)?.name ?? "none")")
      }
    }
  }

  /// Pins that a `@State` declared as `Any` decides by the dynamic type: another model
  /// instance equal by its `==` is a change, stored and shown.
  @Test func anExistentialStateHoldingAModelIsReplacedByAnEqualInstance() throws {
    let host = ViewHost(AnyStateOwner())
    #expect(host.texts.last == "held Ada")
    try host.tap("Reload held")
    #expect(host.texts.last == "held Grace")
  }

  /// Writes its state's current value from its body.
  struct WritesAnEqualValueInBody: View {
    @State private var count = 0
    var body: some View {
      count = 0
      return Text("count \(count)")
    }
  }

  /// Pins that a `@State` write during `body` is recorded even when it writes the current
  /// value: the write is rejected for being made during the update before it is compared.
  @Test func anEqualStateWriteDuringBodyIsStillRecorded() {
    let host = ViewHost(WritesAnEqualValueInBody())
    #expect(host.texts == ["count 0"])
    #expect(host.issues.map(\.kind) == [.stateWriteDuringUpdate])
  }

  // MARK: - A member binding of a @Bindable projection

  /// `pair` is not observed (as `@ObservationIgnored` in macro code); `revision` is.
  final class PairModel: TrackedObservable {
    let observationRegistrar = ObservationRegistrar()
    var pair = MutationFindingsViewGraphTests.Pair()
    @Tracked var revision = 0
  }

  /// Hands its row a binding to a member of the model's unobserved `pair`.
  struct PairMemberParent: View {
    @Bindable var model: PairModel
    var body: some View {
      Text("rev \(model.revision)")
      MutationFindingsViewGraphTests.MemberField(text: $model.pair.left)
    }
  }

  /// Pins that a binding to a member (`$model.pair.left`) keeps the value its root property had
  /// when it was made: a child handed one whose value changed is re-evaluated, even though the
  /// model does not observe the property.
  @Test func aMemberBindingCarriesItsRootsSnapshot() {
    let model = PairModel()
    let host = ViewHost(PairMemberParent(model: model))
    #expect(host.texts == ["rev 0", "shows L"])
    model.pair.left = "new"
    model.revision += 1
    host.flush()
    #expect(host.texts == ["rev 1", "shows new"])
  }

  // MARK: - Environment modifiers whose set of keys changes

  /// Reads `\.advOther`.
  struct OtherReader: View {
    @Environment(\.advOther) private var other
    var body: some View { Text("other \(other)") }
  }

  /// Sets both keys, or only `\.advAccent`, with the same modifier.
  struct DropsOneOfTwoKeys: View {
    let model: AdvModel
    var body: some View {
      let keyPath: WritableKeyPath<EnvironmentValues, String> =
        model.flag ? \.hostFindingsAccentAndOther : \.advAccent
      OtherReader().environment(keyPath, "set")
    }
  }

  /// Pins that a modifier that stops setting one of its keys (and keeps the other) reshapes
  /// the environment: the reader of the dropped key sees its default again.
  @Test func aModifierDroppingOneOfItsKeysRevealsThatKeysDefault() {
    let model = AdvModel()
    let host = ViewHost(DropsOneOfTwoKeys(model: model))
    #expect(host.texts == ["other set"])
    host.perform { model.flag = false }
    #expect(host.texts == ["other other default"])
  }

  /// Switches the key it sets, and shows a counter beside an accent reader.
  struct SwitchesKeyBesideACounter: View {
    let model: AdvModel
    var body: some View {
      let keyPath: WritableKeyPath<EnvironmentValues, String> =
        model.flag ? \.advAccent : \.advOther
      VStack {
        Text("a \(model.a)")
        AdvAccentReader(tag: "accent")
      }
      .environment(keyPath, "set")
    }
  }

  /// Pins that once a modifier switched keys, it forgets the key it no longer sets: its later
  /// re-expansions do not re-evaluate the views below it again.
  @Test func aModifierThatSwitchedKeysDoesNotReshapeAgainOnLaterUpdates() {
    let model = AdvModel()
    let host = ViewHost(SwitchesKeyBesideACounter(model: model))
    host.perform { model.flag = false }
    #expect(host.texts == ["a 0", "accent default"])
    host.resetCounts()
    host.perform { model.a = 1 }
    #expect(host.texts == ["a 1", "accent default"])
    #expect(host.bodyCount(AdvAccentReader.self) == 0)
  }

  // MARK: - @StateObject read after its identity ended

  /// Owns a legacy profile.
  struct ProfileOwner: View {
    @StateObject var profile = AuditLegacyProfile(id: 1, name: "Ada")
    var body: some View { Text("owned \(profile.name)") }
  }

  /// Stores its child's view value and shows it until "Hide owner".
  struct StoresProfileOwner: View {
    let child: ProfileOwner
    @State private var shown = true
    var body: some View {
      VStack {
        Button("Hide owner") { shown = false }
        if shown { child }
      }
    }
  }

  /// Pins that reading a `@StateObject` after its identity ended and released the object
  /// reports a read after the end, not a read before mounting.
  @Test func aStateObjectReadAfterItsIdentityEndedSaysSo() throws {
    let owner = ProfileOwner()
    let host = ViewHost(StoresProfileOwner(child: owner))
    #expect(host.texts.contains("owned Ada"))
    try host.tap("Hide owner")
    let reported = ObservationDiagnostics.capture { _ = owner.profile }
    #expect(reported.count == 1)
    #expect(reported.first?.message.contains("read after its view's identity ended") == true)
  }

  // MARK: - New input for a child already evaluated in the pass

  /// Shows its label and a derived value; writes `b` from its body once `a` is positive.
  struct WritesBFromBody: View {
    let label: String
    let model: Triple
    let isNonNegative: Computed<Bool>
    var body: some View {
      if model.a > 0 { model.b = 5 }
      return Text("\(label) \(isNonNegative.value)")
    }
  }

  /// Hands its child a label made from `b`.
  struct LabelsFromB: View {
    let model: Triple
    let isNonNegative: Computed<Bool>
    var body: some View {
      WritesBFromBody(label: "b \(model.b)", model: model, isNonNegative: isNonNegative)
    }
  }

  /// Pins that a child evaluated earlier in a pass, then handed new input by its parent in
  /// the same pass, runs its body in the next pass even when its only queued change is a
  /// derived value that recomputes to an equal one.
  @Test func newInputAfterTheChildsEvaluationInThePassIsShown() {
    let model = Triple()
    let isNonNegative = Computed("isNonNegative", isEqual: ==) { model.b >= 0 }
    let host = ViewHost(LabelsFromB(model: model, isNonNegative: isNonNegative))
    #expect(host.texts == ["b 0 true"])
    model.a = 1
    host.flush()
    #expect(host.texts == ["b 5 true"])
    #expect(!host.issues.isEmpty)
    #expect(host.issues.allSatisfy { $0.kind == .modelWriteDuringUpdate })
  }

  // MARK: - Apps and windows

  /// Declares an `@Environment` property, which has no ancestor above the app.
  struct EnvironmentReadingApp: App {
    @Environment(\.accent) var accent
    @State private var launches = 0
    var body: some Scene {
      WindowGroup { Text("launches \(launches)") }
    }
  }

  /// Pins that an app's `@Environment` is not linked by the ``AppHost`` (only its `@State` and
  /// `@StateObject` are): reading it reports a read outside a view installed in a host.
  @Test func anAppsEnvironmentPropertyIsNotLinked() throws {
    let app = AppHost(EnvironmentReadingApp())
    #expect(try app.openWindow().host.texts == ["launches 0"])
    let reported = ObservationDiagnostics.capture { #expect(app.app.accent == "none") }
    #expect(reported.count == 1)
    #expect(reported.first?.message.contains("outside a view installed in a host") == true)
  }

  /// Pins that windows are numbered in opening order from 1, and a closed window's number is
  /// not reused.
  @Test func windowsAreNumberedInOpeningOrderFromOne() throws {
    let app = AppHost(MutationFindingsViewGraphTests.TwoGroupsApp())
    let first = try app.openWindow()
    let second = try app.openWindow(id: "settings")
    app.close(first)
    let third = try app.openWindow()
    #expect([first.id, second.id, third.id] == [1, 2, 3])
    #expect(app.windows.map(\.id) == [2, 3])
  }

  /// Pins that two ``AppHost``s of one app value own separate app state: the second gets its
  /// own copy of the app's properties, and its windows read that copy.
  @Test func twoHostsOfOneAppValueHaveTheirOwnState() throws {
    let value = AppValueStateTests.CountingApp()
    let first = AppHost(value)
    let second = AppHost(value)
    let firstWindow = try first.openWindow()
    let secondWindow = try second.openWindow()
    try firstWindow.host.tap("Count 0")
    first.flush()
    second.flush()
    #expect(firstWindow.host.texts.first == "shown 1")
    #expect(secondWindow.host.texts.first == "shown 0")
  }
}
