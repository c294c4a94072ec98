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

/// A list whose parent reads `header`: a change to it re-evaluates the parent, and each row,
/// not `Equatable`, is compared memberwise to its previous value (and found equal).
struct BenchHeaderList: View {
  let header: BenchRowModel
  let models: [BenchRowModel]
  var body: some View {
    VStack {
      Text("header \(header.value)")
      List(models.indices, id: \.self) { index in
        BenchLabeledRow(model: models[index], title: "row", index: index)
      }
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

/// As ``BenchHeaderList``, with ``BenchStateRow``s: a `@State` property's storage handle is new
/// in every value, so rows are compared field by field.
struct BenchHeaderStateList: View {
  let header: BenchRowModel
  let models: [BenchRowModel]
  var body: some View {
    VStack {
      Text("header \(header.value)")
      List(models.indices, id: \.self) { index in BenchStateRow(model: models[index]) }
    }
  }
}
