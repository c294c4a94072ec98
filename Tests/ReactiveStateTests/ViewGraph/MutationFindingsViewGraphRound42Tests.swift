import ReactiveStateMacrosFree
import Testing

/// Survivors of the session-42 mutation round over the view graph's reconcile (rewritten in
/// b1dacfe: positional matching at the front and back, a key table for the stretch between),
/// its identity components (`ErasedID`) and its data properties. Each test fails on the
/// mutant its comment names and passes on the real code.
@MainActor
@Suite struct MutationFindingsViewGraphRound42Tests {
  typealias Log = ViewGraphLifecycleTests.Log
  typealias Detail = ViewGraphLifecycleTests.Detail

  // MARK: - Reconcile: only the changed stretch is hashed

  /// Counts the hashes of the ids sharing it.
  final class HashCounter {
    var count = 0
  }

  /// An id equal by value alone that counts its hashes.
  struct CountedID: Hashable {
    let value: Int
    let counter: HashCounter

    static func == (lhs: CountedID, rhs: CountedID) -> Bool { lhs.value == rhs.value }

    func hash(into hasher: inout Hasher) {
      counter.count += 1
      hasher.combine(value)
    }
  }

  final class IDList: Observable {
    private let registrar = ObservationRegistrar()
    private var _ids: [CountedID]
    init(_ ids: [CountedID]) { _ids = ids }
    var ids: [CountedID] {
      get {
        registrar.access(self, keyPath: \.ids)
        return _ids
      }
      set {
        registrar.withMutation(of: self, keyPath: \.ids) { _ids = newValue }
      }
    }
  }

  struct CountedRows: View {
    let list: IDList
    var body: some View {
      ForEach(list.ids, id: \.self) { id in Text("row \(id.value)") }
    }
  }

  /// "A structural change to a long list hashes only the rows it touched": past `ForEach`'s
  /// own duplicate check (one hash per row), an insertion or an append hashes no id, and a
  /// removal at most the removed row's (twice: a dictionary's first insertion can hash its
  /// key again as it allocates). Kills the front scan stopping one row short
  /// (`front < shorter - 1`) and the back scan stopping one row short
  /// (`back < shorter - front - 1`): both put a kept row in the key table.
  @Test(arguments: ["append", "insert", "removeFirst", "removeMiddle", "removeLast"])
  func aStructuralChangeHashesOnlyTheRowsItTouches(edit: String) {
    let counter = HashCounter()
    let list = IDList((0..<20).map { CountedID(value: $0, counter: counter) })
    let host = ViewHost(CountedRows(list: list))
    var ids = list.ids
    let added = CountedID(value: 99, counter: counter)
    switch edit {
    case "append": ids.append(added)
    case "insert": ids.insert(added, at: 10)
    case "removeFirst": ids.removeFirst()
    case "removeMiddle": ids.remove(at: 10)
    default: ids.removeLast()
    }
    list.ids = ids
    counter.count = 0
    host.flush()
    #expect(host.texts == ids.map { "row \($0.value)" })
    let tableHashes = counter.count - ids.count
    if edit == "append" || edit == "insert" {
      #expect(tableHashes == 0, "\(edit): no row was removed, no table is needed")
    } else {
      #expect(tableHashes <= 2, "\(edit): only the removed row is hashed")
    }
  }

  // MARK: - Reconcile: what a kept child is given

  /// Writes the accent only when there is one, so its first evaluation writes no key.
  struct MaybeAccentWriter: View {
    let model: Triple
    var body: some View {
      AccentEcho(tag: model.a).environment(\.maybeAccent, model.a == 0 ? nil : "red")
    }
  }

  struct AccentEcho: View {
    let tag: Int
    @Environment(\.accent) private var accent
    var body: some View { Text("\(tag) \(accent)") }
  }

  /// "Gives a kept child its parent's new value and environment": a writer that starts
  /// writing a key hands its kept content the environment holding it, and the content
  /// (re-evaluated for its new input) reads the new value. Kills dropping
  /// `child.environment = node.childEnvironment` from `update(_:of:to:)`.
  @Test func aKeptChildReEvaluatedForNewInputReadsItsParentsNewEnvironment() {
    let model = Triple()
    let host = ViewHost(MaybeAccentWriter(model: model))
    #expect(host.texts == ["0 none"])
    model.a = 1
    host.flush()
    #expect(host.texts == ["1 red"])
  }

  struct DirtyChild: View {
    let model: Triple
    var body: some View { Text("b \(model.b)") }
  }

  struct InputChild: View {
    let value: Int
    var body: some View { Text("input \(value)") }
  }

