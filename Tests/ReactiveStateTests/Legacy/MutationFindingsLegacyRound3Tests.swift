import ReactiveStateMacrosFree
import Testing

// `@testable` to read whether `@Published` storage has joined its object (`hasJoinedObject`).
@testable import ReactiveState

/// A legacy model for the view-graph tests of this round.
private final class R3Legacy: ObservableObject, @unchecked Sendable {
  @Published var count = 0
}

/// Owns an `R3Legacy` as a `@StateObject` and, in its `onDisappear`, records how many
/// subscribers the object's `objectWillChange` still has.
private struct R3Owner: View {
  @StateObject var model: R3Legacy
  let seen: LockedBox<[Int]>

  init(model: R3Legacy, seen: LockedBox<[Int]>) {
    _model = StateObject(wrappedValue: model)
    self.seen = seen
  }

  var body: some View {
    let model = model
    let seen = seen
    return Text("owner \(model.count)")
      .onDisappear { seen.value.append(model.objectWillChange.subscriberCount) }
  }
}

/// Shows an `R3Owner` until its button is tapped.
private struct R3OwnerToggle: View {
  let model: R3Legacy
  let seen: LockedBox<[Int]>
  @State private var shows = true

  var body: some View {
    VStack {
      Button("Hide") { shows = false }
      if shows { R3Owner(model: model, seen: seen) }
    }
  }
}

/// A legacy model with two `@Published` properties that reports whether each one's storage has
/// looked for the object's publisher.
private final class R3Pair: ObservableObject, @unchecked Sendable {
  @Published var name = "Ada"
  @Published var age = 36

  /// Whether the storage of `name` and of `age` has joined the object.
  var joinedFields: [Bool] { [_name.box.hasJoinedObject, _age.box.hasJoinedObject] }
}

/// Observes `legacy` object-level and reads `model.a`, so that a change of either
/// re-evaluates it.
private struct R3CountAndA: View {
  @ObservedObject var legacy: R3Legacy
  let model: Triple

  var body: some View { Text("count \(legacy.count) a \(model.a)") }
}

/// Pins promises of the legacy family (`Legacy/` and the view graph's legacy wrappers) that a
/// third round of mutation testing found unchecked.
@MainActor
@Suite struct MutationFindingsLegacyRound3Tests {
  /// Pins that a `@StateObject` identity's end cancels its subscription to the object at once,
  /// before the end-of-life actions run: its `onDisappear` sees no subscriber left (the node,
  /// kept until those actions ran, does not keep the view subscribed meanwhile).
  @Test func anEndedStateObjectIdentityIsUnsubscribedBeforeItsOnDisappear() throws {
    let model = R3Legacy()
    let seen = LockedBox<[Int]>([])
    let host = ViewHost(R3OwnerToggle(model: model, seen: seen))
    #expect(host.texts.contains("owner 0"))
    #expect(model.objectWillChange.subscriberCount == 1)
    try host.tap("Hide")
    #expect(seen.value == [0], "the ended identity was still subscribed in onDisappear")
    #expect(model.objectWillChange.subscriberCount == 0)
  }

  /// Pins that the work several subscribers leave waiting for one `@Published` write (views'
  /// hops from a background write) runs in the order it was queued, once the value is stored.
  @Test func actionsWaitingForOneWriteRunInTheOrderTheyWereQueued() {
    let model = R3Legacy()
    let order = LockedBox<[String]>([])
    let first = model.objectWillChange.sink {
      afterCurrentPublishedWrite { order.value.append("first \(model.count)") }
    }
    let second = model.$count.sink { value in
      guard value == 1 else { return }
      afterCurrentPublishedWrite { order.value.append("second \(model.count)") }
    }
    model.count = 1
    #expect(order.value == ["first 1", "second 1"])
    withExtendedLifetime((first, second)) {}
  }

  /// Pins that work waiting for a `@Published` write runs at once when no write is in
  /// progress (a subscriber of a direct `objectWillChange.send()`), instead of waiting for the
  /// thread's next write, and that that write does not run it again.
  @Test func anActionQueuedWithNoWriteInProgressRunsAtOnce() {
    let model = R3Legacy()
    let runs = LockedBox(0)
    let token = model.objectWillChange.sink {
      if model.count == 0 { afterCurrentPublishedWrite { runs.value += 1 } }
    }
    model.objectWillChange.send()
    #expect(runs.value == 1, "the action waited for a write that was not in progress")
    model.count = 1
    #expect(runs.value == 2)
    model.count = 2
    #expect(runs.value == 2)
    withExtendedLifetime(token) {}
  }

  /// Pins the documented cost of a first write: the first write of one `@Published` property
  /// looks for the object's publisher once for every field, marking its siblings' storage as
  /// joined, so their first writes do not walk the object's fields again.
  @Test func theFirstWriteOfOnePropertyJoinsEverySiblingStorage() {
    let pair = R3Pair()
    #expect(pair.joinedFields == [false, false])
    pair.age = 37
    #expect(pair.joinedFields == [true, true], "the sibling's first write would walk again")
  }

  /// Pins that a view keeps one subscription to the object it observes across its
  /// re-evaluations: a re-evaluation that happens while the object's `objectWillChange` is
  /// being sent (a flush run by an earlier subscriber) does not drop the view from that send,
  /// so the view still shows the value stored afterwards.
  @Test func aViewReEvaluatedDuringASendStillHearsThatSend() {
    let legacy = R3Legacy()
    let model = Triple()
    var host: ViewHost?
    // Subscribed before the view, so it runs first in each send.
    let earlier = legacy.objectWillChange.sink {
      host?.perform { model.a += 1 }
    }
    host = ViewHost(R3CountAndA(legacy: legacy, model: model))
    #expect(host?.texts == ["count 0 a 0"])
    legacy.count = 1
    #expect(host?.texts == ["count 0 a 1"], "the earlier subscriber's flush re-evaluated it")
    host?.flush()
    #expect(host?.texts == ["count 1 a 1"], "the view missed the send it was re-evaluated in")
    withExtendedLifetime(earlier) {}
  }
}
