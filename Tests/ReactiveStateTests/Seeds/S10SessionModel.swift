import ReactiveStateMacrosFree

/// A signed-in user (S10, S25).
struct SessionUser: Equatable, Sendable {
  var displayName: String
}

/// S10, S25 (seed 001): the session injected at the root (or owned by the app).
@MainActor
final class Session: Observable {
  private let registrar = ObservationRegistrar()
  private var _user: SessionUser?
  private var _nameDraft = ""

  var user: SessionUser? {
    get {
      registrar.access(self, keyPath: \.user)
      return _user
    }
    set {
      registrar.withMutation(of: self, keyPath: \.user, replacing: _user, with: newValue) {
        _user = newValue
      }
    }
  }

  var nameDraft: String {
    get {
      registrar.access(self, keyPath: \.nameDraft)
      return _nameDraft
    }
    set {
      registrar.withMutation(of: self, keyPath: \.nameDraft, replacing: _nameDraft, with: newValue)
      { _nameDraft = newValue }
    }
  }

  func logIn() { user = SessionUser(displayName: nameDraft) }
  func logIn(as name: String) { user = SessionUser(displayName: name) }
  func logOut() { user = nil }
}
