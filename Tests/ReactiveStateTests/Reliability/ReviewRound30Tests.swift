import ReactiveStateMacrosFree
import Testing

// Review round 30: today's changes (view-graph identity of Observable models, the derived and
// observer hot paths). Models: `AuditProfile` (an Observable model equal by id).

@MainActor
@Suite struct ReviewRound30Tests {
  /// A field of optional type holding an `Observable` model equal by its `==` (an id) to the
  /// previous one: the child observes the instance it holds, so it must re-evaluate. The
  /// identity rule looked at the field's type, `Optional<Model>`, which is no class but is
  /// `Equatable`: `==` decided, the child was skipped and kept showing the old instance.
  @Test func anOptionalPassedModelEqualByItsEqualsStillReEvaluatesTheChild() throws {
    let first = AuditProfile(id: 1, name: "Ada")
    let second = AuditProfile(id: 1, name: "Grace")
    let host = ViewHost(Round30OptionalPasser(first: first, second: second))
    #expect(host.texts == ["swap", "opt Ada", "optweak Ada", "any Ada"])
    try host.tap("swap")
    #expect(host.texts == ["swap", "opt Grace", "optweak Grace", "any Grace"])
    host.perform { second.name = "Lin" }
    #expect(host.texts == ["swap", "opt Lin", "optweak Lin", "any Lin"], "the new one is observed")
    host.resetCounts()
    host.perform { first.name = "gone" }
    #expect(host.updateLog.isEmpty, "the old one is not")
  }

  /// The same for a `@State` of optional model type: writing another instance equal by id
  /// was dropped (`Optional`'s `==`), so the state kept and observed the old model.
  @Test func anOptionalStateModelReplacedByOneEqualByItsEqualsIsReplaced() throws {
    try expectStateModelReplaced(in: ViewHost(Round30OptionalStateOwner()))
  }

  /// The same for a `@State` of existential type holding a model: the identity rule looked
  /// at the declared type, `any Round30Named`, no class, and `==` of the model inside decided.
  @Test func anExistentialStateModelReplacedByOneEqualByItsEqualsIsReplaced() throws {
    try expectStateModelReplaced(in: ViewHost(Round30ExistentialStateOwner()))
  }

  /// A state owner's "reload" stores another model equal by id ("Grace"), and "rename"
  /// renames the stored one ("Lin"): its text shows each, so the new instance is observed.
  private func expectStateModelReplaced(in host: ViewHost) throws {
    #expect(host.texts.last == "state Ada")
    try host.tap("reload")
    #expect(host.texts.last == "state Grace")
    try host.tap("rename")
    #expect(host.texts.last == "state Lin")
  }

  /// The same for an environment value of optional model type: the cell compared the two
  /// optionals with `==`, so readers kept showing and observing the old instance.
  @Test func anOptionalEnvironmentModelEqualByItsEqualsStillReplacesThePreviousOne() throws {
    let first = AuditProfile(id: 1, name: "Ada")
    let second = AuditProfile(id: 1, name: "Grace")
    let host = ViewHost(Round30OptionalInjector(first: first, second: second))
    #expect(host.texts == ["swap", "env Ada"])
    try host.tap("swap")
    #expect(host.texts == ["swap", "env Grace"])
    host.perform { second.name = "Lin" }
    #expect(host.texts == ["swap", "env Lin"], "the new instance is observed")
    host.resetCounts()
    host.perform { first.name = "gone" }
    #expect(host.totalBodyEvaluations == 0, "the replaced one is not")
  }
}

/// A name any model may have: a field of this existential type holds a model.
@MainActor protocol Round30Named: AnyObject {
  var name: String { get }
}

extension AuditProfile: Round30Named {}

struct Round30OptionalLetReader: View {
  let profile: AuditProfile?
  var body: some View { Text("opt \(profile?.name ?? "none")") }
}

/// The same with a `weak` field, which keeps it off the in-place field comparison.
struct Round30OptionalWeakReader: View {
  let profile: AuditProfile?
  weak var anchor: AuditLog?
  var body: some View { Text("optweak \(profile?.name ?? "none")") }
}

struct Round30ExistentialReader: View {
  let profile: any Round30Named
  var body: some View { Text("any \(profile.name)") }
}

/// Passes one profile (as an optional and as an existential), then another instance equal to
/// it by `==`.
struct Round30OptionalPasser: View {
  let first: AuditProfile
  let second: AuditProfile
  @State private var usesSecond = false
  var body: some View {
    let profile = usesSecond ? second : first
    VStack {
      Button("swap") { usesSecond = true }
      Round30OptionalLetReader(profile: profile)
      Round30OptionalWeakReader(profile: profile)
      Round30ExistentialReader(profile: profile)
    }
  }
}

/// Owns an optional profile in `@State` and replaces it by another instance equal by `==`.
struct Round30OptionalStateOwner: View {
  @State private var profile: AuditProfile? = AuditProfile(id: 1, name: "Ada")
  var body: some View {
    VStack {
      Button("reload") { profile = AuditProfile(id: 1, name: "Grace") }
      Button("rename") { profile?.name = "Lin" }
      Text("state \(profile?.name ?? "none")")
    }
  }
}

/// Owns a profile in a `@State` of existential type and replaces it by another instance equal
/// by `==`.
struct Round30ExistentialStateOwner: View {
  @State private var profile: any Round30Named = AuditProfile(id: 1, name: "Ada")
  var body: some View {
    VStack {
      Button("reload") { profile = AuditProfile(id: 1, name: "Grace") }
      Button("rename") { (profile as? AuditProfile)?.name = "Lin" }
      Text("state \(profile.name)")
    }
  }
}

struct Round30ProfileKey: EnvironmentKey {
  static let defaultValue: AuditProfile? = nil
}

extension EnvironmentValues {
  var round30Profile: AuditProfile? {
    get { self[Round30ProfileKey.self] }
    set { self[Round30ProfileKey.self] = newValue }
  }
}

struct Round30OptionalEnvReader: View {
  @Environment(\.round30Profile) private var profile
  var body: some View { Text("env \(profile?.name ?? "none")") }
}

/// Injects an optional profile, then (after "swap") another instance equal to it by `==`.
struct Round30OptionalInjector: View {
  let first: AuditProfile
  let second: AuditProfile
  @State private var usesSecond = false
  var body: some View {
    VStack {
      Button("swap") { usesSecond = true }
      Round30OptionalEnvReader()
    }
    .environment(\.round30Profile, usesSecond ? second : first)
  }
}
