import ReactiveStateMacrosFree
import Testing

/// Structural changes to a keyed list: whatever an edit keeps in place at the front and the
/// back, moves, inserts, removes or retypes, every row's state follows its id and its type,
/// checked against a plain array after every flush.
@MainActor
@Suite struct ViewGraphStructuralChangeTests {
  /// A row: its id, and whether it is shown as a ``ViewGraphIdentityTests/OtherCounter``.
  struct Row: Identifiable, Equatable {
    let id: Int
    var isOther = false
  }

  final class RowList: Observable {
    private let registrar = ObservationRegistrar()
    private var _rows: [Row]
    init(_ rows: [Row]) { _rows = rows }
    var rows: [Row] {
      get {
        registrar.access(self, keyPath: \.rows)
        return _rows
      }
      set {
        registrar.withMutation(of: self, keyPath: \.rows) { _rows = newValue }
      }
    }
  }

  /// Each row is a counter labelled with its id, or (`isOther`) a counter of another type
  /// behind the same `AnyView`: retyping a row kept in place must still end its state.
  struct Rows: View {
    let list: RowList
    var body: some View {
      // One expression, not `if`/`else`: its arms would be two identities of their own.
      ForEach(list.rows) { row in
        row.isOther
          ? AnyView(LabelledOther(id: row.id)) : AnyView(CounterView(label: "row\(row.id)"))
      }
    }
  }

  struct LabelledOther: View {
    let id: Int
    @State private var count = 100
    var body: some View { Button("other\(id) \(count)") { count += 1 } }
  }

  /// What the host must show: each row's label and the taps since its identity began.
  struct Expected {
    var rows: [Row]
    var taps: [Int: Int] = [:]
    var texts: [String] {
      rows.map { row in
        row.isOther
          ? "other\(row.id) \(100 + taps[row.id, default: 0])"
          : "row\(row.id) \(taps[row.id, default: 0])"
      }
    }
  }

  @Test(arguments: [1, 2, 3] as [UInt64])
  func everyRowsStateFollowsItsIdentityThroughRandomEdits(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    var nextID = 12
    var expected = Expected(rows: (0..<12).map { Row(id: $0) })
    let list = RowList(expected.rows)
    let host = ViewHost(Rows(list: list))
    for step in 0..<300 {
      var rows = expected.rows
      let position = rows.isEmpty ? 0 : random.below(rows.count)
      switch rows.isEmpty ? 0 : random.below(6) {
      case 0:
        rows.insert(Row(id: nextID), at: random.below(rows.count + 1))
        nextID += 1
      case 1:
        expected.taps[rows.remove(at: position).id] = nil
      case 2:
        let row = rows.remove(at: position)
        rows.insert(row, at: random.below(rows.count + 1))
      case 3:
        rows.swapAt(position, random.below(rows.count))
      case 4:
        rows[position].isOther.toggle()
        expected.taps[rows[position].id] = nil
      default:
        let row = rows[position]
        try host.tap(expected.texts[position])
        expected.taps[row.id, default: 0] += 1
      }
      expected.rows = rows
      list.rows = rows
      host.flush()
      #expect(host.texts == expected.texts, "step \(step) (seed \(seed))")
      if host.texts != expected.texts { return }
    }
  }

  struct LoggedRows: View {
    let list: RowList
    let log: ViewGraphLifecycleTests.Log
    var body: some View {
      ForEach(list.rows) { row in
        ViewGraphLifecycleTests.Detail(name: "row \(row.id)", log: log)
      }
    }
  }

  @Test func anEditInTheMiddleEndsOnlyTheRowsItRemoves() {
    let list = RowList((0..<8).map { Row(id: $0) })
    let log = ViewGraphLifecycleTests.Log()
    let host = ViewHost(LoggedRows(list: list, log: log))
    log.entries.removeAll()
    // Rows 0–2 and 6–7 are kept in place; 3 and 5 go, 4 stays between them, 20 comes.
    list.rows = [0, 1, 2, 20, 4, 6, 7].map { Row(id: $0) }
    host.flush()
    #expect(log.entries.sorted() == ["appear row 20", "disappear row 3", "disappear row 5"])
  }
}
