import ReactiveStateMacrosFree
import Testing

// A conformance audit against the view-runtime research note: §2 (the acceptance list, items
// 1–50 and the explicit decisions) and §3.10 (the pitfalls checklist). Each test here pins down
// a rule that no other view-graph test could fail on; the rule's number is in its doc comment.
// The models and views are in ViewRuntimeAcceptanceAuditViews.swift and
// ViewRuntimeAcceptanceAuditProfileViews.swift.

@MainActor
@Suite struct ViewRuntimeAcceptanceAuditTests {
  // MARK: A. Identity and state lifetime

  /// Item 3: `@StateObject`'s autoclosure runs once per identity, however often the view is
  /// re-evaluated with new input, and once more for a new identity (an `.id` change).
  @Test func aStateObjectIsMadeOncePerIdentityThoughTheViewIsReEvaluated() {
    let factory = AuditFactory()
    let source = Triple()
    let host = ViewHost(AuditOwnerParent(source: source, factory: factory))
    for value in 1...3 { host.perform { source.a = value } }
    #expect(host.bodyCount(AuditOwner.self) == 4, "re-evaluated with each new label")
    #expect(factory.made == 1)
    #expect(Set(factory.seen).count == 1, "every evaluation saw the first object")
    #expect(host.texts == ["owner 3"])
    host.perform { source.b = 1 }
    #expect(factory.made == 2, "a new identity runs the autoclosure again")
    #expect(Set(factory.seen).count == 2)
    #expect(factory.seen.last != factory.seen.first)
  }

