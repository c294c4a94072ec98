import ReactiveStateMacrosFree
import Testing

/// A: identity and state lifetime.
@MainActor
@Suite struct ViewGraphIdentityTests {
  struct SeededChild: View {
    @State var value: Int
    init(seed: Int) { _value = State(initialValue: seed) }
    var body: some View {
      Stepper("value", value: $value)
    }
  }

  struct SeedParent: View {
    let model: Triple
    var body: some View {
      SeededChild(seed: model.a)
    }
  }

  @Test func initialValueIsUsedOncePerIdentity() throws {
    let model = Triple()
    model.a = 1
    let host = ViewHost(SeedParent(model: model))
    try host.increment("value")
    #expect(host.value(of: "value") == "2")
    model.a = 50
    host.flush()
    #expect(host.bodyCount(SeedParent.self) == 2)
    #expect(host.value(of: "value") == "2")
  }

  struct TwoCounters: View {
    var body: some View {
      VStack {
        CounterView(label: "first")
        CounterView(label: "second")
      }
    }
  }

  @Test func identicalViewsAtDifferentPositionsHaveIndependentState() throws {
    let host = ViewHost(TwoCounters())
    try host.tap("first 0")
    try host.tap("first 1")
    #expect(host.texts == ["first 2", "second 0"])
  }

  struct Branches: View {
    let model: Triple
    var body: some View {
      if model.flag {
        CounterView(label: "yes")
      } else {
        CounterView(label: "no")
      }
    }
  }

  @Test func conditionalBranchesAreSeparateIdentities() throws {
    let model = Triple()
    let host = ViewHost(Branches(model: model))
    try host.tap("yes 0")
    #expect(host.texts == ["yes 1"])
    model.flag = false
    host.flush()
    #expect(host.texts == ["no 0"])
    model.flag = true
    host.flush()
    #expect(host.texts == ["yes 0"], "a flipped-back branch gets fresh state, never the old one")
  }

  struct Switcher: View {
    let model: Triple
    var body: some View {
      switch model.a {
      case 0: CounterView(label: "zero")
      case 1: CounterView(label: "one")
      default: CounterView(label: "many")
      }
    }
  }

  @Test func switchCasesAreSeparateIdentities() throws {
    let model = Triple()
    let host = ViewHost(Switcher(model: model))
    try host.tap("zero 0")
    model.a = 2
    host.flush()
    #expect(host.texts == ["many 0"])
    model.a = 0
    host.flush()
    #expect(host.texts == ["zero 0"])
  }

  struct Item: Identifiable, Hashable {
    let id: Int
  }

  final class ItemList: Observable {
    private let registrar = ObservationRegistrar()
    private var _items: [Item]
    init(_ ids: [Int]) { _items = ids.map(Item.init) }
    var items: [Item] {
      get {
        registrar.access(self, keyPath: \.items)
        return _items
      }
      set {
        registrar.withMutation(of: self, keyPath: \.items, replacing: _items, with: newValue) {
          _items = newValue
        }
      }
    }
  }

  struct Rows: View {
    let list: ItemList
    var body: some View {
      ForEach(list.items) { item in
        CounterView(label: "row\(item.id)")
      }
    }
  }

  @Test func forEachStateFollowsElementID() throws {
    let list = ItemList([1, 2, 3])
    let host = ViewHost(Rows(list: list))
    try host.tap("row2 0")
    try host.tap("row3 0")
    try host.tap("row3 1")
    list.items.reverse()
    host.flush()
    #expect(host.texts == ["row3 2", "row2 1", "row1 0"], "state moves with its element")
    list.items.removeAll { $0.id == 3 }
    host.flush()
    #expect(host.texts == ["row2 1", "row1 0"])
    list.items.insert(Item(id: 3), at: 0)
    host.flush()
    #expect(host.texts == ["row3 0", "row2 1", "row1 0"], "a re-inserted id is never resurrected")
  }

