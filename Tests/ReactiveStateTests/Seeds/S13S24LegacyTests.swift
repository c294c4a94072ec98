import Dispatch
import Foundation
import ReactiveStateMacrosFree
import Testing

@MainActor
@Suite("S13 S24 legacy ObservableObject", .serialized) struct S13S24LegacyTests {
  // MARK: S13

  struct CountLabel: View {
    @ObservedObject var model: LegacyCounterModel
    var body: some View { Text("count \(model.count)") }
  }

  struct LegacyOwner: View {
    @StateObject private var model = LegacyCounterModel()
    var body: some View {
      VStack {
        Button("Increment") { model.count += 1 }
        TextField("Note", text: $model.note)
        CountLabel(model: model)
      }
    }
  }

  @Test("S13 object-level invalidation: any published change re-evaluates observers")
  func objectLevelInvalidation() throws {
    let host = ViewHost(LegacyOwner())
    try host.tap("Increment")
    #expect(host.texts.contains("count 1"))
    host.resetCounts()
    try host.type("x", into: "Note")
    #expect(host.bodyCount(CountLabel.self) == 1, "the label does not read `note`, yet updates")
    #expect(host.bodyCount(LegacyOwner.self) == 1)
    let causes = host.updateLog.filter { $0.view == "CountLabel" }.map(\.cause)
    #expect(causes == [.objectWillChange(type: "LegacyCounterModel")])
  }

  struct BrokenChild: View {
    @ObservedObject var model = LegacyCounterModel()
    var body: some View {
      Button("Broken \(model.count)") { model.count += 1 }
    }
  }

  struct OwningChild: View {
    @StateObject var model = LegacyCounterModel()
    var body: some View {
      Button("Owned \(model.count)") { model.count += 1 }
    }
  }

  struct LegacyParent: View {
    @State private var tick = 0
    var body: some View {
      VStack {
        Button("Tick \(tick)") { tick += 1 }
        BrokenChild()
        OwningChild()
      }
    }
  }

  @Test("S13 @ObservedObject var model = Model() is re-created on parent re-evaluation")
  func brokenFormRecreates() throws {
    LegacyCounterModel.created = 0
    let host = ViewHost(LegacyParent())
    let createdAtMount = LegacyCounterModel.created
    #expect(createdAtMount == 2, "one broken, one owned (the autoclosure ran once)")
    try host.tap("Broken 0")
    try host.tap("Owned 0")
    #expect(host.texts.contains("Broken 1") && host.texts.contains("Owned 1"))
    try host.tap("Tick 0")
    #expect(host.texts.contains("Broken 0"), "the broken form lost its model")
    #expect(host.texts.contains("Owned 1"), "@StateObject kept its model")
    #expect(LegacyCounterModel.created == createdAtMount + 1, "only the broken form re-created")
  }

  struct Keyed: View {
    @State private var key = 0
    var body: some View {
      VStack {
        Button("New identity") { key += 1 }
        OwningChild().id(key)
      }
    }
  }

  @Test("@StateObject's autoclosure runs again after an identity change")
  func stateObjectPerIdentity() throws {
    LegacyCounterModel.created = 0
    let host = ViewHost(Keyed())
    try host.tap("Owned 0")
    #expect(LegacyCounterModel.created == 1)
    try host.tap("New identity")
    #expect(LegacyCounterModel.created == 2)
    #expect(host.texts.contains("Owned 0"))
  }

  /// Configures its `@StateObject` in `init`, before the view has an identity.
  struct ConfiguresInInit: View {
    @StateObject var model = LegacyCounterModel()
    init(start: Int) { model.count = start }
    var body: some View { Text("count \(model.count)") }
  }

  @Test("@StateObject read before mounting: a throwaway object, reported by type")
  func stateObjectReadBeforeMounting() {
    LegacyCounterModel.created = 0
    var host: ViewHost?
    let reported = ObservationDiagnostics.capture {
      let view = ConfiguresInInit(start: 5)
      #expect(view.model !== view.model, "each read before mounting creates one")
      host = ViewHost(view)
    }
    #expect(host?.texts == ["count 0"], "as in SwiftUI, the identity made its own object")
    #expect(LegacyCounterModel.created == 4, "init, two reads, then the identity's")
    let messages = reported.map(\.message).filter { $0.contains("StateObject<LegacyCounterModel>") }
    #expect(messages.count == 3)
    #expect(messages.first?.contains("To fix:") == true)
  }

  struct ReplaceableParent: View {
    let first: LegacyCounterModel
    let second: LegacyCounterModel
    @State private var usesSecond = false
    var body: some View {
      VStack {
        Button("Swap") { usesSecond = true }
        CountLabel(model: usesSecond ? second : first)
      }
    }
  }

