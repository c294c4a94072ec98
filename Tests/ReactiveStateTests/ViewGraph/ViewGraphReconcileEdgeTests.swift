import ReactiveStateMacrosFree
import Testing

/// Reconciliation edge cases: ids that are not equal to themselves, and `AnyView` spellings
/// that must not change the identity of the view they erase.
@MainActor
@Suite struct ViewGraphReconcileEdgeTests {
  typealias Log = ViewGraphLifecycleTests.Log
  typealias Leaf = ViewGraphLifecycleTests.Detail

  /// An explicit id and `ForEach` ids that are `.nan`, which `==` never finds equal to itself.
  struct NotSelfEqualIDs: View {
    let model: Triple
    let log: Log
    var body: some View {
      VStack {
        Text("a \(model.a)")
        Leaf(name: "explicit", log: log).id(Double.nan)
        ForEach([1.0, Double.nan], id: \.self) { value in Leaf(name: "row \(value)", log: log) }
      }
    }
  }

  @Test func anIdentityReplacedBecauseItsIDIsNotEqualToItselfStillEnds() {
    let model = Triple()
    let log = Log()
    let host = ViewHost(NotSelfEqualIDs(model: model, log: log))
    let nodes = host.nodeCount
    for value in 1...2 {
      model.a = value
      host.flush()
    }
    // Each update finds no match for a `.nan` id, so it mounts a fresh identity; the one it
    // replaces must end (onDisappear, state, tasks), not be dropped from the tree unnoticed.
    #expect(log.count("appear explicit") == 3)
    #expect(log.count("disappear explicit") == 2)
    #expect(log.count("appear row nan") == 3)
    #expect(log.count("disappear row nan") == 2)
    #expect(log.count("appear row 1.0") == 1, "a row whose id matches is kept")
    #expect(log.count("disappear row 1.0") == 0)
    #expect(host.nodeCount == nodes)
  }

  /// Erases the same counter directly, or an `AnyView` of it, by `AnyView(erasing:)` or by
  /// `AnyView(_:)`.
  struct ErasedEitherWay: View {
    let model: Triple
    let byErasing: Bool
    var body: some View {
      let counter = CounterView(label: "erased")
      if byErasing {
        return model.flag ? AnyView(erasing: AnyView(counter)) : AnyView(erasing: counter)
      }
      return model.flag ? AnyView(AnyView(counter)) : AnyView(counter)
    }
  }

  @Test(arguments: [true, false])
  func erasingAnAnyViewAgainKeepsTheConcreteViewsIdentity(byErasing: Bool) throws {
    let model = Triple()
    let host = ViewHost(ErasedEitherWay(model: model, byErasing: byErasing))
    try host.tap("erased 0")
    let nodes = host.nodeCount
    model.flag = false
    host.flush()
    #expect(host.texts == ["erased 1"], "the counter is the same identity either way")
    #expect(host.nodeCount == nodes, "no AnyView nested in an AnyView")
    let direct = ViewHost(AnyView(erasing: CounterView(label: "direct")))
    let again = ViewHost(AnyView(erasing: AnyView(CounterView(label: "again"))))
    #expect(again.nodeCount == direct.nodeCount)
  }
}

extension ViewGraphLifecycleTests.Log {
  /// How many entries start with `prefix`.
  func count(_ prefix: String) -> Int { entries.filter { $0.hasPrefix(prefix) }.count }
}
