import ReactiveStateMacrosFree
import Testing

/// `@ObservedObject` view values compare by the identity of the observed object (its doc
/// comment), so a new view value carrying another instance re-subscribes. An `ObservableObject`
/// that is also `Equatable` (by id, say) used to be compared with its `==`: a new instance equal
/// to the old one skipped the child, which kept showing and listening to the old instance.
@MainActor
@Suite struct ObservedObjectIdentityTests {
  /// A legacy model equal by id, whatever its other properties hold.
  final class Profile: ObservableObject, Equatable, @unchecked Sendable {
    let id: Int
    @Published var name: String
    init(id: Int, name: String) {
      self.id = id
      self.name = name
    }
    static func == (lhs: Profile, rhs: Profile) -> Bool { lhs.id == rhs.id }
  }

  final class ProfileStore: ObservableObject, @unchecked Sendable {
    @Published var profile = Profile(id: 1, name: "Ada")
  }

  struct ProfileView: View {
    @ObservedObject var profile: Profile
    var body: some View { Text(profile.name) }
  }

  /// The same with a `weak` field, which keeps it off the in-place field comparison.
  struct WeakAnchoredProfileView: View {
    @ObservedObject var profile: Profile
    weak var anchor: ProfileStore?
    var body: some View { Text("weak " + profile.name) }
  }

  struct ProfilePage: View {
    @ObservedObject var store: ProfileStore
    var body: some View {
      ProfileView(profile: store.profile)
      WeakAnchoredProfileView(profile: store.profile, anchor: store)
    }
  }

  @Test func aNewInstanceEqualByEqualsIsObservedInsteadOfTheOldOne() {
    let store = ProfileStore()
    let host = ViewHost(ProfilePage(store: store))
    #expect(host.texts == ["Ada", "weak Ada"])
    let old = store.profile
    store.profile = Profile(id: 1, name: "Grace")
    host.flush()
    #expect(host.texts == ["Grace", "weak Grace"], "another instance: the children re-evaluate")
    store.profile.name = "Lin"
    host.flush()
    #expect(host.texts == ["Lin", "weak Lin"], "the new instance is the one observed")
    let counts = (host.bodyCount(ProfileView.self), host.bodyCount(WeakAnchoredProfileView.self))
    old.name = "gone"
    host.flush()
    #expect(host.bodyCount(ProfileView.self) == counts.0, "the old instance is not observed")
    #expect(host.bodyCount(WeakAnchoredProfileView.self) == counts.1)
  }

  @Test func theSameInstanceStillSkipsTheChild() {
    let store = ProfileStore()
    let host = ViewHost(ProfilePage(store: store))
    store.objectWillChange.send()
    host.flush()
    #expect(host.bodyCount(ProfilePage.self) == 2)
    #expect(host.bodyCount(ProfileView.self) == 1)
    #expect(host.bodyCount(WeakAnchoredProfileView.self) == 1)
  }
}