  struct OrderParent: View {
    let model: Triple
    var body: some View {
      VStack {
        Text("a \(model.a)")
        DirtyChild(model: model)
        InputChild(value: model.a)
      }
    }
  }

  /// "Re-evaluates it when the value is not known to equal the previous one or the child is
  /// dirty": a dirty child handed an equal value is evaluated by its parent's update, in tree
  /// order, before a later sibling with new input (effects follow this order). Kills
  /// `guard inputChanged else { return }`, which leaves it to a later pop of the dirty queue.
  @Test func aDirtyChildWithAnEqualValueIsEvaluatedInTreeOrderByItsParent() {
    let model = Triple()
    let host = ViewHost(OrderParent(model: model))
    host.resetCounts()
    model.a = 1
    model.b = 1
    host.flush()
    #expect(host.bodyLog == ["OrderParent", "DirtyChild", "InputChild"])
    #expect(host.texts == ["a 1", "b 1", "input 1"])
  }

  /// Writes the model its parent reads, once, while being evaluated.
  struct Echo: View {
    let model: Triple
    let shown: Int
    var body: some View {
      if model.b > 0, model.a == 0 { model.a = 1 }
      return Text("echo \(shown)")
    }
  }

  struct EchoParent: View {
    let model: Triple
    var body: some View {
      VStack {
        Text("a \(model.a)")
        Echo(model: model, shown: model.a)
      }
    }
  }

  /// "Each view at most once per pass": a child evaluated earlier in the pass whose parent,
  /// dirtied by the child's own write, hands it a new value is evaluated again in the next
  /// pass. Kills `update(_:of:to:)` evaluating it at once (ignoring `wasEvaluatedThisPass`).
  @Test func aChildIsEvaluatedAtMostOncePerPassEvenWhenItsParentHandsItNewInput() {
    let model = Triple()
    let host = ViewHost(EchoParent(model: model))
    host.resetCounts()
    model.b = 1
    host.flush()
    let passes = host.updateLog.filter { $0.view == "Echo" }.map(\.pass)
    #expect(passes.count == 2)
    #expect(Set(passes).count == passes.count, "evaluated twice in one pass: \(passes)")
    #expect(host.texts == ["a 1", "echo 1"])
  }

  struct Parity: View {
    let isEven: Computed<Bool>
    var body: some View { Text(isEven.value ? "even" : "odd") }
  }

  struct ParityParent: View {
    let model: Triple
    let isEven: Computed<Bool>
    var body: some View {
      VStack {
        Text("b \(model.b)")
        Parity(isEven: isEven)
      }
    }
  }

  /// "A change parked by the node's observer may be skipped by the equality cut-off of
  /// derived values it read": a child that is dirty through a derived value that recomputed
  /// equal, and handed an equal value by its re-evaluated parent, keeps the cut-off. Kills
  /// `newInput: true` in `update(_:of:to:)`.
  @Test func aDirtyChildHandedAnEqualValueKeepsTheDerivedCutOff() {
    let model = Triple()
    let isEven = Computed("isEven", isEqual: ==) { model.a % 2 == 0 }
    let host = ViewHost(ParityParent(model: model, isEven: isEven))
    model.a = 2
    model.b = 1
    host.flush()
    #expect(host.bodyCount(ParityParent.self) == 2)
    #expect(host.bodyCount(Parity.self) == 1, "still even: cut off")
    #expect(host.texts == ["b 1", "even"])
  }

  // MARK: - Identity components

  final class Numbers: Observable {
    private let registrar = ObservationRegistrar()
    private var _values: [Int]
    init(_ values: [Int]) { _values = values }
    var values: [Int] {
      get {
        registrar.access(self, keyPath: \.values)
        return _values
      }
      set {
        registrar.withMutation(of: self, keyPath: \.values) { _values = newValue }
      }
    }
  }

  struct NumberRows: View {
    let numbers: Numbers
    var body: some View {
      ForEach(numbers.values, id: \.self) { value in CounterView(label: "n\(value)") }
    }
  }

  /// A repeated id's identity is its occurrence: `[1, 2, 1]` → `[1, 1, 1]` keeps the second
  /// `1`'s state in the second `1` row (the back scan must not match the old second
  /// occurrence to the new third). Kills `.duplicate` components comparing equal whatever
  /// their occurrence (`IdentityComponent.==` without `leftIndex == rightIndex`).
  @Test func aRepeatedIDsStateStaysWithItsOccurrence() throws {
    let numbers = Numbers([1, 2, 1])
    let host = ViewHost(NumberRows(numbers: numbers))
    try host.tap("n1 0", occurrence: 1)
    numbers.values = [1, 1, 1]
    host.flush()
    #expect(host.texts == ["n1 0", "n1 1", "n1 0"])
  }