  /// Items 6, 7, 47, 48: changing `.id` resets everything inside it — `@State`, `@StateObject`,
  /// the inner `onDisappear` then `onAppear`, the inner task cancelled and a new one started —
  /// and leaves the modifiers outside it alone; an equal id (the parent re-evaluated) does
  /// nothing; the cancelled task's late write is dropped, not written into the new identity.
  @Test func anIDChangeResetsEverythingInsideAndAnEqualIDNothing() async throws {
    let log = AuditLog()
    let host = ViewHost(AuditIDScreen(log: log))
    await log.waitUntil { log.count("task start") == 2 }
    #expect(log.entries.prefix(2) == ["outer appear", "inner appear"], "appear is pre-order")
    #expect(log.made == 1)
    try host.tap("count 0")
    try host.tap("count 1")
    log.entries = []
    try host.tap("tick 0")
    await log.waitUntil { false }
    #expect(host.texts.contains("count 2"), "an equal id keeps the state")
    #expect(log.entries.isEmpty, "and fires no lifecycle callback, restarts no task")
    #expect(log.made == 1)
    try host.tap("new id")
    #expect(log.entries == ["inner disappear", "inner appear"])
    await log.waitUntil { log.count("inner task start") == 1 && log.count("cancelled") == 1 }
    #expect(
      log.entries.sorted() == [
        "inner appear", "inner disappear", "inner task cancelled",
        "inner task start",
      ])
    #expect(log.made == 2, "a new @StateObject")
    #expect(host.texts.contains("count 0"), "the state is back to its initial value")
    #expect(host.issues.isEmpty, "the old task's write as it ends is its own clean-up")
    #expect(host.runningTaskCount == 2, "the outer task still runs, and the new inner one")
    host.close()
    await host.settle()
    #expect(log.count("outer task cancelled") == 1)
  }

  /// Item 10 and pitfall 2 (generic-erased type matching): views of one generic type with
  /// other type arguments are different types, so one replacing the other at a slot is a new
  /// identity — directly behind `AnyView`, and as `Group<A>` → `Group<B>`.
  @Test func anotherSpecialisationOfAGenericViewIsANewIdentity() throws {
    let model = Triple()
    for grouped in [false, true] {
      let host = ViewHost(AuditGenericSwitch(model: model, grouped: grouped))
      try host.tap("tagged 0")
      #expect(host.texts == ["tagged 1"])
      host.perform { model.flag.toggle() }
      #expect(host.texts == ["tagged 0"], "Tagged<String> is not Tagged<Int>")
      host.perform { model.flag.toggle() }
      #expect(host.texts == ["tagged 0"], "nor resurrected")
    }
  }

  // MARK: B. Writes, bindings and dependency tracking

  /// Item 14: a write is visible at once to the action that made it, and the body, run once
  /// in one pass, sees the final value, never the intermediate one.
  @Test func anActionSeesItsWritesAtOnceAndTheBodyOnlyTheLastValue() throws {
    let log = AuditLog()
    let host = ViewHost(AuditImmediate(log: log))
    let passes = host.passCount
    try host.tap("twice")
    #expect(log.entries == ["body 0", "action 2", "body 2"])
    #expect(host.passCount == passes + 1)
  }

  /// Item 19: a binding to a collection element writes through to the root state; a constant
  /// binding never writes and invalidates nothing.
  @Test func anElementBindingWritesThroughAndAConstantInvalidatesNothing() throws {
    let host = ViewHost(AuditElementEditor())
    try host.setText("B", in: "second")
    #expect(host.texts.first == "a,B,c")
    #expect(host.value(of: "second") == "B")
    host.resetCounts()
    try host.toggle("fixed")
    #expect(host.value(of: "fixed") == "false")
    #expect(host.updateLog.isEmpty, "nothing re-evaluated or re-expanded")
  }

  /// Item 21: reads through a computed property, a helper method, a nested model and an
  /// element of a collection are dependencies; what is not read (another element) is not, and a
  /// replaced nested model stops counting while its successor starts.
  @Test func readsThroughComputedPropertiesMethodsNestingAndElementsAreTracked() {
    let model = AuditModel()
    let host = ViewHost(AuditIndirectReader(model: model))
    #expect(host.texts == ["0 b=0 first y"])
    func expectUpdate(_ text: String, _ change: () -> Void, _ comment: Comment) {
      let before = host.bodyCount(AuditIndirectReader.self)
      host.perform(change)
      #expect(host.bodyCount(AuditIndirectReader.self) == before + 1, comment)
      #expect(host.texts == [text], comment)
    }
    expectUpdate("2 b=0 first y", { model.a = 1 }, "computed property")
    expectUpdate("2 b=1 first y", { model.b = 1 }, "helper method")
    expectUpdate("2 b=1 renamed y", { model.child.name = "renamed" }, "nested model")
    expectUpdate("2 b=1 renamed Y", { model.children[1].name = "Y" }, "collection element")
    let old = model.child
    expectUpdate("2 b=1 second Y", { model.child = AuditChild(name: "second") }, "new child")
    expectUpdate("2 b=1 2nd Y", { model.child.name = "2nd" }, "the new child is tracked")
    host.resetCounts()
    host.perform {
      model.children[0].name = "X"
      old.name = "gone"
    }
    #expect(host.totalBodyEvaluations == 0, "an element not read; the replaced child")
  }

  /// Item 23: reads inside `onAppear`, `onChange` and `.task` actions register nothing.
  @Test func readsInLifecycleActionsCreateNoDependency() async throws {
    let model = Triple()
    let log = AuditLog()
    let host = ViewHost(AuditHandlerReader(model: model, log: log))
    await log.waitUntil { log.count("task") == 1 }
    try host.tap("trigger 0")
    #expect(log.entries == ["appear a=0", "task flag=true", "change b=0"])
    host.resetCounts()
    model.a = 1
    model.b = 1
    model.flag = false
    #expect(!host.hasPendingUpdates)
    host.flush()
    #expect(host.updateLog.isEmpty)
  }

  /// Items 25, 36 and 34: a model held by `let`, `@State`, `@Environment(Model.self)` or
  /// `@Bindable` is tracked per property read, the same way; re-injecting the same instance as
  /// the parent re-evaluates invalidates none of them.
  @Test func trackingIsByReadWhateverWrapperHoldsTheModel() throws {
    let model = Triple()
    let host = ViewHost(AuditWrappers(model: model))
    #expect(host.texts == ["tick 0", "let 0", "state 0", "env 0", "bindable 0"])
    host.resetCounts()
    host.perform { model.b = 1 }
    #expect(host.totalBodyEvaluations == 0, "none of them read b")
    try host.tap("tick 0")
    #expect(host.bodyLog == ["AuditWrappers"], "the same instance, injected again")
    host.resetCounts()
    host.perform { model.a = 1 }
    #expect(
      host.bodyLog == [
        "AuditLetReader", "AuditStateReader", "AuditEnvReader", "AuditBindableReader",
      ])
    #expect(host.texts == ["tick 1", "let 1", "state 1", "env 1", "bindable 1"])
  }

  /// Items 25 and 39: a model passed by `let` or `@Bindable` is compared by identity, even when
  /// it is `Equatable`: the child observes the instance it holds. Compared with its `==` (an
  /// id), another instance skipped the child, which kept showing and observing the old one.
  @Test func aPassedModelEqualByItsEqualsStillReEvaluatesTheChild() throws {
    let first = AuditProfile(id: 1, name: "Ada")
    let second = AuditProfile(id: 1, name: "Grace")
    let host = ViewHost(AuditProfilePasser(first: first, second: second))
    try host.tap("swap")
    #expect(host.texts == ["swap", "let Grace", "weak Grace"])
    #expect(host.value(of: "bindable") == "Grace")
    host.perform { second.name = "Lin" }
    #expect(host.texts == ["swap", "let Lin", "weak Lin"], "the new instance is observed")
    #expect(host.value(of: "bindable") == "Lin")
    host.resetCounts()
    host.perform { first.name = "gone" }
    #expect(host.updateLog.isEmpty, "the old one is not")
    try host.setText("Kay", in: "bindable")
    #expect(second.name == "Kay" && first.name == "gone", "the binding writes the new one")
  }

  /// Items 13 and 25: a `@State` holding an `Observable` model compares it by identity, even
  /// when it is `Equatable`. Compared with its `==`, writing another instance equal by id was
  /// dropped: the state kept the old model, and the view showed and observed it.
  @Test func aStateModelReplacedByOneEqualByItsEqualsIsReplaced() throws {
    let host = ViewHost(AuditProfileOwner())
    try host.tap("reload")
    #expect(host.texts.last == "state Grace")
    try host.tap("rename")
    #expect(host.texts.last == "state Lin")
    #expect(host.bodyCount(AuditProfileOwner.self) == 3)
  }

  /// Item 29: `objectWillChange` sent from a body is recorded, and its observers are updated in
  /// a later pass (never re-entered), so the flush settles with every view current.
  @Test func objectWillChangeFromABodyIsRecordedAndItsObserversUpdateLater() {
    let model = AuditPublisher()
    let host = ViewHost(AuditPublishingScreen(model: model))
    host.resetCounts()
    host.perform { model.armed = true }
    #expect(host.texts == ["note written in body", "writer"])
    #expect(!host.issues.isEmpty)
    #expect(host.issues.allSatisfy { $0.kind == .objectWillChangeDuringUpdate })
    let readerPasses = host.updateLog.filter { $0.view == "AuditPublishedReader" }.map(\.pass)
    #expect(readerPasses.count == 2 && readerPasses[0] < readerPasses[1], "deferred")
    #expect(!host.hasPendingUpdates)
  }

  /// Decision "sticky `wasRead` versus per-evaluation tracking": per evaluation. A `@State` the
  /// body read and then stopped reading no longer re-evaluates it (SwiftUI's sticky flag
  /// would; the view graph's docs say a view depends only on what its last body read).
  @Test func aStateNoLongerReadIsNoLongerADependency() throws {
    let host = ViewHost(AuditStopsReadingState())
    try host.tap("bump detail")
    #expect(host.bodyCount(AuditStopsReadingState.self) == 2)
    try host.tap("hide")
    #expect(host.bodyCount(AuditStopsReadingState.self) == 3)
    try host.tap("bump detail")
    #expect(host.bodyCount(AuditStopsReadingState.self) == 3)
  }

  // MARK: C. Environment

  /// Item 32: a value set below a view is not seen by that view (an ancestor of the modifier).
  @Test func anAncestorDoesNotSeeAValueSetBelowIt() {
    let host = ViewHost(AuditAccentAncestor())
    #expect(host.texts == ["ancestor none", "accent inner"])
  }

  /// Items 36 and 28 (for the environment): an injected object is the one its readers see and
  /// observe, even when another instance is equal to it by its own `==` (an id, say). The
  /// environment cell compared objects with `==`, so it kept the old instance: its readers
  /// showed it and followed its changes, not the injected one's.
  @Test func anInjectedObjectEqualByItsEqualsStillReplacesThePreviousOne() throws {
    let first = (AuditProfile(id: 1, name: "Ada"), AuditLegacyProfile(id: 1, name: "Ada"))
    let second = (AuditProfile(id: 1, name: "Grace"), AuditLegacyProfile(id: 1, name: "Grace"))
    let host = ViewHost(AuditProfileInjector(first: first, second: second))
    #expect(host.texts == ["swap", "name Ada", "legacy Ada"])
    try host.tap("swap")
    #expect(host.texts == ["swap", "name Grace", "legacy Grace"])
    host.perform {
      second.0.name = "Lin"
      second.1.name = "Lin"
    }
    #expect(host.texts == ["swap", "name Lin", "legacy Lin"], "the new instances are observed")
    host.resetCounts()
    host.perform {
      first.0.name = "gone"
      first.1.name = "gone"
    }
    #expect(host.totalBodyEvaluations == 0, "the replaced ones are not")
  }

  // MARK: D. Scheduling and ordering

  /// Item 41: a write from `onAppear` is applied in a follow-up pass of the same flush.
  @Test func anAppearWriteIsAppliedInAFollowUpPassOfTheSameFlush() {
    let manual = ViewHost(AuditAppearWriter(), mode: .manual)
    #expect(manual.texts == ["loading"], "effects wait for the flush")
    manual.flush()
    #expect(manual.texts == ["loaded"])
    #expect(manual.passCount == 2)
    #expect(!manual.hasPendingUpdates)
    let automatic = ViewHost(AuditAppearWriter())
    #expect(automatic.texts == ["loaded"])
    #expect(automatic.bodyCount(AuditAppearWriter.self) == 2)
    #expect(automatic.issues.isEmpty, "not a write during an update")
  }

  // MARK: E. Lifecycle

  /// Item 44: `onAppear` and `onDisappear` run after the pass commits: the appearing content is
  /// already in the tree, the disappearing one already gone, and neither runs during a body
  /// (a state write there would be dropped and recorded).
  @Test func appearAndDisappearRunAfterThePassCommits() throws {
    let log = AuditLog()
    let host = ViewHost(AuditCommitScreen(log: log), mode: .manual)
    log.host = host
    host.flush()
    #expect(log.entries == [#"appear sees ["hide", "content"]"#])
    try host.tap("hide")
    host.flush()
    #expect(log.entries.last == #"disappear sees ["hide", "appeared 1 disappeared 0"]"#)
    #expect(host.texts == ["hide", "appeared 1 disappeared 1"], "their writes were applied")
    #expect(host.issues.isEmpty)
  }

  // MARK: Deliberate differences

  /// Item 42, a deliberate difference: the view graph has no SwiftUI `Transaction`, and this
  /// package's `withTransaction` only batches observation. Every write an action makes before
  /// the flush lands in one pass, so `body` and `onChange` see the last value only — SwiftUI
  /// would show `[0, 2, 4]` and fire `(0, 2)`, `(2, 4)` (DataFlowInViews, "Rules the host
  /// enforces").
  @Test func aTransactionInsideAnActionDoesNotSplitThePass() throws {
    let log = AuditLog()
    let host = ViewHost(AuditTransactionWriter(log: log))
    let passes = host.passCount
    try host.tap("write")
    #expect(log.entries == ["body 0", "body 4", "change 0->4"])
    #expect(host.passCount == passes + 1)
  }

  // MARK: F. API edge cases

  /// Item 50 (and 17): a child's `@Binding` reads the source's latest value whenever the child
  /// evaluates, even when it did not read it while the source changed.
  @Test func aBindingReadsTheLatestValueNotASnapshot() throws {
    let host = ViewHost(AuditLazyBindingOwner())
    try host.tap("set 7")
    #expect(host.bodyCount(AuditLazyBindingOwner.self) == 1, "the owner only passed $value")
    #expect(host.bodyCount(AuditLazyBindingReader.self) == 1, "nor did the child read it")
    try host.tap("show")
    #expect(host.texts.last == "value 7")
  }
}
