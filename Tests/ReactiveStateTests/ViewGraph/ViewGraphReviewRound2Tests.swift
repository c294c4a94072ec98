import ReactiveStateMacrosFree
import Testing

@testable import ReactiveState

/// Review round 2 of the view graph: each test pins a confirmed defect.
@MainActor
@Suite struct ViewGraphReviewRound2Tests {
  // MARK: - A withdrawn @Environment(Model.self) keeps the reader subscribed

  /// Reads an injected `Triple` (`@Environment(Triple.self)`) and its `a`.
  struct R2TripleReader: View {
    @Environment(Triple.self) private var model
    var body: some View { Text("a \(model.a)") }
  }

  /// Provides the model, or (same modifier type, so the reader keeps its identity) sets an
  /// unrelated key instead.
  struct R2ProviderThatStopsProviding: View {
    let model: Triple
    @State private var provides = true
    var body: some View {
      VStack {
        Button("Toggle") { provides.toggle() }
        provides
          ? R2TripleReader().environment(model)
          : R2TripleReader().environment(\.accent, "unrelated")
      }
    }
  }

  @Test func aWithdrawnEnvironmentModelIsNoLongerObservedByItsFormerReader() throws {
    let model = Triple()
    let host = ViewHost(R2ProviderThatStopsProviding(model: model))
    #expect(host.texts.contains("a 0"))
    try host.tap("Toggle")
    #expect(host.issues.map(\.kind) == [.missingEnvironmentObject])
    host.resetCounts()
    host.perform { model.a = 1 }
    #expect(host.issues.count == 1, "the withdrawn model's change re-recorded the issue")
    #expect(host.updateLog.isEmpty, "the reader still depends on the withdrawn model")
    try host.tap("Toggle")
    #expect(host.texts.contains("a 1"))
    host.perform { model.a = 2 }
    #expect(host.texts.contains("a 2"), "provided again: observed again")
  }

  // MARK: - The derived-value cut-off swallows invalidations that bypass the observer

  /// Reads a derived value (cut off when it recomputes to an equal value) and a legacy object
  /// (object-level: every `objectWillChange` must re-evaluate it).
  struct R2ParityAndLegacy: View {
    let isEven: Computed<Bool>
    @ObservedObject var legacy: LegacyCounterModel
    var body: some View { Text("\(isEven.value ? "even" : "odd") \(legacy.count)") }
  }

  @Test func anObjectWillChangeIsNotCutOffWithAnUnchangedDerivedValue() {
    let model = Triple()
    let legacy = LegacyCounterModel()
    let isEven = Computed("isEven", isEqual: ==) { model.a % 2 == 0 }
    let host = ViewHost(R2ParityAndLegacy(isEven: isEven, legacy: legacy))
    #expect(host.texts == ["even 0"])
    host.perform {
      legacy.count = 5
      model.a = 2  // still even: the derived value's change is cut off
    }
    #expect(host.texts == ["even 5"], "the objectWillChange was dropped with the cut-off")
    #expect(host.bodyCount(R2ParityAndLegacy.self) == 2)
  }

  /// Reads a derived value and the `\.accent` key.
  struct R2ParityAccent: View {
    let isEven: Computed<Bool>
    @Environment(\.accent) private var accent
    var body: some View { Text("\(isEven.value ? "even" : "odd") \(accent)") }
  }

  /// Sets `\.accent`, or (same modifier type: the reader keeps its identity) `\.level`.
  struct R2KeySwitcher: View {
    let isEven: Computed<Bool>
    let model: Triple
    var body: some View {
      model.flag
        ? R2ParityAccent(isEven: isEven).environment(\.accent, "red")
        : R2ParityAccent(isEven: isEven).environment(\.level, 3)
    }
  }

  @Test func aReshapedEnvironmentIsNotCutOffWithAnUnchangedDerivedValue() {
    let model = Triple()
    let isEven = Computed("isEven", isEqual: ==) { model.a % 2 == 0 }
    let host = ViewHost(R2KeySwitcher(isEven: isEven, model: model))
    #expect(host.texts == ["even red"])
    host.perform {
      model.a = 2  // still even: cut off
      model.flag = false  // the modifier stops setting \.accent: the reader must see the default
    }
    #expect(host.texts == ["even none"], "the reshaped environment was dropped with the cut-off")
  }
}