  /// An expansion's keys are distinct, also for repeats: each later occurrence of an id has
  /// its own number, so moving another row past three `1`s keeps every `1` row's state.
  /// Kills `ForEach` numbering every repeat `1` (two equal keys: the key table keeps the
  /// last, and the first repeat's state goes to the wrong row).
  @Test func repeatsOfAnIDKeepTheirStateWhenAnotherRowMovesPastThem() throws {
    let numbers = Numbers([1, 1, 1, 5])
    let host = ViewHost(NumberRows(numbers: numbers))
    try host.tap("n1 0", occurrence: 1)
    numbers.values = [5, 1, 1, 1]
    host.flush()
    #expect(host.texts == ["n5 0", "n1 0", "n1 1", "n1 0"])
  }

  struct IDRow: View {
    var body: some View { Text("row") }
  }

  /// "The id as printed": an `Int` id prints in decimal in a row's path (the ids of the
  /// existing path test are single digits). Kills the `Int` fast path printing another way
  /// (`String(_:radix: 16)`).
  @Test func anIntIDPrintsInDecimalInThePath() {
    let host = ViewHost(ForEach([42], id: \.self) { _ in IDRow() })
    let path = host.updateLog.first { $0.view == "IDRow" }?.path
    #expect(path?.split(separator: "/").last == "#42:IDRow")
  }

  struct VectorIDView: View {
    let model: Triple
    let vector: [Double]
    let log: Log
    var body: some View {
      VStack {
        Text("a \(model.a)")
        Detail(name: "vector", log: log).id(vector)
      }
    }
  }

  /// Not a mutant: pins a behaviour b1dacfe changed, on purpose (see `ErasedID`). An id is
  /// compared by its own type's `==`, and `Array`'s says a buffer is equal to itself even when
  /// it holds `.nan`; as an `AnyHashable` (before b1dacfe) the array compared element by
  /// element and was never equal, so this identity ended and remounted at every evaluation of
  /// its parent.
  @Test func anArrayIDHoldingNaNIsKeptWhileItsStorageIsShared() {
    let model = Triple()
    let log = Log()
    let host = ViewHost(VectorIDView(model: model, vector: [1, .nan], log: log))
    for value in 1...2 {
      model.a = value
      host.flush()
    }
    #expect(log.entries == ["appear vector"])
  }

  struct Hider: View {
    let numbers: Numbers
    @State private var shows = true
    var body: some View {
      VStack {
        Button("hide") { shows = false }
        if shows {
          ForEach(0..<2) { index in Text("value \(numbers.values[index])") }
        }
      }
    }
  }

  /// "Removed views never evaluate": a `ForEach` dirtied by its row closure's read and
  /// removed by its parent in the same pass is neither expanded nor logged. Kills `remove(_:)`
  /// leaving the removed subtree in the dirty queue.
  @Test func aDirtyViewRemovedByItsParentInTheSamePassNeverEvaluates() throws {
    let numbers = Numbers([1, 2])
    let host = ViewHost(Hider(numbers: numbers))
    host.resetCounts()
    host.perform {
      numbers.values = [3, 4]
      try? host.tap("hide")
    }
    print("EXP hider", host.updateLog.map(\.description))
    #expect(host.updateLog.map(\.view) == ["Hider"])
    #expect(host.texts == ["hide"])
  }

  // MARK: - Data

  /// Equal by id; not observable.
  class Tag: Equatable {
    let id: Int
    init(id: Int) { self.id = id }
    static func == (lhs: Tag, rhs: Tag) -> Bool { lhs.id == rhs.id }
  }

  /// An observable subclass: a state holding one must be replaced even by an equal `Tag`.
  final class LiveTag: Tag, Observable {}

  struct TagHolder: View {
    @State private var tag = Tag(id: 1)
    var body: some View {
      Button(tag is LiveTag ? "live" : "plain") { tag = LiveTag(id: 1) }
    }
  }

  /// "The dynamic types decide too": writing an observable object over a state whose
  /// declared type and old value are not observable compares by identity, so an instance
  /// equal by `==` is still written. Kills `isUnchanged` not checking the new value's type.
  @Test func anObservableObjectWrittenOverAnEqualPlainOneIsWritten() throws {
    let host = ViewHost(TagHolder())
    try host.tap("plain")
    #expect(host.texts == ["live"])
  }

  /// Not `Equatable`: a binding to it carries no snapshot.
  struct Blob {
    var size = 0
  }

