import ReactiveStateMacrosFree

// The models and views of `ViewRuntimeAcceptanceAuditTests` that replace a model by another
// instance equal to it by its own `==` (an id): objects are compared by identity.

/// An observable model equal by id, whatever its name.
@MainActor final class AuditProfile: TrackedObservable, Equatable {
  let observationRegistrar = ObservationRegistrar()
  let id: Int
  @Tracked var name: String

  init(id: Int, name: String) {
    self.id = id
    self.name = name
  }

  nonisolated static func == (lhs: AuditProfile, rhs: AuditProfile) -> Bool { lhs.id == rhs.id }
}

/// A legacy model equal by id, whatever its name.
final class AuditLegacyProfile: ObservableObject, Equatable {
  let id: Int
  @Published var name: String

  init(id: Int, name: String) {
    self.id = id
    self.name = name
  }

  static func == (lhs: AuditLegacyProfile, rhs: AuditLegacyProfile) -> Bool { lhs.id == rhs.id }
}

struct AuditProfileReader: View {
  @Environment(AuditProfile.self) private var profile
  var body: some View { Text("name \(profile.name)") }
}

struct AuditLegacyProfileReader: View {
  @EnvironmentObject var profile: AuditLegacyProfile
  var body: some View { Text("legacy \(profile.name)") }
}

/// Injects one profile of each kind, then (after "swap") another instance equal to it by `==`.
struct AuditProfileInjector: View {
  let first: (AuditProfile, AuditLegacyProfile)
  let second: (AuditProfile, AuditLegacyProfile)
  @State private var usesSecond = false
  var body: some View {
    let (profile, legacy) = usesSecond ? second : first
    VStack {
      Button("swap") { usesSecond = true }
      AuditProfileReader()
      AuditLegacyProfileReader()
    }
    .environment(profile)
    .environmentObject(legacy)
  }
}

struct AuditProfileLetReader: View {
  let profile: AuditProfile
  var body: some View { Text("let \(profile.name)") }
}

/// The same with a `weak` field, which keeps it off the in-place field comparison.
struct AuditProfileWeakReader: View {
  let profile: AuditProfile
  weak var anchor: AuditLog?
  var body: some View { Text("weak \(profile.name)") }
}

struct AuditProfileBindableReader: View {
  @Bindable var profile: AuditProfile
  var body: some View { TextField("bindable", text: $profile.name) }
}

/// Owns a profile in `@State` and replaces it by another instance equal to it by `==`.
struct AuditProfileOwner: View {
  @State private var profile = AuditProfile(id: 1, name: "Ada")
  var body: some View {
    VStack {
      Button("reload") { profile = AuditProfile(id: 1, name: "Grace") }
      Button("rename") { profile.name = "Lin" }
      Text("state \(profile.name)")
    }
  }
}

/// Passes one profile to its children, then (after "swap") another instance equal to it by `==`.
struct AuditProfilePasser: View {
  let first: AuditProfile
  let second: AuditProfile
  @State private var usesSecond = false
  var body: some View {
    let profile = usesSecond ? second : first
    VStack {
      Button("swap") { usesSecond = true }
      AuditProfileLetReader(profile: profile)
      AuditProfileWeakReader(profile: profile)
      AuditProfileBindableReader(profile: profile)
    }
  }
}
