import ReactiveState

/// Views for the profile loops that exercise what the benchmark list does not: views
/// compared memberwise when their parent re-evaluates, and views with `@State`.

/// A row with `@State`: every evaluation links its property to the node's storage.
struct BenchStateRow: View {
  let model: BenchRowModel
  @State private var taps = 0
  var body: some View { Text("row \(model.value) taps \(taps)") }
}

/// A list of ``BenchStateRow``s.
struct BenchStateList: View {
  let models: [BenchRowModel]
  var body: some View {
    List(models.indices, id: \.self) { index in BenchStateRow(model: models[index]) }
  }
}

/// A list whose parent reads `header`: a change to it re-evaluates the parent, and each row is
/// compared with its previous value (``BenchLabeledRow``s memberwise, and found equal;
/// ``BenchStateRow``s field by field, their `@State` handle being new in every value).
struct BenchHeaderList<Row: View>: View {
  let header: BenchRowModel
  let models: [BenchRowModel]
  let row: (BenchRowModel, Int) -> Row
  var body: some View {
    VStack {
      Text("header \(header.value)")
      List(models.indices, id: \.self) { index in row(models[index], index) }
    }
  }
}

/// A row holding a model reference and plain values, not `Equatable` itself.
struct BenchLabeledRow: View {
  let model: BenchRowModel
  let title: String
  let index: Int
  var body: some View { Text("\(title) \(index) \(model.value)") }
}

/// A row holding a binding to its parent's state: its value's bits differ in every parent
/// evaluation (a binding holds closures), so it is compared field by field, and found equal
/// (the binding projects the same state).
struct BenchBindingRow: View {
  let model: BenchRowModel
  @Binding var isOn: Bool
  var body: some View { Text("row \(model.value) \(isOn)") }
}

/// ``BenchHeaderList`` whose rows bind to the list's own `@State`.
struct BenchBindingList: View {
  let header: BenchRowModel
  let models: [BenchRowModel]
  @State private var isOn = false
  var body: some View {
    VStack {
      Text("header \(header.value)")
      List(models.indices, id: \.self) { index in
        BenchBindingRow(model: models[index], isOn: $isOn)
      }
    }
  }
}

/// A model value that is not `Equatable`: a row holding one is compared field by field, and
/// the value itself by the general rules.
struct BenchItem {
  let title: String
  let count: Int
  let model: BenchRowModel
}

/// A row holding a ``BenchItem`` built anew in every parent evaluation (equal, but with other
/// string storage: `title` is too long to be stored inline).
struct BenchItemRow: View {
  let item: BenchItem
  var body: some View { Text("\(item.title) \(item.model.value)") }
}