  final class Notes: Observable {
    private let registrar = ObservationRegistrar()
    private var _a = 0
    /// Not observed: only a re-evaluation shows its changes.
    var note = "first"
    var blob = Blob()
    var a: Int {
      get {
        registrar.access(self, keyPath: \.a)
        return _a
      }
      set {
        registrar.withMutation(of: self, keyPath: \.a) { _a = newValue }
      }
    }
  }

  struct NoteLabel: View {
    @Binding var text: String
    var body: some View { Text("note \(text)") }
  }

  struct NoteParent: View {
    @Bindable var notes: Notes
    var body: some View {
      NoteLabel(text: notes.a == 0 ? $notes.note : Self.plainBinding($notes, \.note))
    }

    /// A binding made where the member's type is not known to be `Equatable`: no snapshot.
    static func plainBinding<Member>(
      _ notes: Bindable<Notes>, _ keyPath: ReferenceWritableKeyPath<Notes, Member>
    ) -> Binding<Member> {
      notes[dynamicMember: keyPath]
    }
  }

  /// "Equal snapshots (or none on both sides)": a binding with a snapshot and one without,
  /// to the same property, are not interchangeable, so the child is re-evaluated and shows
  /// the unobserved property's new value. Kills `BindingIdentity.==` treating a snapshot on
  /// one side only as equal.
  @Test func aBindingWithASnapshotIsNotInterchangeableWithOneWithout() {
    let notes = Notes()
    let host = ViewHost(NoteParent(notes: notes))
    #expect(host.texts == ["note first"])
    notes.note = "second"
    notes.a = 1
    host.flush()
    #expect(host.texts == ["note second"])
  }

  struct BlobLabel: View {
    @Binding var blob: Blob
    var body: some View { Text("blob \(blob.size)") }
  }

  struct BlobParent: View {
    @Bindable var notes: Notes
    var body: some View {
      VStack {
        Text("a \(notes.a)")
        BlobLabel(blob: $notes.blob)
      }
    }
  }

  /// Two bindings to the same non-`Equatable` property (no snapshots) are interchangeable:
  /// a parent re-evaluated for another reason does not re-evaluate the child. Kills such a
  /// binding carrying a snapshot that matches nothing.
  @Test func aFreshBindingToTheSameNonEquatablePropertySkipsTheChild() {
    let notes = Notes()
    let host = ViewHost(BlobParent(notes: notes))
    notes.a = 1
    host.flush()
    #expect(host.bodyCount(BlobParent.self) == 2)
    #expect(host.bodyCount(BlobLabel.self) == 1)
  }

  /// Stands in for a `Chain` that is never read.
  final class Placeholder {}

  /// A dynamic property whose type stores its own type: a link to another chain that is
  /// never read here (an `unowned(unsafe)` reference to a placeholder, the only way to build a
  /// first value of such a class without an optional).
  final class Chain: DynamicProperty {
    @State var count = 0
    unowned(unsafe) let next: Chain
    private static let placeholder = Placeholder()

    init() { next = unsafeBitCast(Self.placeholder, to: Chain.self) }
  }

  struct ChainView: View {
    let chain = Chain()
    var body: some View { Button("chain \(chain.count)") { chain.count += 1 } }
  }

  /// "A class that (indirectly) stores its own type finds this empty plan instead of
  /// searching forever": a view holding such a dynamic property mounts and its `@State`
  /// works. Kills `DynamicPropertyPlan.of` not storing the empty plan before searching
  /// (the search recurses until the stack overflows).
  @Test func aDynamicPropertyStoringItsOwnTypeIsSearchedOnce() throws {
    let host = ViewHost(ChainView())
    try host.tap("chain 0")
    #expect(host.texts == ["chain 1"])
  }

  // MARK: - Found on the way (a bug, fixed)

  struct ConstantEchoWriter: View {
    let model: Triple
    var body: some View {
      AccentEcho(tag: 0).environment(\.maybeAccent, model.a == 0 ? nil : "red")
    }
  }

  /// A writer whose first evaluation wrote no key (a setter that writes conditionally) and
  /// that now writes one reshapes its subtree: a reader below whose own value is unchanged
  /// read the default and tracked nothing, so only the reshape shows it the value. (The bug:
  /// the reshape ran only when the writer had set some key before.)
  @Test func aReaderBelowAWriterThatStartsWritingAKeySeesTheValue() {
    let model = Triple()
    let host = ViewHost(ConstantEchoWriter(model: model))
    #expect(host.texts == ["0 none"])
    model.a = 1
    host.flush()
    #expect(host.texts == ["0 red"])
  }
}

extension EnvironmentValues {
  /// The accent, written only when not nil.
  fileprivate var maybeAccent: String? {
    get { accent }
    set { if let newValue { accent = newValue } }
  }
}
