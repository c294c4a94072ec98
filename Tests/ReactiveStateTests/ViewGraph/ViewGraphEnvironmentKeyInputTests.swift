import ReactiveStateMacrosFree
import Testing

// A child whose `@Environment` key path is an input from its parent (`init(key:)`): which key
// it reads is part of the view value, so a parent passing another key re-evaluates it, as
// SwiftUI's view comparison does (the key path is stored in the view). The value read lives in
// the identity; the key does not.

/// Two string keys a parent can choose between.
struct EnvKeyInputFirst: EnvironmentKey { static let defaultValue = "first default" }
struct EnvKeyInputSecond: EnvironmentKey { static let defaultValue = "second default" }

extension EnvironmentValues {
  var envKeyInputFirst: String {
    get { self[EnvKeyInputFirst.self] }
    set { self[EnvKeyInputFirst.self] = newValue }
  }
  var envKeyInputSecond: String {
    get { self[EnvKeyInputSecond.self] }
    set { self[EnvKeyInputSecond.self] = newValue }
  }
}

/// The model choosing the key, and an unrelated counter the parent also reads.
final class EnvKeyInputModel: TrackedObservable {
  let observationRegistrar = ObservationRegistrar()
  @Tracked var usesFirst = true
  @Tracked var unrelated = 0
}

/// Reads the key its parent passes.
struct EnvKeyInputReader: View {
  @Environment private var value: String
  init(key: KeyPath<EnvironmentValues, String>) { _value = Environment(key) }
  var body: some View { Text("reads \(value)") }
}

/// Sets both keys and passes one of them to the reader.
struct EnvKeyInputParent: View {
  let model: EnvKeyInputModel
  var body: some View {
    VStack {
      Text("unrelated \(model.unrelated)")
      EnvKeyInputReader(key: model.usesFirst ? \.envKeyInputFirst : \.envKeyInputSecond)
    }
    .environment(\.envKeyInputFirst, "one")
    .environment(\.envKeyInputSecond, "two")
  }
}

@MainActor
@Suite struct ViewGraphEnvironmentKeyInputTests {
  @Test func aChildGivenAnotherKeyReadsTheNewKey() {
    let model = EnvKeyInputModel()
    let host = ViewHost(EnvKeyInputParent(model: model))
    #expect(host.texts == ["unrelated 0", "reads one"])
    host.perform { model.usesFirst = false }
    #expect(host.texts == ["unrelated 0", "reads two"], "the reader follows the new key")
    host.perform { model.usesFirst = true }
    #expect(host.texts == ["unrelated 0", "reads one"])
  }

  @Test func theSameKeyStillSkipsTheChild() {
    let model = EnvKeyInputModel()
    let host = ViewHost(EnvKeyInputParent(model: model))
    host.resetCounts()
    host.perform { model.unrelated = 1 }
    #expect(host.texts == ["unrelated 1", "reads one"])
    #expect(host.bodyCount(EnvKeyInputParent.self) == 1)
    #expect(host.bodyCount(EnvKeyInputReader.self) == 0, "an equal key path is an equal input")
  }
}
