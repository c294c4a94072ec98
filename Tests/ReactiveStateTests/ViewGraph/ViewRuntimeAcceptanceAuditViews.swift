import ReactiveStateMacrosFree

// The models and views of `ViewRuntimeAcceptanceAuditTests` (prefixed `Audit`).

// MARK: - Models and logs

/// What the audit's views did, in order, and a way to wait for their tasks.
@MainActor final class AuditLog {
  var entries: [String] = []
  /// `AuditLegacyCounter`s created with this log.
  var made = 0
  /// The host, for actions that look at the tree while they run.
  weak var host: ViewHost?

  /// How many entries contain `part`.
  func count(_ part: String) -> Int { entries.filter { $0.contains(part) }.count }

  /// Yields until `condition` holds, or for a while if it never does.
  func waitUntil(_ condition: () -> Bool) async {
    for _ in 0..<10_000 where !condition() { await Task.yield() }
  }
}

/// A legacy model that counts its instances in a log.
final class AuditLegacyCounter: ObservableObject {
  @Published var count = 0
  @MainActor init(log: AuditLog? = nil) { log?.made += 1 }
}

/// Makes `AuditLegacyCounter`s, counting them, and records which one each body saw.
@MainActor final class AuditFactory {
  var made = 0
  var seen: [ObjectIdentifier] = []

  func make() -> AuditLegacyCounter {
    made += 1
    return AuditLegacyCounter()
  }
}

/// An observable model reached indirectly: a computed property, a method, a nested model and
/// an array of models.
@MainActor final class AuditModel: TrackedObservable {
  let observationRegistrar = ObservationRegistrar()
  @Tracked var a = 0
  @Tracked var b = 0
  @Tracked var child = AuditChild(name: "first")
  @Tracked var children = [AuditChild(name: "x"), AuditChild(name: "y")]

  var doubledA: Int { a * 2 }
  func label() -> String { "b=\(b)" }
}

@MainActor final class AuditChild: TrackedObservable {
  let observationRegistrar = ObservationRegistrar()
  @Tracked var name: String
  init(name: String) { self.name = name }
}

/// A legacy model whose `note` a body writes once `armed` is set.
final class AuditPublisher: ObservableObject {
  @Published var note = ""
  @Published var armed = false
}

// MARK: - A. Identity

struct AuditOwner: View {
  let label: Int
  let factory: AuditFactory
  @StateObject private var model: AuditLegacyCounter

  init(label: Int, factory: AuditFactory) {
    self.label = label
    self.factory = factory
    _model = StateObject(wrappedValue: factory.make())
  }

  var body: some View {
    factory.seen.append(ObjectIdentifier(model))
    return Text("owner \(label)")
  }
}

/// `source.a` is the owner's input, `source.b` its explicit id.
struct AuditOwnerParent: View {
  let source: Triple
  let factory: AuditFactory
  var body: some View { AuditOwner(label: source.a, factory: factory).id(source.b) }
}

/// State, a state object, appear/disappear and a task, all inside the `.id` of its parent.
struct AuditResettable: View {
  let log: AuditLog
  /// Changes with every parent update, so the view re-evaluates each time.
  let tick: Int
  @State private var count = 0
  @StateObject private var model: AuditLegacyCounter

  init(log: AuditLog, tick: Int) {
    self.log = log
    self.tick = tick
    _model = StateObject(wrappedValue: AuditLegacyCounter(log: log))
  }

  var body: some View {
    Button("count \(count)") { count += 1 }
      .onAppear { log.entries.append("inner appear") }
      .onDisappear { log.entries.append("inner disappear") }
      .task {
        log.entries.append("inner task start")
        do {
          try await Task.sleep(for: .seconds(86_400))
        } catch {
          log.entries.append("inner task cancelled")
          count = 99  // a late write of the ended identity
        }
      }
  }
}

struct AuditIDScreen: View {
  let log: AuditLog
  @State private var token = 0
  @State private var tick = 0
  var body: some View {
    VStack {
      Button("new id") { token += 1 }
      Button("tick \(tick)") { tick += 1 }
      AuditResettable(log: log, tick: tick)
        .id(token)
        .onAppear { log.entries.append("outer appear") }
        .onDisappear { log.entries.append("outer disappear") }
        .task {
          log.entries.append("outer task start")
          do {
            try await Task.sleep(for: .seconds(86_400))
          } catch {
            log.entries.append("outer task cancelled")
          }
        }
    }
  }
}

/// One generic view; its specialisations are different types.
struct AuditTagged<Tag>: View {
  @State private var count = 0
  var body: some View { Button("tagged \(count)") { count += 1 } }
}

struct AuditGenericSwitch: View {
  let model: Triple
  let grouped: Bool
  var body: some View {
    if grouped {
      model.flag
        ? AnyView(Group { AuditTagged<Int>() }) : AnyView(Group { AuditTagged<String>() })
    } else {
      model.flag ? AnyView(AuditTagged<Int>()) : AnyView(AuditTagged<String>())
    }
  }
}

// MARK: - B. Writes, bindings and tracking

