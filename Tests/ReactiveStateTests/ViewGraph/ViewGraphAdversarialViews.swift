import ReactiveStateMacrosFree

// The models and views of `ViewGraphAdversarialTests` (prefixed `Adv`).

// MARK: - Models

/// An observable model (`@Tracked`: the macro's accessors without the boilerplate).
final class AdvModel: TrackedObservable {
  let observationRegistrar = ObservationRegistrar()
  @Tracked var a = 0
  @Tracked var name = "start"
  @Tracked var flag = true
  @Tracked var items: [AdvItem] = []
}

struct AdvItem: Identifiable, Equatable {
  let id: Int
  var name: String
}

/// A legacy model.
final class AdvLegacy: ObservableObject {
  @Published var count = 0
  @Published var note = ""
}

/// A legacy model that announces its changes by hand, from `willSet`.
final class AdvManualLegacy: ObservableObject {
  let objectWillChange = ObservableObjectPublisher()
  var value = 0 {
    willSet { objectWillChange.send() }
  }
}

@MainActor final class AdvLog {
  var entries: [String] = []
  /// Closures views handed out, to call later.
  var actions: [@MainActor () -> Void] = []
}

/// Tasks that wait until cancelled, recording each start and cancellation by id.
@MainActor final class AdvTaskProbe {
  var started: [Int] = []
  var cancelled: [Int] = []
  var finished: [Int] = []

  func run(_ id: Int) async {
    started.append(id)
    do {
      // "Forever": only cancellation ends it.
      try await Task.sleep(for: .seconds(86_400))
      finished.append(id)
    } catch {
      cancelled.append(id)
    }
  }

  func waitUntil(_ condition: () -> Bool) async {
    for _ in 0..<10_000 where !condition() { await Task.yield() }
  }
}

struct AdvAccentKey: EnvironmentKey {
  static let defaultValue = "default"
}

struct AdvOtherKey: EnvironmentKey {
  static let defaultValue = "other default"
}

extension EnvironmentValues {
  var advAccent: String {
    get { self[AdvAccentKey.self] }
    set { self[AdvAccentKey.self] = newValue }
  }

  var advOther: String {
    get { self[AdvOtherKey.self] }
    set { self[AdvOtherKey.self] = newValue }
  }
}

// MARK: - Views

struct AdvCounter: View {
  let label: String
  @State private var count = 0
  var body: some View {
    Button("\(label) \(count)") { count += 1 }
  }
}

struct AdvSiblingsOfDynamicContent: View {
  let model: AdvModel
  var body: some View {
    VStack {
      if model.flag { Text("banner") }
      ForEach(0..<model.a) { index in Text("line \(index)") }
      AdvCounter(label: "kept")
    }
  }
}

struct AdvRow: View {
  let item: AdvItem
  @State private var taps = 0
  var body: some View {
    Button("\(item.name) \(taps)") { taps += 1 }
  }
}

struct AdvRows: View {
  let model: AdvModel
  var body: some View {
    ForEach(model.items) { item in AdvRow(item: item) }
  }
}

struct AdvExplicitID: View {
  let model: AdvModel
  var body: some View {
    AdvCounter(label: "doc").id(model.a)
  }
}

struct AdvAccentReader: View {
  let tag: String
  @Environment(\.advAccent) private var accent
  var body: some View { Text("\(tag) \(accent)") }
}

struct AdvNestedEnvironment: View {
  let model: AdvModel
  var body: some View {
    VStack {
      AdvAccentReader(tag: "outer")
      VStack { AdvAccentReader(tag: "inner") }.environment(\.advAccent, "fixed")
    }
    .environment(\.advAccent, model.name)
  }
}

struct AdvConditionalAccentReader: View {
  let model: AdvModel
  @Environment(\.advAccent) private var accent
  var body: some View {
    if model.flag { Text("accent \(accent)") } else { Text("no accent") }
  }
}

struct AdvConditionalEnvironment: View {
  let model: AdvModel
  var body: some View {
    AdvConditionalAccentReader(model: model).environment(\.advAccent, model.name)
  }
}

/// Holds the environment object but reads it only in an action, never in `body`.
struct AdvEnvironmentObjectActionOnly: View {
  @EnvironmentObject var model: AdvLegacy
  var body: some View {
    Button("bump") { model.count += 1 }
  }
}

struct AdvEnvironmentObjectSwapper: View {
  let first: AdvLegacy
  let second: AdvLegacy
  @State private var usesSecond = false
  var body: some View {
    VStack {
      Button("swap") { usesSecond = true }
      AdvEnvironmentObjectActionOnly()
    }
    .environmentObject(usesSecond ? second : first)
  }
}

/// Holds the object but reads none of its properties.
struct AdvLegacyHolder: View {
  @ObservedObject var model: AdvLegacy
  var body: some View { Text("holder") }
}

struct AdvLegacyCountReader: View {
  @ObservedObject var model: AdvLegacy
  var body: some View { Text("count \(model.count)") }
}

/// Holds the object in a plain `let`: no subscription.
struct AdvLegacyPlain: View {
  let model: AdvLegacy
  var body: some View { Text("plain") }
}

struct AdvLegacyScreen: View {
  let model: AdvLegacy
  var body: some View {
    VStack {
      AdvLegacyHolder(model: model)
      AdvLegacyCountReader(model: model)
      AdvLegacyPlain(model: model)
    }
  }
}

struct AdvStateObjectOwner: View {
  @StateObject private var model: AdvLegacy
  init(model: AdvLegacy) { _model = StateObject(wrappedValue: model) }
  var body: some View { Text("owner \(model.count)") }
}

