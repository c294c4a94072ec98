import ReactiveStateMacrosFree
import Testing

// Adversarial checks of the headless view graph against SwiftUI's data-flow rules
// (the view-runtime research note, §2), each checking what the other view-graph tests do not.
// The models and views they use are in ViewGraphAdversarialViews.swift.

@MainActor
@Suite struct ViewGraphAdversarialTests {
  // MARK: Identity

  @Test func aSiblingKeepsItsStateWhileAnIfAndAForEachBeforeItChangeShape() throws {
    let model = AdvModel()
    model.a = 1
    let host = ViewHost(AdvSiblingsOfDynamicContent(model: model))
    try host.tap("kept 0")
    try host.tap("kept 1")
    host.perform {
      model.flag = false
      model.a = 3
    }
    #expect(host.texts == ["line 0", "line 1", "line 2", "kept 2"])
    host.perform {
      model.flag = true
      model.a = 0
    }
    #expect(host.texts == ["banner", "kept 2"], "the sibling's slot does not shift")
  }

  @Test func aRowKeepsItsStateWhenItsElementChangesAndANewIDAtThatPlaceStartsFresh() throws {
    let model = AdvModel()
    model.items = [AdvItem(id: 1, name: "one"), AdvItem(id: 2, name: "two")]
    let host = ViewHost(AdvRows(model: model))
    try host.tap("two 0")
    host.resetCounts()
    host.perform { model.items[1].name = "deux" }
    #expect(host.texts == ["one 0", "deux 1"], "same id: the row re-evaluates with its state")
    #expect(host.bodyCount(AdvRow.self) == 1, "only the row whose element changed")
    host.perform { model.items[1] = AdvItem(id: 3, name: "deux") }
    #expect(host.texts == ["one 0", "deux 0"], "another id at the same place is a new identity")
  }

  @Test func anExplicitIDThatReturnsGetsFreshStateNotTheOldOne() throws {
    let model = AdvModel()
    model.a = 1
    let host = ViewHost(AdvExplicitID(model: model))
    try host.tap("doc 0")
    host.perform { model.a = 2 }
    #expect(host.texts == ["doc 0"])
    try host.tap("doc 0")
    host.perform { model.a = 1 }
    #expect(host.texts == ["doc 0"], "id 1 is never resurrected")
  }

  // MARK: Environment

  @Test func anInnerOverrideShieldsItsReadersFromOuterChanges() {
    let model = AdvModel()
    let host = ViewHost(AdvNestedEnvironment(model: model))
    #expect(host.texts == ["outer start", "inner fixed"])
    host.resetCounts()
    host.perform { model.name = "blue" }
    #expect(host.texts == ["outer blue", "inner fixed"])
    #expect(host.bodyCounts(of: AdvAccentReader.self) == [1, 0])
  }

