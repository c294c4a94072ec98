import ReactiveStateMacrosFree
import Testing

/// A binding made from `$model.property` carries the value it read when it was made, as
/// SwiftUI's does: a child handed a binding whose value changed is re-evaluated even when the
/// property is not observed (an `@ObservationIgnored` one), and a binding with the same source
/// and an equal value still lets the host skip the child.
@MainActor
@Suite struct BindingSnapshotTests {
  /// `note` is not observed (as `@ObservationIgnored` in macro code); `revision` is.
  final class NoteModel: TrackedObservable {
    let observationRegistrar = ObservationRegistrar()
    var note = "old"
    @Tracked var revision = 0
  }

  struct NoteRow: View {
    @Binding var text: String
    var body: some View { Text("note \(text)") }
  }

  struct NoteParent: View {
    @Bindable var model: NoteModel
    var body: some View {
      Text("rev \(model.revision)")
      NoteRow(text: $model.note)
      TextField("Note", text: $model.note)
    }
  }

  @Test func aChildHandedABindingWhoseValueChangedIsReevaluated() {
    let model = NoteModel()
    let host = ViewHost(NoteParent(model: model))
    model.note = "new"
    model.revision += 1  // the parent re-evaluates and hands out bindings that read "new"
    host.flush()
    #expect(host.texts.contains("rev 1"))
    #expect(host.texts.contains("note new"))
    #expect(host.render().contains("text=\"new\""))
  }

  @Test func aChildHandedABindingWithAnEqualValueIsSkipped() {
    let model = NoteModel()
    let host = ViewHost(NoteParent(model: model))
    host.resetCounts()
    model.revision += 1
    host.flush()
    #expect(host.bodyCount(NoteParent.self) == 1)
    #expect(host.bodyCount(NoteRow.self) == 0, "same source, same value: skipped")
  }

  /// Taking the snapshot is not a read of the parent's: passing `$model.a` of an observed
  /// property does not make the parent depend on it.
  @Test func takingTheSnapshotDoesNotMakeTheParentDepend() {
    let model = Triple()
    let host = ViewHost(ValueParent(model: model))
    host.resetCounts()
    model.a = 2
    host.flush()
    #expect(host.bodyCount(ValueParent.self) == 0)
    #expect(host.bodyCount(ValueRow.self) == 1)
    #expect(host.texts.contains("value 2"))
  }

  struct ValueRow: View {
    @Binding var value: Int
    var body: some View { Text("value \(value)") }
  }

  struct ValueParent: View {
    @Bindable var model: Triple
    var body: some View { ValueRow(value: $model.a) }
  }
}