  @Test func duplicateForEachIDsAreReportedNotFatal() {
    let list = ItemList([1, 1, 2])
    let host = ViewHost(Rows(list: list))
    #expect(host.texts == ["row1 0", "row1 0", "row2 0"])
    #expect(host.issues.contains { $0.kind == .duplicateID })
  }

  struct ByParity: View {
    var body: some View { ForEach([1, 3, 2], id: \.parity) { Text("\($0)") } }
  }

  /// A key path from the element to its own type is applied, not taken for `\.self`.
  @Test func anIDKeyPathToTheElementsOwnTypeIsApplied() {
    let host = ViewHost(ByParity())
    #expect(host.texts == ["1", "3", "2"])
    #expect(host.issues.filter { $0.kind == .duplicateID }.count == 1, "1 and 3 share id 1")
  }

  struct Ranged: View {
    let model: Triple
    var body: some View {
      ForEach(0..<model.a) { index in Text("line \(index)") }
    }
  }

  @Test func forEachOverARange() {
    let model = Triple()
    model.a = 2
    let host = ViewHost(Ranged(model: model))
    #expect(host.texts == ["line 0", "line 1"])
    model.a = 3
    host.flush()
    #expect(host.texts == ["line 0", "line 1", "line 2"])
  }

  struct Explicit: View {
    let model: Triple
    var body: some View {
      CounterView(label: "doc").id(model.a)
    }
  }

  @Test func changingExplicitIDResetsStateAndEqualIDKeepsIt() throws {
    let model = Triple()
    let host = ViewHost(Explicit(model: model))
    try host.tap("doc 0")
    model.b = 1
    model.flag = false
    host.flush()
    #expect(host.texts == ["doc 1"])
    model.a = 7
    host.flush()
    #expect(host.texts == ["doc 0"])
  }

  struct OtherCounter: View {
    @State private var count = 100
    var body: some View { Button("other \(count)") { count += 1 } }
  }

  struct ErasedSameSlot: View {
    let model: Triple
    var body: some View {
      model.flag ? AnyView(CounterView(label: "erased")) : AnyView(OtherCounter())
    }
  }

  @Test func changingTheConcreteTypeBehindAnyViewIsANewIdentity() throws {
    let model = Triple()
    let host = ViewHost(ErasedSameSlot(model: model))
    try host.tap("erased 0")
    model.flag = false
    host.flush()
    #expect(host.texts == ["other 100"])
    model.flag = true
    host.flush()
    #expect(host.texts == ["erased 0"])
  }

  @Test func writesToADeadIdentityAreDropped() throws {
    let model = Triple()
    var captured: Binding<Int>?
    struct Capturing: View {
      @State private var count = 0
      let capture: (Binding<Int>) -> Void
      var body: some View {
        capture($count)
        return Text("count \(count)")
      }
    }
    struct Holder: View {
      let model: Triple
      let capture: (Binding<Int>) -> Void
      var body: some View {
        if model.flag { Capturing(capture: capture) }
      }
    }
    let host = ViewHost(Holder(model: model, capture: { captured = $0 }))
    let binding = try #require(captured)
    binding.wrappedValue = 5
    host.flush()
    #expect(host.texts == ["count 5"])
    model.flag = false
    host.flush()
    let before = host.totalBodyEvaluations
    binding.wrappedValue = 9
    host.flush()
    #expect(binding.wrappedValue == 5)
    #expect(host.totalBodyEvaluations == before)
    #expect(host.issues.map(\.kind) == [.writeToEndedIdentity], "ignored, but reported")
    #expect(host.issues.first?.message.contains("Capturing.count") == true)
    model.flag = true
    host.flush()
    #expect(host.texts == ["count 0"])
  }
}

extension Int {
  /// 1 for odd values, 0 for even ones: an id of the element's own type that is not itself.
  fileprivate var parity: Int { self & 1 }
}
