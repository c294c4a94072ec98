import ReactiveStateMacrosFree
import Testing

/// The host caches what it learns about a view type (dynamic properties, how values compare)
/// per concrete type. Each specialisation of a generic view is its own type: what one
/// specialisation taught the cache must not leak into another.
@MainActor
@Suite struct ViewGraphTypeCacheTests {
  /// A counter whose storage is its generic payload: `State<Int>` makes it stateful, `Int`
  /// makes it a plain value.
  struct Tally<Payload>: View {
    let title: String
    let payload: Payload

    var count: Int {
      (payload as? State<Int>)?.wrappedValue ?? (payload as? Int) ?? -1
    }

    var body: some View {
      Button("\(title) \(count)") { (payload as? State<Int>)?.wrappedValue += 1 }
    }
  }

  struct Tallies: View {
    var body: some View {
      VStack {
        Tally(title: "plain", payload: 5)
        Tally(title: "stateful", payload: State(initialValue: 0))
      }
    }
  }

  @Test func dynamicPropertiesAreFoundPerSpecialisation() throws {
    // The plain specialisation is searched first and has no dynamic property.
    let host = ViewHost(Tallies())
    #expect(host.texts == ["plain 5", "stateful 0"])
    try host.tap("stateful 0")
    try host.tap("stateful 1")
    #expect(host.texts == ["plain 5", "stateful 2"])
    try host.tap("plain 5")
    #expect(host.texts == ["plain 5", "stateful 2"])
  }

  /// Equatable only when its payload is.
  struct Caption<Payload>: View {
    let payload: Payload
    var body: some View { Text("caption") }
  }

  struct Captions: View {
    @State private var ticks = 0
    var body: some View {
      VStack {
        Button("tick \(ticks)") { ticks += 1 }
        Caption(payload: { 1 })
        Caption(payload: 1)
        Caption(payload: Marker(id: ticks))
      }
    }
  }

  /// Equal when the ids differ only in their lowest bit: its `==` decides, not its fields.
  struct Marker: Equatable {
    let id: Int
    static func == (lhs: Marker, rhs: Marker) -> Bool { lhs.id / 2 == rhs.id / 2 }
  }

  @Test func equalityIsDecidedPerSpecialisation() throws {
    let host = ViewHost(Captions())
    // A closure payload never compares equal; an Int payload compares with `==`, as does a
    // Marker (whose `==` ignores the low bit of its id).
    try host.tap("tick 0")
    #expect(host.bodyCounts(of: Caption<() -> Int>.self) == [2])
    #expect(host.bodyCounts(of: Caption<Int>.self) == [1])
    #expect(host.bodyCounts(of: Caption<Marker>.self) == [1])
    try host.tap("tick 1")
    #expect(host.bodyCounts(of: Caption<() -> Int>.self) == [3])
    #expect(host.bodyCounts(of: Caption<Int>.self) == [1])
    #expect(host.bodyCounts(of: Caption<Marker>.self) == [2])
  }
}

extension ViewGraphTypeCacheTests.Caption: @MainActor Equatable where Payload: Equatable {}