  @Test("@ObservedObject re-subscribes when the instance changes")
  func observedObjectResubscribes() throws {
    let first = LegacyCounterModel()
    let second = LegacyCounterModel()
    let host = ViewHost(ReplaceableParent(first: first, second: second))
    try host.tap("Swap")
    host.resetCounts()
    host.perform { first.count = 5 }
    #expect(host.bodyCount(CountLabel.self) == 0, "the old instance is no longer observed")
    host.perform { second.count = 7 }
    #expect(host.bodyCount(CountLabel.self) == 1)
    #expect(host.texts.contains("count 7"))
    #expect(first.objectWillChange.subscriberCount == 0)
  }

  // MARK: @EnvironmentObject

  struct EnvironmentReader: View {
    @EnvironmentObject var model: LegacyCounterModel
    var body: some View { Text("env \(model.count)") }
  }

  @Test("@EnvironmentObject reads the provided object and updates object-level")
  func environmentObjectProvided() {
    let model = LegacyCounterModel()
    let host = ViewHost(VStack { EnvironmentReader() }.environmentObject(model))
    host.perform { model.count = 3 }
    #expect(host.texts == ["env 3"])
    host.perform { model.note = "n" }
    #expect(host.bodyCount(EnvironmentReader.self) == 3)
  }

  struct EnvironmentEditor: View {
    @EnvironmentObject var model: LegacyCounterModel
    var body: some View {
      TextField("note", text: $model.note)
      Text("note \(model.note)")
    }
  }

  @Test("@EnvironmentObject's $model.property binds to the provided object")
  func environmentObjectBinding() throws {
    let model = LegacyCounterModel()
    let host = ViewHost(VStack { EnvironmentEditor() }.environmentObject(model))
    try host.setText("milk", in: "note")
    #expect(model.note == "milk")
    #expect(host.texts.contains("note milk"))
  }

  struct SwappingProvider: View {
    let first: LegacyCounterModel
    let second: LegacyCounterModel
    @State private var usesSecond = false
    var body: some View {
      VStack {
        Button("Swap") { usesSecond = true }
        EnvironmentReader()
      }
      .environmentObject(usesSecond ? second : first)
    }
  }

  @Test("replacing the provided object re-evaluates readers, logged as the environment key")
  func environmentObjectReplaced() throws {
    let first = LegacyCounterModel()
    let second = LegacyCounterModel()
    second.count = 9
    let host = ViewHost(SwappingProvider(first: first, second: second))
    host.resetCounts()
    try host.tap("Swap")
    #expect(host.texts.contains("env 9"))
    let causes = host.updateLog.filter { $0.view == "EnvironmentReader" }.map(\.cause)
    #expect(causes == [.environment(key: "LegacyCounterModel")])
    host.resetCounts()
    host.perform { first.count = 1 }
    #expect(host.bodyCount(EnvironmentReader.self) == 0, "the replaced object is not observed")
    host.perform { second.count = 10 }
    #expect(host.texts.contains("env 10"))
  }

  @Test("a missing @EnvironmentObject is a runtime issue naming the type and the modifier")
  func environmentObjectMissing() {
    let host = ViewHost(VStack { EnvironmentReader() })
    #expect(host.issues.map(\.kind) == [.missingEnvironmentObject])
    let message = host.issues.first?.message ?? ""
    #expect(message.contains("LegacyCounterModel") && message.contains(".environmentObject(_:)"))
    #expect(host.bodyCount(EnvironmentReader.self) == 0)
  }

  /// Provides the model, or (with the same modifier type, so the reader keeps its identity)
  /// sets an unrelated key instead.
  struct ProviderThatStopsProviding: View {
    let model: LegacyCounterModel
    @State private var provides = true
    var body: some View {
      VStack {
        Button("Toggle") { provides.toggle() }
        provides
          ? EnvironmentReader().environmentObject(model)
          : EnvironmentReader().environment(\.accent, "unrelated")
      }
    }
  }

  @Test("an object no longer provided is no longer observed, and is again once provided")
  func environmentObjectWithdrawn() throws {
    let model = LegacyCounterModel()
    let host = ViewHost(ProviderThatStopsProviding(model: model))
    try host.tap("Toggle")
    #expect(host.issues.map(\.kind) == [.missingEnvironmentObject])
    host.resetCounts()
    host.perform { model.count = 1 }
    #expect(host.issues.count == 1, "the withdrawn object's change re-recorded the issue")
    #expect(host.totalBodyEvaluations == 0)
    #expect(model.objectWillChange.subscriberCount == 0)
    try host.tap("Toggle")
    #expect(host.texts.contains("env 1"))
    host.perform { model.count = 2 }
    #expect(host.texts.contains("env 2"), "provided again: observed again")
  }

