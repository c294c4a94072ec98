import ReactiveStateMacrosFree
import Testing

/// Survivors of the session-44 mutation round over the view host's update machinery (flush
/// passes, invalidation, evaluation, actions, node observation, effects and tasks). Each test
/// fails on the mutant its comment names and passes on the real code.
@MainActor
@Suite struct MutationFindingsViewFlushRound44Tests {
  // MARK: - The first invalidation of a batch names the update

  /// Reads an observable model and subscribes to a legacy object.
  struct MixedReader: View {
    let model: Triple
    @ObservedObject var counter: LegacyCounterModel
    var body: some View { Text("\(model.a) \(counter.count)") }
  }

  /// "Why the node is dirty, recorded by the first invalidation of the current batch": a view
  /// invalidated by a model property and then by a legacy object's `objectWillChange` before
  /// the flush is logged once, with the first cause (and the other way round). Kills
  /// `markDirty` storing the cause of every invalidation (the last one wins) rather than
  /// only the one that queued the node.
  @Test(arguments: [true, false])
  func theFirstInvalidationOfABatchNamesTheUpdate(modelFirst: Bool) {
    let model = Triple()
    let counter = LegacyCounterModel()
    let host = ViewHost(MixedReader(model: model, counter: counter), mode: .manual)
    host.resetCounts()
    if modelFirst {
      model.a = 1
      counter.count = 2
    } else {
      counter.count = 2
      model.a = 1
    }
    host.flush()
    #expect(host.texts == ["1 2"])
    let expected: UpdateCause =
      modelFirst
      ? .modelProperty(ObservedKeyPath(\Triple.a))
      : .objectWillChange(type: "LegacyCounterModel")
    #expect(host.updateLog.map(\.cause) == [expected])
  }

  // MARK: - A view whose environment object is provided again renders normally

  /// "A missing `@Environment(Model.self)` object renders as a warning line" only while it is
  /// missing: once the provider supplies the model again, the reader's body runs and
  /// ``ViewHost/render()`` shows the view, not the warning. Kills dropping
  /// `node.failure = nil` from `evaluate`'s successful installation.
  @Test func aReaderWhoseModelIsProvidedAgainNoLongerRendersTheWarning() throws {
    let model = Triple()
    let host = ViewHost(ViewGraphReviewRound2Tests.R2ProviderThatStopsProviding(model: model))
    #expect(!host.render().contains("⚠"))
    try host.tap("Toggle")
    #expect(host.render().contains("⚠ R2TripleReader"))
    try host.tap("Toggle")
    #expect(host.texts.contains("a 0"))
    #expect(!host.render().contains("⚠"), "the reader's model is provided again")
    #expect(host.render().contains("a 0"))
  }
}