/// Mounts a holder of each legacy kind while `model.flag` is true.
struct AdvLegacyHolders: View {
  let model: AdvModel
  let legacy: AdvLegacy
  var body: some View {
    VStack {
      if model.flag {
        AdvLegacyHolder(model: legacy)
        AdvStateObjectOwner(model: legacy)
        AdvEnvironmentObjectActionOnly()
      }
    }
    .environmentObject(legacy)
  }
}

struct AdvManualReader: View {
  @ObservedObject var model: AdvManualLegacy
  var body: some View { Text("value \(model.value)") }
}

struct AdvBindingWriter: View {
  @Binding var value: Int
  var body: some View {
    value = 5
    return Text("child \(value)")
  }
}

struct AdvBindingOwner: View {
  @State private var value = 0
  var body: some View {
    VStack {
      Text("owner \(value)")
      AdvBindingWriter(value: $value)
    }
  }
}

/// `.task(id:)` restarted by the id, hidden by the flag.
struct AdvTaskScreen: View {
  let model: AdvModel
  let probe: AdvTaskProbe
  var body: some View {
    let id = model.a
    let name = model.name
    if model.flag {
      Text("task \(name)").task(id: id) { await probe.run(id) }
    }
  }
}

/// Lifecycle modifiers on both sides of `.id`.
struct AdvIDLifecycle: View {
  let model: AdvModel
  let log: AdvLog
  var body: some View {
    let value = model.a
    Text("v \(value)")
      .onChange(of: value) { old, new in log.entries.append("inner change \(old)->\(new)") }
      .onAppear { log.entries.append("inner appear \(value)") }
      .onDisappear { log.entries.append("inner disappear \(value)") }
      .id(value)
      .onAppear { log.entries.append("outer appear") }
      .onChange(of: value) { old, new in log.entries.append("outer change \(old)->\(new)") }
  }
}

struct AdvLifecycleRow: View {
  let item: AdvItem
  let log: AdvLog
  let probe: AdvTaskProbe
  var body: some View {
    Text("row \(item.id)")
      .onAppear { log.entries.append("appear \(item.id)") }
      .onDisappear { log.entries.append("disappear \(item.id)") }
      .task { await probe.run(item.id) }
  }
}

struct AdvLifecycleRows: View {
  let model: AdvModel
  let log: AdvLog
  let probe: AdvTaskProbe
  var body: some View {
    ForEach(model.items) { item in AdvLifecycleRow(item: item, log: log, probe: probe) }
  }
}

struct AdvLateChild: View {
  let value: Int
  let log: AdvLog
  var body: some View {
    Text("late \(value)")
      .onAppear { log.entries.append("child appear") }
      .onChange(of: value, initial: true) { old, new in
        log.entries.append("child initial \(old)->\(new)")
      }
      .onChange(of: value) { old, new in log.entries.append("child change \(old)->\(new)") }
  }
}

struct AdvOnChangeOrder: View {
  let model: AdvModel
  let log: AdvLog
  var body: some View {
    let value = model.a
    VStack {
      if value > 0 { AdvLateChild(value: value, log: log) }
    }
    .onChange(of: value) { old, new in log.entries.append("parent \(old)->\(new)") }
  }
}

struct AdvSelfResetting: View {
  @State private var isEditing = true
  var body: some View {
    Text("editing \(isEditing)").onDisappear { isEditing = false }
  }
}

struct AdvCleaningLoader: View {
  @State private var isLoading = false
  var body: some View {
    Text("loading \(isLoading)")
      .task {
        isLoading = true
        defer { isLoading = false }
        try? await Task.sleep(for: .seconds(86_400))
      }
  }
}

struct AdvCleanupScreen: View {
  let model: AdvModel
  var body: some View {
    VStack {
      if model.flag {
        AdvSelfResetting()
        AdvCleaningLoader()
      }
    }
  }
}

struct AdvRemovedReader: View {
  @Environment(\.advAccent) private var accent
  var body: some View { Text("reader \(accent)") }
}

struct AdvRemovesItsReader: View {
  let model: AdvModel
  var body: some View {
    VStack {
      if model.flag { AdvRemovedReader() }
      Text("after")
    }
    .environment(\.advAccent, model.name)
  }
}

/// Sets one key or the other, chosen by `model.flag`, with the same modifier.
struct AdvSwitchesKey: View {
  let model: AdvModel
  var body: some View {
    let keyPath: WritableKeyPath<EnvironmentValues, String> =
      model.flag ? \.advAccent : \.advOther
    AdvAccentReader(tag: "accent").environment(keyPath, "set")
  }
}

/// Hands out a binding to its state when it appears.
struct AdvBindingLender: View {
  @State private var value = 0
  let box: AdvBindingBox
  var body: some View {
    Text("owner \(value)").onAppear { box.binding = $value }
  }
}

@MainActor final class AdvBindingBox {
  var binding: Binding<Int>?
}

/// Writes the box's binding when it disappears.
struct AdvJanitor: View {
  let box: AdvBindingBox
  var body: some View {
    Text("janitor").onDisappear { box.binding?.wrappedValue = 5 }
  }
}

/// Removes the owner and the janitor in separate passes.
struct AdvEndedHolder: View {
  @State private var showsOwner = true
  @State private var showsJanitor = true
  let box: AdvBindingBox
  var body: some View {
    VStack {
      Button("hide owner") { showsOwner = false }
      Button("hide janitor") { showsJanitor = false }
      if showsOwner { AdvBindingLender(box: box) }
      if showsJanitor { AdvJanitor(box: box) }
    }
  }
}