  @Test func anEnvironmentKeyNoLongerReadIsNoLongerADependency() {
    let model = AdvModel()
    let host = ViewHost(AdvConditionalEnvironment(model: model))
    #expect(host.texts == ["accent start"])
    host.perform { model.flag = false }
    #expect(host.texts == ["no accent"])
    host.resetCounts()
    host.perform { model.name = "blue" }
    #expect(host.bodyCount(AdvConditionalEnvironment.self) == 1)
    #expect(
      host.bodyCount(AdvConditionalAccentReader.self) == 0,
      "the branch that read the key was not taken")
    host.perform { model.flag = true }
    #expect(host.texts == ["accent blue"])
  }

  @Test func aReaderRemovedInThePassItsKeyChangesIsNotEvaluated() {
    let model = AdvModel()
    let host = ViewHost(AdvRemovesItsReader(model: model))
    host.resetCounts()
    host.perform {
      model.flag = false
      model.name = "blue"
    }
    #expect(host.texts == ["after"])
    #expect(host.bodyCount(AdvRemovedReader.self) == 0)
    #expect(host.issues.isEmpty)
  }

  // A modifier whose key changes (`flag ? \.advAccent : \.advOther`): the reader of the key
  // no longer set sees its default, and sees the value again when the key is set again.
  @Test func aModifierThatStopsSettingAKeyRevealsTheDefault() {
    let model = AdvModel()
    let host = ViewHost(AdvSwitchesKey(model: model))
    #expect(host.texts == ["accent set"])
    host.perform { model.flag = false }
    #expect(host.texts == ["accent default"], "the key is no longer set above the reader")
    host.perform { model.flag = true }
    #expect(host.texts == ["accent set"], "a reader of a default tracked nothing: still updated")
  }

  // MARK: Bindings and writes during body

  @Test func aBindingWriteDuringAChildsBodyIsRecordedAndDropped() {
    let host = ViewHost(AdvBindingOwner())
    #expect(host.texts == ["owner 0", "child 0"], "the owner's state is unchanged")
    #expect(host.issues.map(\.kind) == [.stateWriteDuringUpdate])
    #expect(host.issues.first?.message.contains("AdvBindingOwner.value") == true)
    #expect(!host.hasPendingUpdates)
  }

  // MARK: onChange

  @Test func onChangeInsideAnIDResetDoesNotFireAndInnerLifecycleRestarts() {
    let model = AdvModel()
    let log = AdvLog()
    let host = ViewHost(AdvIDLifecycle(model: model, log: log))
    #expect(log.entries == ["outer appear", "inner appear 0"])
    log.entries = []
    host.perform { model.a = 1 }
    #expect(
      log.entries == ["inner disappear 0", "inner appear 1", "outer change 0->1"],
      "the new identity has no previous value; modifiers outside .id keep theirs")
  }

  @Test func onChangeRunsAfterAppearInTreeOrderAndInitialFiresForALateMount() {
    let model = AdvModel()
    let log = AdvLog()
    let host = ViewHost(AdvOnChangeOrder(model: model, log: log))
    #expect(log.entries.isEmpty)
    host.perform { model.a = 1 }
    #expect(log.entries == ["child appear", "parent 0->1", "child initial 1->1"])
    log.entries = []
    host.perform { model.a = 3 }
    #expect(
      log.entries == ["parent 1->3", "child change 1->3", "child initial 1->3"],
      "initial: true also fires on later changes; outer modifiers first")
  }

  // MARK: Tasks

  @Test func taskIDRestartsOnlyOnIDChangeAndRemovalCancelsWithoutRestart() async {
    let model = AdvModel()
    let probe = AdvTaskProbe()
    let host = ViewHost(AdvTaskScreen(model: model, probe: probe))
    await probe.waitUntil { probe.started == [0] }
    host.perform { model.name = "renamed" }
    #expect(host.texts == ["task renamed"])
    await probe.waitUntil { false }
    #expect(probe.started == [0], "an equal id does not restart the task")
    host.perform { model.a = 1 }
    await probe.waitUntil { probe.started == [0, 1] && probe.cancelled == [0] }
    #expect(probe.started == [0, 1])
    #expect(probe.cancelled == [0], "the old task is cancelled, not left running")
    #expect(host.runningTaskCount == 1)
    host.perform {
      model.a = 2
      model.flag = false
    }
    await host.settle()
    #expect(probe.started == [0, 1], "a removed identity does not restart")
    #expect(probe.cancelled == [0, 1])
    #expect(probe.finished.isEmpty)
  }

  @Test func reorderingRowsNeitherReAppearsNorRestartsTasksAndRemovalEndsOnlyThatRow() async {
    let model = AdvModel()
    model.items = [1, 2, 3].map { AdvItem(id: $0, name: "\($0)") }
    let log = AdvLog()
    let probe = AdvTaskProbe()
    let host = ViewHost(AdvLifecycleRows(model: model, log: log, probe: probe))
    await probe.waitUntil { probe.started.count == 3 }
    #expect(log.entries == ["appear 1", "appear 2", "appear 3"])
    log.entries = []
    host.perform { model.items.reverse() }
    #expect(host.texts == ["row 3", "row 2", "row 1"])
    await probe.waitUntil { false }
    #expect(log.entries.isEmpty)
    #expect(probe.started.count == 3)
    host.perform { model.items.removeAll { $0.id == 2 } }
    await probe.waitUntil { !probe.cancelled.isEmpty }
    #expect(log.entries == ["disappear 2"])
    #expect(probe.cancelled == [2])
    #expect(host.runningTaskCount == 2)
    host.close()
    await host.settle()
  }

  // A view's own onDisappear write and a cancelled .task's clean-up write land after the
  // identity ended: dropped without an issue (a stray captured binding still records one, see
  // `writesToADeadIdentityAreDropped`).
  @Test func cleanUpWritesAsTheIdentityEndsAreNotReported() async {
    let model = AdvModel()
    let host = ViewHost(AdvCleanupScreen(model: model))
    for _ in 0..<10_000 where !host.texts.contains("loading true") {
      await Task.yield()
      host.flush()
    }
    #expect(host.texts == ["editing true", "loading true"])
    host.perform { model.flag = false }
    await host.settle()
    #expect(host.runningTaskCount == 0)
    #expect(host.issues.isEmpty, "the identity's own clean-up is not an issue")
  }

  /// Clean-up is silent only for the views that ended with the state: another view's
  /// `onDisappear`, later, writing a binding that outlived its view is reported.
  @Test func anotherViewsLaterCleanUpWritingADeadBindingIsReported() throws {
    let box = AdvBindingBox()
    let host = ViewHost(AdvEndedHolder(box: box))
    try host.tap("hide owner")
    #expect(host.issues.isEmpty)
    try host.tap("hide janitor")
    #expect(host.issues.map(\.kind) == [.writeToEndedIdentity])
  }

  /// And a cancelled task the view did not start is no clean-up of it either.
  @Test func aForeignCancelledTaskWritingADeadBindingIsReported() async throws {
    let box = AdvBindingBox()
    let host = ViewHost(AdvEndedHolder(box: box))
    try host.tap("hide owner")
    let binding = try #require(box.binding)
    let task = Task { @MainActor in
      while !Task.isCancelled { await Task.yield() }
      binding.wrappedValue = 7
    }
    task.cancel()
    await task.value
    #expect(host.issues.map(\.kind) == [.writeToEndedIdentity])
  }

  // MARK: Legacy ObservableObject

  @Test func anyPublishedAssignmentEvenAnEqualOneReEvaluatesEveryHolder() {
    let model = AdvLegacy()
    let host = ViewHost(AdvLegacyScreen(model: model))
    host.resetCounts()
    host.perform { model.count = model.count }
    #expect(host.bodyCount(AdvLegacyHolder.self) == 1, "no equality check (Combine's rule)")
    #expect(host.bodyCount(AdvLegacyCountReader.self) == 1)
    #expect(host.bodyCount(AdvLegacyPlain.self) == 0, "a plain let does not subscribe")
    #expect(host.bodyCount(AdvLegacyScreen.self) == 0)
    host.perform { model.note = "n" }
    #expect(host.bodyCount(AdvLegacyHolder.self) == 2, "it read nothing, yet updates")
    #expect(host.bodyCount(AdvLegacyCountReader.self) == 2)
  }

  @Test func aHandWrittenWillSetPublisherIsEvaluatedAfterTheChange() {
    let model = AdvManualLegacy()
    let host = ViewHost(AdvManualReader(model: model), mode: .manual)
    var seenAtWillChange: [Int] = []
    let token = model.objectWillChange.sink { seenAtWillChange.append(model.value) }
    model.value = 5
    #expect(seenAtWillChange == [0], "objectWillChange fires before the value changes")
    host.flush()
    #expect(host.texts == ["value 5"], "the body runs after the change")
    model.objectWillChange.send()
    host.flush()
    #expect(host.bodyCount(AdvManualReader.self) == 3, "a bare send() invalidates too")
    token.cancel()
  }

  @Test func legacyHoldersUnsubscribeWhenTheirIdentityEnds() {
    let model = AdvModel()
    let legacy = AdvLegacy()
    let host = ViewHost(AdvLegacyHolders(model: model, legacy: legacy))
    #expect(legacy.objectWillChange.subscriberCount == 3)
    host.perform { model.flag = false }
    #expect(legacy.objectWillChange.subscriberCount == 0)
    host.resetCounts()
    host.perform { legacy.count = 1 }
    #expect(host.totalBodyEvaluations == 0)
    host.perform { model.flag = true }
    #expect(host.texts == ["holder", "owner 1", "bump"])
    #expect(legacy.objectWillChange.subscriberCount == 3)
  }

  // A view whose body never reads its @EnvironmentObject (it only uses it in an action) still
  // follows a replacement: re-subscribed to the new object, no longer to the old one.
  @Test func aSwappedEnvironmentObjectIsObservedEvenWhenBodyDoesNotReadIt() throws {
    let first = AdvLegacy()
    let second = AdvLegacy()
    let host = ViewHost(AdvEnvironmentObjectSwapper(first: first, second: second))
    try host.tap("swap")
    host.resetCounts()
    host.perform { first.count = 1 }
    #expect(
      host.bodyCount(AdvEnvironmentObjectActionOnly.self) == 0,
      "the replaced object is no longer held")
    host.perform { second.count = 1 }
    #expect(
      host.bodyCount(AdvEnvironmentObjectActionOnly.self) == 1,
      "the view holds the provided object, so its changes invalidate it")
    try host.tap("bump")
    #expect(second.count == 2 && first.count == 1, "actions use the provided object")
  }
}