  struct WritesDuringBody: View {
    @ObservedObject var model: LegacyCounterModel
    var body: some View {
      model.note = "touched \(model.count)"
      return Text("body")
    }
  }

  @Test("objectWillChange during body is recorded as a runtime issue")
  func objectWillChangeDuringBody() {
    let model = LegacyCounterModel()
    let host = ViewHost(WritesDuringBody(model: model), mode: .manual)
    #expect(host.issues.map(\.kind) == [.objectWillChangeDuringUpdate])
    #expect(host.issues.first?.message.contains("LegacyCounterModel") == true)
  }

  /// SwiftUI: "Publishing changes from background threads is not allowed". The view still
  /// updates (on the main actor); the publish is recorded.
  @Test func publishingFromABackgroundThreadIsARuntimeIssue() async {
    let model = Box(LegacyCounterModel())
    let host = ViewHost(CountLabel(model: model.value), mode: .manual)
    #expect(host.issues.isEmpty)
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      DispatchQueue.global().async {
        model.value.count = 7
        done.resume()
      }
    }
    for _ in 0..<1_000 where !host.hasPendingUpdates { await Task.yield() }
    host.flush()
    #expect(host.texts == ["count 7"])
    #expect(host.issues.map(\.kind) == [.publishedFromBackgroundThread])
    #expect(host.issues.first?.message.contains("LegacyCounterModel") == true)
  }

  /// The view's update hops to the main actor from the background write's `objectWillChange`,
  /// which comes before the store: the hop waits for the store, or the view could show the old
  /// value with nothing left to update it. A later subscriber holds the write between the two
  /// while the main actor is free (the view showed "count 0" for good).
  @Test func aBackgroundPublishUpdatesTheViewWithTheStoredValue() async {
    let model = Box(LegacyCounterModel())
    let host = ViewHost(CountLabel(model: model.value))
    let stall = model.value.objectWillChange.sink {
      if !Thread.isMainThread { Thread.sleep(forTimeInterval: 0.05) }
    }
    let written = LockedBox(false)
    DispatchQueue.global().async {
      model.value.count = 7
      written.value = true
    }
    while !written.value { await Task.yield() }
    // The hop is a main-actor task of its own, which `settle()` does not wait for.
    for _ in 0..<1_000 where host.issues.isEmpty { await Task.yield() }
    await host.settle()
    #expect(host.texts == ["count 7"])
    #expect(host.issues.map(\.kind) == [.publishedFromBackgroundThread])
    withExtendedLifetime(stall) {}
  }

  // MARK: S24

  struct LegacyOrders: View {
    @ObservedObject var truck: LegacyFoodTruck
    var body: some View { Text("orders \(truck.orders.count)") }
  }

  struct LegacyDonuts: View {
    @ObservedObject var truck: LegacyFoodTruck
    var body: some View { Text("donuts \(truck.donuts.joined(separator: ","))") }
  }

  struct LegacyTruckScreen: View {
    let truck: LegacyFoodTruck
    var body: some View {
      VStack {
        LegacyOrders(truck: truck)
        LegacyDonuts(truck: truck)
      }
    }
  }

  struct ModernOrders: View {
    let truck: ObservedFoodTruck
    var body: some View { Text("orders \(truck.orders.count)") }
  }

  struct ModernDonuts: View {
    let truck: ObservedFoodTruck
    var body: some View { Text("donuts \(truck.donuts.joined(separator: ","))") }
  }

  struct ModernTruckScreen: View {
    let truck: ObservedFoodTruck
    var body: some View {
      VStack {
        ModernOrders(truck: truck)
        ModernDonuts(truck: truck)
      }
    }
  }

  @Test("S24 same rendered output; body counts show coarse vs fine invalidation")
  func migrationCoarseVersusFine() {
    let legacy = LegacyFoodTruck()
    let modern = ObservedFoodTruck()
    let legacyHost = ViewHost(LegacyTruckScreen(truck: legacy))
    let modernHost = ViewHost(ModernTruckScreen(truck: modern))
    legacyHost.resetCounts()
    modernHost.resetCounts()
    legacyHost.perform { legacy.orders.append("Glazed x2") }
    modernHost.perform { modern.orders.append("Glazed x2") }
    #expect(legacyHost.texts == modernHost.texts, "same output")
    #expect(legacyHost.texts == ["orders 1", "donuts Glazed"])
    #expect(legacyHost.totalBodyEvaluations == 2, "legacy: both observers re-evaluate")
    #expect(modernHost.totalBodyEvaluations == 1, "Observation: only the orders view")
    #expect(modernHost.bodyCount(ModernDonuts.self) == 0)
  }
}
