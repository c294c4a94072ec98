import ReactiveState
import Testing

/// The host finds a view type's dynamic properties once, from the type's stored-property
/// layout, and links them in place at their offsets on every evaluation. These views put
/// them where a wrong offset, a wrong order or a search by value would show: between fields
/// of other sizes, in a class, in a class-typed custom property, and in an existential field.
@MainActor
@Suite struct ViewGraphDynamicPropertyLayoutTests {
  /// `@State` properties between fields of other sizes and alignments.
  struct Padded: View {
    let flag: Bool
    @State private var first = 1
    let small: UInt8
    @State private var second = "b"
    let wide: Int64
    @State private var third = 3.5

    var body: some View {
      VStack {
        Button("first \(first) \(flag)") { first += 1 }
        Button("second \(second) \(small)") { second += "b" }
        Button("third \(third) \(wide)") { third += 1 }
      }
    }
  }

  /// Re-creates `Padded` (new field values, new `@State` wrappers) on every evaluation.
  struct PaddedParent: View {
    @State private var generation = 0
    var body: some View {
      VStack {
        Button("rebuild \(generation)") { generation += 1 }
        Padded(
          flag: generation % 2 == 0, small: UInt8(generation), wide: Int64(generation) * 1_000)
      }
    }
  }

  @Test func statesBetweenFieldsOfOtherSizesKeepTheirOwnValues() throws {
    let host = ViewHost(PaddedParent())
    try host.tap("second b 0")
    try host.tap("third 3.5 0")
    try host.tap("third 4.5 0")
    try host.tap("rebuild 0")
    #expect(host.texts == ["rebuild 1", "first 1 false", "second bb 1", "third 5.5 1000"])
    try host.tap("first 1 false")
    #expect(host.texts == ["rebuild 1", "first 2 false", "second bb 1", "third 5.5 1000"])
  }

  /// A view that is a class: its properties live in the instance.
  final class ClassView: View {
    let title: String
    @State var taps = 0
    init(title: String) { self.title = title }
    var body: some View { Button("\(title) \(taps)") { self.taps += 1 } }
  }

  struct ClassViewParent: View {
    @State private var generation = 0
    var body: some View {
      VStack {
        Button("rebuild \(generation)") { generation += 1 }
        ClassView(title: "class")
      }
    }
  }

  @Test func aClassViewsStateIsOwnedByItsIdentity() throws {
    let host = ViewHost(ClassViewParent())
    try host.tap("class 0")
    try host.tap("class 1")
    // A new instance of the class view for the same identity reads the same storage.
    try host.tap("rebuild 0")
    #expect(host.texts == ["rebuild 1", "class 2"])
  }

  /// A custom dynamic property that is a class, holding a `@State`.
  final class Tally: DynamicProperty {
    @State var count = 0
  }

  struct UsesClassProperty: View {
    let tally = Tally()
    @State private var other = 100
    var body: some View {
      VStack {
        Button("tally \(tally.count)") { tally.count += 1 }
        Button("other \(other)") { other += 1 }
      }
    }
  }

  @Test func aClassTypedCustomPropertyIsSearched() throws {
    let host = ViewHost(UsesClassProperty())
    try host.tap("tally 0")
    try host.tap("other 100")
    try host.tap("tally 1")
    #expect(host.texts == ["tally 2", "other 101"])
  }

  /// A `State` stored in an `Any` field: not a dynamic property by its declared type.
  struct HidesState: View {
    let hidden: Any = State(initialValue: 7)
    var body: some View {
      Button("hidden \((hidden as? State<Int>)?.wrappedValue ?? -1)") {
        (hidden as? State<Int>)?.wrappedValue += 1
      }
    }
  }

  /// Deliberately as SwiftUI: only declared dynamic properties are linked, so this one stays
  /// unmounted — it reads its initial value and its writes are ignored.
  @Test func aStateInAnExistentialFieldIsNotInstalled() throws {
    let host = ViewHost(HidesState())
    try host.tap("hidden 7")
    #expect(host.texts == ["hidden 7"])
    #expect(host.issues.isEmpty)
  }
}
