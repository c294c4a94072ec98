import ReactiveStateMacrosFree
import Testing

/// Survivors of the session-44 mutation round over the view graph's host and data layer (the
/// dirty queue, node slots, dynamic-property installation, the view-value comparison, state
/// cells). Each test fails on the mutant its comment names and passes on the real code.
@MainActor
@Suite struct MutationFindingsViewHostRound44Tests {
  // MARK: - DirtyQueue: shallowest first

  struct ReadsA: View {
    let model: Triple
    var body: some View { Text("a \(model.a)") }
  }

  struct ReadsB: View {
    let model: Triple
    var body: some View { Text("b \(model.b)") }
  }

  struct ReadsFlag: View {
    let model: Triple
    var body: some View { Text(model.flag ? "on" : "off") }
  }

  struct Wrap<Content: View>: View {
    let content: Content
    var body: some View { content }
  }

  /// Three readers in three subtrees, each one level deeper than the last.
  struct Layers: View {
    let model: Triple
    var body: some View {
      VStack {
        ReadsA(model: model)
        Wrap(content: ReadsB(model: model))
        Wrap(content: Wrap(content: ReadsFlag(model: model)))
      }
    }
  }

  /// "Popped shallowest first": three views in different subtrees, dirtied shallowest first,
  /// evaluate shallowest first (the host documents that effects follow this order between
  /// subtrees; SwiftUI documents none). Once the shallowest is popped the heap holds the
  /// deepest at its root and the middle one as its only child. Kills the sift-down skipping a
  /// left child that is the heap's last entry (`left < heap.count - 1`), which pops the deepest
  /// view before the middle one.
  @Test func dirtyViewsOfDifferentSubtreesEvaluateShallowestFirst() {
    let model = Triple()
    let host = ViewHost(Layers(model: model))
    host.resetCounts()
    model.a = 1
    model.b = 1
    model.flag = false
    host.flush()
    #expect(host.bodyLog == ["ReadsA", "ReadsB", "ReadsFlag"])
    #expect(host.texts == ["a 1", "b 1", "off"])
  }

  // MARK: - DynamicPropertyInstaller: a node keeps the link it owns

  /// Hands out, at its appearance, an action reading its environment.
  struct KeptAccentReader: View {
    let log: AdvLog
    @Environment(\.advAccent) private var accent
    var body: some View {
      Text("accent \(accent)").onAppear { log.actions.append { log.entries.append(accent) } }
    }
  }

  /// Shows one stored reader value under a writer whose key it can switch (which reshapes
  /// the reader's environment: no cell change tells it).
  struct KeySwitcher: View {
    let reader: KeptAccentReader
    @State private var writesAccent = false
    var body: some View {
      VStack {
        Button("switch") { writesAccent = true }
        reader.environment(writesAccent ? \.advAccent : \.advOther, "b")
      }
    }
  }

  /// "The link every copy of this value shares (so any copy of the view struct, such as the
  /// one an action captured, reaches the node's storage)": an action captured at the view's
  /// appearance, called after its ancestors reshaped its environment, reads the new value.
  /// Kills `claim` without `if link.ownerSerial == serial { return true }`: the owning node
  /// then takes its own links for another node's and re-links a copy of its view, leaving
  /// the captured value on the old environment.
  @Test func anActionCapturedAtAppearanceReadsTheReshapedEnvironment() throws {
    let log = AdvLog()
    let host = ViewHost(KeySwitcher(reader: KeptAccentReader(log: log)))
    #expect(host.texts == ["switch", "accent default"])
    try host.tap("switch")
    #expect(host.texts == ["switch", "accent b"])
    #expect(log.actions.count == 1)
    log.actions.first?()
    #expect(log.entries == ["b"])
  }

  // MARK: - ViewEquality: the general rules

  /// A payload enum that is not `Equatable`: compared through `Mirror`.
  enum Side {
    case left(Int)
    case right(Int)
  }

  struct SideLabel: View {
    let side: Side
    var body: some View { Text("side \(side)") }
  }

  struct SideFlipper: View {
    @State private var isRight = false
    var body: some View {
      VStack {
        Button("flip") { isRight.toggle() }
        SideLabel(side: isRight ? .right(1) : .left(1))
      }
    }
  }

  /// "Enum cases by name and payload": two cases with equal payloads are not equal, so a
  /// child handed the other case re-evaluates. Kills `childrenEqual` without
  /// `l.label == r.label` (a payload case's mirror child is labelled with the case name).
  @Test func payloadCasesWithEqualPayloadsAreNotKnownEqual() throws {
    let host = ViewHost(SideFlipper())
    try host.tap("flip")
    #expect(host.texts == ["flip", "side right(1)"])
  }

  struct ModelCount: View {
    let models: [Triple]
    var body: some View { Text("models \(models.count)") }
  }

  struct ModelPrefix: View {
    let pool: [Triple]
    @State private var shown = 1
    var body: some View {
      VStack {
        Button("more") { shown += 1 }
        ModelCount(models: Array(pool.prefix(shown)))
      }
    }
  }

  /// "Collections compare recursively": a collection of models that grew, its first
  /// elements the same instances, is not equal to the shorter one. Kills `childrenEqual`
  /// without its count check (`zip` stops at the shorter collection).
  @Test func aLongerCollectionOfTheSameModelsIsNotKnownEqual() throws {
    let host = ViewHost(ModelPrefix(pool: [Triple(), Triple()]))
    try host.tap("more")
    #expect(host.texts == ["more", "models 2"])
  }

  // MARK: - FieldComparer: an `Equatable` class compares by its `==`

  /// A class equal by its id (not `Observable`).
  final class Tag: Equatable {
    let id: Int
    init(id: Int) { self.id = id }
    static func == (lhs: Tag, rhs: Tag) -> Bool { lhs.id == rhs.id }
  }

