import Dispatch
import ReactiveState
import Testing

/// View-graph lifetime: unmounting a subtree (a branch switch) or closing the host frees the
/// view values, their `@State` storage and their observers, and leaves no registration on
/// the models they read (writes afterwards evaluate nothing).
@MainActor
@Suite struct ViewLifetimeTests {
  /// Weak references to the canaries views created.
  @MainActor final class Registry {
    private var entries: [() -> Canary?] = []
    func add(_ canary: Canary) { entries.append { [weak canary] in canary } }
    var liveCount: Int { entries.count { $0() != nil } }
    var count: Int { entries.count }
  }

  struct Leaf: View {
    let model: HandModel
    let canary: Canary
    let registry: Registry
    @State private var owned = Canary()

    var body: some View {
      Text("a=\(model.a)")
        .onAppear {
          registry.add(owned)
          registry.add(canary)
        }
    }
  }

  struct Root: View {
    let model: HandModel
    let registry: Registry
    @State private var showsLeaf = true

    var body: some View {
      VStack {
        Button("toggle") { showsLeaf.toggle() }
        if showsLeaf {
          Leaf(model: model, canary: Canary(), registry: registry)
        } else {
          Text("empty")
        }
      }
    }
  }

  @Test func unmountingASubtreeFreesItsViewsStateAndObservers() throws {
    let model = HandModel()
    let registry = Registry()
    let host = ViewHost(Root(model: model, registry: registry))
    #expect(registry.count == 2)
    #expect(registry.liveCount == 2)
    model.a = 1
    host.flush()
    #expect(host.bodyCount(Leaf.self) == 2)
    try host.tap("toggle")
    #expect(registry.liveCount == 0, "the leaf's view value and its @State are gone")
    let evaluations = host.totalBodyEvaluations
    model.a = 2
    host.flush()
    #expect(host.totalBodyEvaluations == evaluations, "no registration of the leaf is left")
    try host.tap("toggle")
    #expect(registry.liveCount == 2, "a new identity, new state")
    host.close()
  }

  @Test func closingAndDroppingTheHostFreesEverything() {
    weak var weakModel: HandModel?
    weak var weakHost: ViewHost?
    let registry = Registry()
    do {
      let model = HandModel()
      weakModel = model
      let host = ViewHost(Root(model: model, registry: registry))
      weakHost = host
      host.close()
      model.a = 1  // nothing is registered any more
    }
    #expect(weakHost == nil)
    #expect(weakModel == nil)
    #expect(registry.count == 2)
    #expect(registry.liveCount == 0)
  }

  @Test func aDroppedHostWithoutCloseFreesItsNodes() {
    weak var weakModel: HandModel?
    let registry = Registry()
    do {
      let model = HandModel()
      weakModel = model
      _ = ViewHost(Root(model: model, registry: registry))
    }
    #expect(weakModel == nil)
    #expect(registry.liveCount == 0)
  }

  /// A row with `@State` that hands out a binding to it.
  struct Counter: View {
    let model: HandModel
    let capture: (Binding<Int>) -> Void
    @State private var count = 0

    var body: some View {
      capture($count)
      return Text("a=\(model.a) count=\(count)")
    }
  }

  /// Nodes reference their host and parent without retaining them, and callbacks reach nodes
  /// through a reference the node clears when it is freed: callbacks that outlive a dropped
  /// host must find nothing to update.
  @Test func callbacksOutlivingADroppedHostFindItsNodesGone() async {
    let model = HandModel()
    weak var weakHost: ViewHost?
    var captured: Binding<Int>?
    do {
      let host = ViewHost(Counter(model: model, capture: { captured = $0 }), mode: .manual)
      weakHost = host
      #expect(host.texts == ["a=0 count=0"])
      // The main actor waits while the model changes on another thread, so the invalidation's
      // hop to the main actor is still queued when the host is dropped.
      DispatchQueue.global().sync { model.a = 1 }
    }
    #expect(weakHost == nil)
    for _ in 0..<5 { await Task.yield() }
    let binding = captured
    binding?.wrappedValue = 3
    #expect(binding?.wrappedValue == 0, "the write reached no identity")
    model.a = 2
  }
}
