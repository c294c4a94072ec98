import ReactiveStateMacrosFree
import Testing

/// Counts the runs of a derivation (kept outside the model: a derivation does not write to
/// its model).
final class DerivationRuns {
  var count = 0
}

/// Seed 001 §10.2: an expensive derivation is cached by the model, keyed by what it read
/// (the query and the titles), and rebuilt from them — never a second source of truth.
@MainActor final class LibrarySearchModel: TrackedObservable {
  let observationRegistrar = ObservationRegistrar()
  @Tracked var query = ""
  @Tracked var titles: [String]
  @Tracked var selection: String?
  let filterRuns = DerivationRuns()
  init(titles: [String]) { self.titles = titles }
  @Derived({ (model: LibrarySearchModel) in
    model.filterRuns.count += 1
    let query = model.query
    return query.isEmpty ? model.titles : model.titles.filter { $0.contains(query) }
  })
  var matches: [String]
}

/// A view over the cached derivation, and a sibling that reads only the selection.
@MainActor
@Suite struct ViewGraphDerivedStateTests {
  struct MatchesView: View {
    let model: LibrarySearchModel
    var body: some View {
      Text("\(model.matches.count) matches, first \(model.matches.first ?? "-")")
    }
  }

  struct SelectionView: View {
    let model: LibrarySearchModel
    var body: some View { Text("selected \(model.selection ?? "none")") }
  }

  struct LibraryView: View {
    let model: LibrarySearchModel
    var body: some View {
      VStack {
        MatchesView(model: model)
        SelectionView(model: model)
      }
    }
  }

  @Test func anExpensiveDerivationRunsOnlyWhenWhatItReadChanges() {
    let model = LibrarySearchModel(titles: (0..<5_000).map { "book \($0)" })
    let host = ViewHost(LibraryView(model: model))
    #expect(host.texts == ["5000 matches, first book 0", "selected none"])
    #expect(model.filterRuns.count == 1)

    host.perform { model.selection = "book 7" }
    #expect(host.texts.last == "selected book 7")
    #expect(model.filterRuns.count == 1, "not an input: nothing recomputed")
    #expect(host.bodyCount(MatchesView.self) == 1)

    host.perform { model.query = "book 42" }
    #expect(host.texts.first == "111 matches, first book 42")
    #expect(model.filterRuns.count == 2)
    #expect(host.bodyCount(MatchesView.self) == 2)

    host.perform { model.titles.append("atlas") }
    #expect(model.filterRuns.count == 3, "an input changed: recomputed once")
    #expect(
      host.bodyCount(MatchesView.self) == 2,
      "the same matches: the view reading them is not re-evaluated")
    #expect(host.bodyCount(LibraryView.self) == 1)
  }
}