struct AuditImmediate: View {
  let log: AuditLog
  @State private var count = 0
  var body: some View {
    log.entries.append("body \(count)")
    return Button("twice") {
      count += 1
      count += 1
      log.entries.append("action \(count)")
    }
  }
}

struct AuditElementEditor: View {
  @State private var names = ["a", "b", "c"]
  var body: some View {
    VStack {
      Text(names.joined(separator: ","))
      TextField("second", text: $names[1])
      Toggle("fixed", isOn: .constant(false))
    }
  }
}

struct AuditIndirectReader: View {
  let model: AuditModel
  var body: some View {
    Text("\(model.doubledA) \(model.label()) \(model.child.name) \(model.children[1].name)")
  }
}

struct AuditHandlerReader: View {
  let model: Triple
  let log: AuditLog
  @State private var trigger = 0
  var body: some View {
    Button("trigger \(trigger)") { trigger += 1 }
      .onAppear { log.entries.append("appear a=\(model.a)") }
      .onChange(of: trigger) { log.entries.append("change b=\(model.b)") }
      .task { log.entries.append("task flag=\(model.flag)") }
  }
}

struct AuditLetReader: View {
  let model: Triple
  var body: some View { Text("let \(model.a)") }
}

struct AuditStateReader: View {
  @State private var model: Triple
  init(model: Triple) { _model = State(initialValue: model) }
  var body: some View { Text("state \(model.a)") }
}

struct AuditEnvReader: View {
  @Environment(Triple.self) private var model
  var body: some View { Text("env \(model.a)") }
}

struct AuditBindableReader: View {
  @Bindable var model: Triple
  var body: some View { Text("bindable \(model.a)") }
}

struct AuditWrappers: View {
  let model: Triple
  @State private var tick = 0
  var body: some View {
    VStack {
      Button("tick \(tick)") { tick += 1 }
      AuditLetReader(model: model)
      AuditStateReader(model: model)
      AuditEnvReader()
      AuditBindableReader(model: model)
    }
    .environment(model)
  }
}

struct AuditPublishedReader: View {
  @ObservedObject var model: AuditPublisher
  var body: some View { Text("note \(model.note)") }
}

/// Writes a `@Published` property from its body, once.
struct AuditPublishingWriter: View {
  @ObservedObject var model: AuditPublisher
  var body: some View {
    if model.armed && model.note.isEmpty { model.note = "written in body" }
    return Text("writer")
  }
}

struct AuditPublishingScreen: View {
  let model: AuditPublisher
  var body: some View {
    VStack {
      AuditPublishedReader(model: model)
      AuditPublishingWriter(model: model)
    }
  }
}

struct AuditStopsReadingState: View {
  @State private var showsDetail = true
  @State private var detail = 0
  var body: some View {
    VStack {
      if showsDetail { Text("detail \(detail)") }
      Button("hide") { showsDetail = false }
      Button("bump detail") { detail += 1 }
    }
  }
}

// MARK: - C. Environment

struct AuditAccentAncestor: View {
  @Environment(\.accent) private var accent
  var body: some View {
    VStack {
      Text("ancestor \(accent)")
      ViewGraphEnvironmentTests.AccentReader()
    }
    .environment(\.accent, "inner")
  }
}

// MARK: - D, E, F. Scheduling, lifecycle, API edges

struct AuditAppearWriter: View {
  @State private var loaded = false
  var body: some View { Text(loaded ? "loaded" : "loading").onAppear { loaded = true } }
}

/// Its appear and disappear actions record the texts of the tree as they run, then write state.
struct AuditCommitScreen: View {
  let log: AuditLog
  @State private var shows = true
  @State private var appeared = 0
  @State private var disappeared = 0
  var body: some View {
    VStack {
      Button("hide") { shows = false }
      if shows {
        Text("content")
          .onAppear {
            log.entries.append("appear sees \(log.host?.texts ?? [])")
            appeared += 1
          }
          .onDisappear {
            log.entries.append("disappear sees \(log.host?.texts ?? [])")
            disappeared += 1
          }
      } else {
        Text("appeared \(appeared) disappeared \(disappeared)")
      }
    }
  }
}

/// Shows its binding's value only once asked to.
struct AuditLazyBindingReader: View {
  @Binding var value: Int
  @State private var shows = false
  var body: some View {
    VStack {
      Button("show") { shows = true }
      if shows { Text("value \(value)") }
    }
  }
}

struct AuditLazyBindingOwner: View {
  @State private var value = 0
  var body: some View {
    VStack {
      Button("set 7") { value = 7 }
      AuditLazyBindingReader(value: $value)
    }
  }
}

/// Two plain writes, then two in a `withTransaction`, in one action.
struct AuditTransactionWriter: View {
  let log: AuditLog
  @State private var value = 0
  var body: some View {
    log.entries.append("body \(value)")
    return Button("write") {
      value = 1
      value = 2
      withTransaction {
        value = 3
        value = 4
      }
    }
    .onChange(of: value) { old, new in log.entries.append("change \(old)->\(new)") }
  }
}
