import ReactiveStateMacrosFree
import Testing

/// Bindings, `@State` objects and custom dynamic properties.
@MainActor
@Suite struct ViewGraphBindingTests {
  struct Reader: View {
    @Binding var value: Int
    var body: some View { Text("reader \(value)") }
  }

  struct Writer: View {
    @Binding var value: Int
    var body: some View { Button("write") { value += 1 } }
  }

  struct Owner: View {
    @State private var value = 0
    var body: some View {
      Text("owner \(value)")
      Reader(value: $value)
      Writer(value: $value)
    }
  }

  @Test func aBindingWriteInvalidatesEveryReaderInOnePass() throws {
    let host = ViewHost(Owner())
    host.resetCounts()
    let passes = host.passCount
    try host.tap("write")
    #expect(host.passCount == passes + 1)
    #expect(host.bodyLog == ["Owner", "Reader"], "the writer reads nothing and is skipped")
    #expect(host.texts == ["owner 1", "reader 1", "write"])
  }

  final class Bag: Observable {
    nonisolated(unsafe) static var made = 0
    init() { Bag.made += 1 }
  }

  struct OwnsObject: View {
    let label: Int
    @State private var bag = Bag()
    let seen: (ObjectIdentifier) -> Void
    var body: some View {
      seen(ObjectIdentifier(bag))
      return Text("owns \(label)")
    }
  }

  struct ObjectParent: View {
    let model: Triple
    let seen: (ObjectIdentifier) -> Void
    var body: some View { OwnsObject(label: model.a, seen: seen) }
  }

  @Test func stateObjectKeepsItsIdentityAcrossParentReEvaluations() {
    let model = Triple()
    var seen: [ObjectIdentifier] = []
    let host = ViewHost(ObjectParent(model: model, seen: { seen.append($0) }))
    for value in 1...3 { host.perform { model.a = value } }
    #expect(host.bodyCount(OwnsObject.self) == 4)
    #expect(Set(seen).count == 1, "the first instance is kept for the identity")
  }

  struct Counter: DynamicProperty {
    @State var count = 0
    @Environment(\.level) var level
  }

  struct UsesCustomProperty: View {
    var counter = Counter()
    var body: some View {
      Button("count \(counter.count) at \(counter.level)") { counter.count += 1 }
    }
  }

  @Test func customDynamicPropertiesAreInstalled() throws {
    let host = ViewHost(UsesCustomProperty().environment(\.level, 3))
    try host.tap("count 0 at 3")
    #expect(host.texts == ["count 1 at 3"])
  }

  struct MixedProperties: View {
    @State private var before = 10
    var counter = Counter()
    @State private var after = 20
    var body: some View {
      VStack {
        Button("before \(before)") { before += 1 }
        Button("count \(counter.count)") { counter.count += 1 }
        Button("after \(after)") { after += 1 }
      }
    }
  }

  /// Slots are numbered depth first: the nested `@State` sits between its neighbours, and each
  /// keeps its value across re-evaluations.
  @Test func nestedDynamicPropertiesKeepTheirOwnSlots() throws {
    let host = ViewHost(MixedProperties().environment(\.level, 3))
    try host.tap("count 0")
    try host.tap("after 20")
    try host.tap("count 1")
    #expect(host.texts == ["before 10", "count 2", "after 21"])
  }

  struct Chain: View {
    @Binding var pair: Pair
    var body: some View { Text("\(pair.first) \(pair.second)") }
  }

  struct Pair: Equatable {
    var first = 1
    var second = 2
  }

  struct ChainParent: View {
    let model: Triple
    @State private var pair = Pair()
    var body: some View {
      Text("tick \(model.a)")
      Chain(pair: $pair)
      Stepper("second", value: $pair.second)
    }
  }

  @Test func aFreshBindingToTheSameSourceDoesNotReEvaluateTheChild() throws {
    let model = Triple()
    let host = ViewHost(ChainParent(model: model))
    host.perform { model.a = 1 }
    #expect(host.bodyCount(ChainParent.self) == 2)
    #expect(host.bodyCount(Chain.self) == 1)
    try host.increment("second")
    #expect(host.bodyCount(Chain.self) == 2)
    #expect(host.texts.contains("1 3"))
  }
}
