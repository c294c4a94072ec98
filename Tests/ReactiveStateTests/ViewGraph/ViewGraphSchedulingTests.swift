import ReactiveStateMacrosFree
import Testing

/// D: coalescing, ordering, removal and bounded cascades.
@MainActor
@Suite struct ViewGraphSchedulingTests {
  struct AllThree: View {
    let model: Triple
    var body: some View { Text("\(model.a) \(model.b) \(model.flag)") }
  }

  @Test func writesCoalesceIntoOnePassAndOneEvaluation() {
    let model = Triple()
    let host = ViewHost(AllThree(model: model), mode: .manual)
    let passes = host.passCount
    model.a = 1
    model.b = 2
    model.flag = false
    #expect(host.bodyCount(AllThree.self) == 1, "manual mode waits for flush")
    host.flush()
    #expect(host.bodyCount(AllThree.self) == 2)
    #expect(host.passCount == passes + 1)
    #expect(host.texts == ["1 2 false"])
  }

  struct Child: View {
    let value: Int
    let model: Triple
    var body: some View { Text("child \(value) \(model.a)") }
  }

  struct Parent: View {
    let model: Triple
    var body: some View {
      VStack {
        Text("parent \(model.a)")
        if model.flag { Child(value: model.a, model: model) }
      }
    }
  }

  @Test func parentsEvaluateBeforeChildrenAndEachAtMostOncePerPass() {
    let model = Triple()
    let host = ViewHost(Parent(model: model), mode: .manual)
    host.resetCounts()
    model.a = 1
    host.flush()
    #expect(host.bodyLog == ["Parent", "Child"])
    #expect(host.texts == ["parent 1", "child 1 1"])
  }

  @Test func aNodeRemovedByItsParentIsNotEvaluated() {
    let model = Triple()
    let host = ViewHost(Parent(model: model), mode: .manual)
    host.resetCounts()
    model.a = 2
    model.flag = false
    host.flush()
    #expect(host.bodyLog == ["Parent"])
    #expect(host.count(of: Child.self) == 0)
    model.a = 3
    host.flush()
    #expect(host.bodyLog == ["Parent", "Parent"], "the removed child's subscription is dead")
  }

  @Test func automaticModeFlushesAfterActionsAndSchedulesOtherChanges() async {
    let model = Triple()
    let host = ViewHost(AllThree(model: model))
    model.a = 4
    #expect(host.hasPendingUpdates)
    await Task.yield()
    await Task.yield()
    #expect(!host.hasPendingUpdates)
    #expect(host.texts == ["4 0 true"])
    host.perform { model.b = 5 }
    #expect(host.texts == ["4 5 true"])
  }

  @Test func offMainThreadMutationsHopToTheMainActor() async {
    let box = UncheckedBox(Triple())
    let host = ViewHost(AllThree(model: box.model), mode: .manual)
    await Task.detached { box.model.a = 9 }.value
    for _ in 0..<5 { await Task.yield() }
    host.resetCounts()
    host.flush()
    #expect(host.texts == ["9 0 true"])
    #expect(
      host.updateLog.map(\.cause) == [.modelProperty(ObservedKeyPath(\Triple.a))],
      "the hop keeps the key path that invalidated the view")
  }

  struct LegacyReader: View {
    @ObservedObject var counter: LegacyCounterModel
    var body: some View { Text("legacy \(counter.count)") }
  }

  /// The legacy path: `objectWillChange` sent on another thread invalidates the view on the
  /// main actor, logged as that object's change.
  @Test func offMainThreadLegacyChangesHopToTheMainActor() async {
    let counter = UncheckedBox(LegacyCounterModel())
    let host = ViewHost(LegacyReader(counter: counter.model), mode: .manual)
    host.resetCounts()
    await Task.detached { counter.model.count = 3 }.value
    for _ in 0..<5 { await Task.yield() }
    host.flush()
    #expect(host.texts == ["legacy 3"])
    #expect(host.updateLog.map(\.cause) == [.objectWillChange(type: "LegacyCounterModel")])
  }

  /// Hands a main-actor model to a detached task, which mutates it off the main actor.
  final class UncheckedBox<Model>: @unchecked Sendable {
    let model: Model
    init(_ model: Model) { self.model = model }
  }
}