  struct TagLabel: View {
    let tag: Tag
    var body: some View { Text("tag \(tag.id)") }
  }

  struct TagParent: View {
    @State private var ticks = 0
    var body: some View {
      VStack {
        Button("tick \(ticks)") { ticks += 1 }
        TagLabel(tag: Tag(id: 1))
      }
    }
  }

  /// "`Equatable` values use `==`; class references use `===`" only for classes that are not
  /// `Equatable` (or are `Observable`): a new instance of an `Equatable` class, equal by its
  /// `==`, is an equal input and the child is not re-evaluated (the library's rule; SwiftUI
  /// compares the reference). Kills `FieldComparer.kind` testing `type is AnyClass` before
  /// the `Equatable` conformance.
  @Test func aNewInstanceOfAnEquatableClassEqualByItsEqualsIsAnEqualInput() throws {
    let host = ViewHost(TagParent())
    try host.tap("tick 0")
    #expect(host.texts == ["tick 1", "tag 1"])
    #expect(host.bodyCounts(of: TagLabel.self) == [1])
  }

  // MARK: - FieldRule: a rule applies only to the dynamic type it was decided for

  final class Owner {}

  /// A `weak` field keeps the type on the `Mirror`-based rules; `value` is an existential.
  struct WeakOwnedPayload: View {
    weak var owner: Owner?
    let value: Any
    var body: some View { Text("payload \(type(of: value)) \(value)") }
  }

  struct PayloadSwitcher: View {
    @State private var asText = false
    var body: some View {
      VStack {
        Button("switch") { asText = true }
        WeakOwnedPayload(owner: nil, value: asText ? "1" as Any : 1 as Any)
      }
    }
  }

  /// "A field declared as an existential may hold another type": the `Equatable` rule decided
  /// for the `Int` the field first held is not applied to the `String` it holds next; the
  /// general rules find the values different. Kills `FieldRule.compare` without its check of
  /// both values' dynamic types (the `Int` comparer force-casts the `String` and traps).
  @Test func anExistentialFieldHoldingAnotherTypeIsNotComparedByTheFirstTypesRule() throws {
    let host = ViewHost(PayloadSwitcher())
    #expect(host.texts == ["switch", "payload Int 1"])
    try host.tap("switch")
    #expect(host.texts == ["switch", "payload String 1"])
  }

  // MARK: - IdenticalBits: floating point is left out, behind an optional too

  /// An optional `Double` field (no `@State`): compared by `Optional<Double>`'s `==`.
  struct OptionalMeasure: View {
    let value: Double?
    var body: some View { Text("measure") }
  }

  struct MeasureParent: View {
    @State private var ticks = 0
    var body: some View {
      VStack {
        Button("tick \(ticks)") { ticks += 1 }
        OptionalMeasure(value: .nan)
      }
    }
  }

  /// "Floating-point types are left out (`.nan` is not equal to itself)", and the shortcut
  /// admits "optionals of these" only: an optional `.nan` is not equal to itself either, so
  /// the child is re-evaluated with its parent (its `Equatable` rule says so; SwiftUI's
  /// byte comparison would skip it). Kills `isBitComparable` admitting every optional
  /// (`return true` for an optional whatever it wraps).
  @Test func anOptionalNaNIsNotKnownEqualByItsBits() throws {
    let host = ViewHost(MeasureParent())
    try host.tap("tick 0")
    #expect(host.bodyCounts(of: OptionalMeasure.self) == [2])
  }

  // MARK: - UpdateRecord

  /// "Same view, path, cause and pass": two evaluations of one view for the same cause in
  /// two passes are two different records. Kills `==` without `lhs.pass == rhs.pass`.
  @Test func recordsOfTheSameUpdateInTwoPassesDiffer() throws {
    let host = ViewHost(CounterView(label: "c"))
    host.resetCounts()
    try host.tap("c 0")
    try host.tap("c 1")
    let records = host.updateLog.filter { $0.view == "CounterView" }
    #expect(records.count == 2)
    #expect(records.first?.cause == records.last?.cause)
    #expect(records.first?.pass != records.last?.pass)
    #expect(records.first != records.last)
  }

  // MARK: - State: a second place starts from the initial value

  /// Shows one stored counter value, and the same value again once asked.
  struct LateTwin: View {
    let content: CounterView
    @State private var showsSecond = false
    var body: some View {
      VStack {
        content
        Button("show") { showsSecond = true }
        if showsSecond { content }
      }
    }
  }

  /// "One view value shown at several places has state at each", and a new identity "starts
  /// from the initial value": a stored view value mounted at a second place after the first
  /// place changed its state starts from the declared initial value, not the first place's
  /// current one. Kills `State.withNewLink()` carrying `wrappedValue` (read through the first
  /// place's cell) instead of `handle.initial`.
  @Test func aViewValueMountedAtASecondPlaceLaterStartsFromItsInitialState() throws {
    let host = ViewHost(LateTwin(content: CounterView(label: "c")))
    try host.tap("c 0")
    try host.tap("show")
    #expect(host.texts == ["c 1", "show", "c 0"])
  }

  // MARK: - Rendering: a modifier's attribute stays on its own line

  struct TaggedStack: View {
    var body: some View {
      VStack {
        Text("inside")
      }
      .attribute("tag", "x")
    }
  }

  /// A modifier's attribute is shown on the line of the view it modifies, not on that view's
  /// children. Kills `render` handing a line's attributes on to its children.
  @Test func anAttributeOfAContainerIsNotRepeatedOnItsChildren() {
    let host = ViewHost(TaggedStack())
    #expect(
      host.render() == """
        TaggedStack
          VStack [tag=x]
            Text "inside"
        """)
  }
}
