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
