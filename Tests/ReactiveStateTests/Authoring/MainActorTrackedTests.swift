import ReactiveStateMacrosFree
import Testing

/// A main-actor model written with `@Tracked` over a `MainActorObservationRegistrar`.
@MainActor private final class TrackedScreen: MainActorTrackedObservable {
  let observationRegistrar = MainActorObservationRegistrar()
  @Tracked var title = ""
  @Tracked var count = 0
}

/// The same model over the plain registrar, as `TrackedObservable` requires.
@MainActor private final class PlainTrackedScreen: TrackedObservable {
  let observationRegistrar = ObservationRegistrar()
  @Tracked var count = 0
}

/// `@Tracked` in a `MainActorTrackedObservable` class: the same behaviour as over the plain
/// registrar, and its writes take the main-actor registrar's confined path on the thread that
/// owns it.
@Suite struct MainActorTrackedTests {
  /// One-shot (re-armed), continuous and derived observation and the equality rule, as for a
  /// hand-written main-actor model; an in-place mutation notifies once.
  @MainActor @Test func behavesLikeAnyTrackedModel() {
    let model = TrackedScreen()
    expectObservedLikeAnyModel(count: { model.count }, setCount: { model.count = $0 })
    let runs = Box<[String]>([])
    let token = observe {
      MainActor.assumeIsolated { runs.value.append("\(model.title) \(model.count)") }
    }
    model.count += 1
    model.title = "a"
    #expect(runs.value == [" 5", " 6", "a 6"])
    token.cancel()
  }

  /// On the thread that owns confined properties, a write moves the version with plain
  /// stores: the main-actor registrar is the one in use. The plain registrar's model, and the
  /// same model written as another thread, use the atomic protocol.
  @MainActor @Test(.enabled(if: mainThreadConfinementIsAvailable))
  func writesOnTheOwnerThreadTakeTheConfinedPath() {
    let model = TrackedScreen()
    let plain = PlainTrackedScreen()
    let token = observe { @MainActor in _ = (model.count, model.title, plain.count) }
    model.title = "off the owner thread"
    actingAsMainThread {
      model.count = 1
      plain.count = 1
    }
    #expect(hadPlainWrite(model.observationRegistrar.confinedRegistrar, \TrackedScreen.count))
    #expect(!hadPlainWrite(model.observationRegistrar.confinedRegistrar, \TrackedScreen.title))
    #expect(!hadPlainWrite(plain.observationRegistrar, \PlainTrackedScreen.count))
    token.cancel()
  }
}
