import ReactiveStateMacrosFree

/// A model with three independent properties, written as the `@Observable` macro's expansion.
final class Triple: Observable {
  private let registrar = ObservationRegistrar()
  private var _a = 0
  private var _b = 0
  private var _flag = true

  var a: Int {
    get {
      registrar.access(self, keyPath: \.a)
      return _a
    }
    set {
      registrar.withMutation(of: self, keyPath: \.a, replacing: _a, with: newValue) {
        _a = newValue
      }
    }
  }

  var b: Int {
    get {
      registrar.access(self, keyPath: \.b)
      return _b
    }
    set {
      registrar.withMutation(of: self, keyPath: \.b, replacing: _b, with: newValue) {
        _b = newValue
      }
    }
  }

  var flag: Bool {
    get {
      registrar.access(self, keyPath: \.flag)
      return _flag
    }
    set {
      registrar.withMutation(of: self, keyPath: \.flag, replacing: _flag, with: newValue) {
        _flag = newValue
      }
    }
  }
}

/// A counter with `@State`, labelled so several can be told apart.
struct CounterView: View {
  let label: String
  @State private var count = 0

  var body: some View {
    Button("\(label) \(count)") { count += 1 }
  }
}

/// `EnvironmentValues.accent` / `.depth`, for environment tests.
struct AccentKey: EnvironmentKey {
  static let defaultValue = "none"
}

struct LevelKey: EnvironmentKey {
  static let defaultValue = 0
}

/// A value with parts, for writes through a nested key path (`\.theme.size`).
struct Theme: Equatable {
  var color = "plain"
  var size = 10
}

struct ThemeKey: EnvironmentKey {
  static let defaultValue = Theme()
}

extension EnvironmentValues {
  var theme: Theme {
    get { self[ThemeKey.self] }
    set { self[ThemeKey.self] = newValue }
  }

  var accent: String {
    get { self[AccentKey.self] }
    set { self[AccentKey.self] = newValue }
  }

  var level: Int {
    get { self[LevelKey.self] }
    set { self[LevelKey.self] = newValue }
  }
}
