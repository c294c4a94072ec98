import Foundation
import ReactiveState
import ReactiveStateMacrosFree
import Testing

/// `apply` writes a property it read, and another write of it lands while that write is being
/// delivered (after its version move, before `apply` returns). An `observe` run, which the
/// write delivers synchronously on `apply`'s thread, stands in for that moment. Another
/// thread's write there is a change `apply` did not make: the one-shot fires right after
/// `apply` (README, "Deliberate differences", first row). A write of `apply`'s own thread
/// there (nested in the delivery) is `apply`'s own, like the write around it: nothing fires.
@Suite struct ApplysOwnWriteRaceTests {
  /// How `apply` writes the property it read.
  enum OwnWrite: CaseIterable, Sendable {
    /// `withMutation`, nobody listening to `willSet`: one version move, after the store.
    case assignment
    /// `withMutation` with a `willSet` listener: a version move before and after the store.
    case announcedAssignment
    /// `+= 1` through the hand-written `_modify` (a `willSet`/`didSet` pair).
    case inPlace
    /// `@Tracked` assignment and `+= 1` (the property token's write and `_modify` paths).
    case trackedAssignment
    case trackedInPlace

    func makeModel() -> any ScriptModel {
      switch self {
      case .assignment, .announcedAssignment, .inPlace: HandModel()
      case .trackedAssignment, .trackedInPlace: TrackedScriptModel()
      }
    }

    /// `apply`: reads `a`, then writes `a + 1`.
    func apply(_ model: any ScriptModel) {
      switch self {
      case .assignment, .announcedAssignment, .trackedAssignment:
        let read = model.a
        model.a = read + 1
      case .inPlace, .trackedInPlace:
        _ = model.a
        model.a += 1
      }
    }

    /// A `willSet` listener of `a` for the form that needs one (nil otherwise).
    func listenToWillSet(_ model: any ScriptModel) -> ObservationToken? {
      guard self == .announcedAssignment else { return nil }
      return withContinuousObservation(options: .willSet) { _ in _ = model.a }
    }
  }

  /// The bug: `apply`'s own write was noted with the version loaded after its delivery, so a
  /// write another thread made during that delivery counted as `apply`'s own.
  @Test(arguments: OwnWrite.allCases)
  func anotherThreadsWriteDuringApplysOwnWriteIsNotMasked(write: OwnWrite) {
    let model = write.makeModel()
    let willSetListener = write.listenToWillSet(model)
    let once = LockedBox(true)
    let racer = observe {
      if model.a == 1 && once.value {
        once.value = false
        onAnotherThread { model.a = 99 }
      }
    }
    let fired = LockedBox(0)
    withObservationTracking {
      write.apply(model)
    } onChange: {
      fired.value += 1
    }
    #expect(once.value == false, "the other thread wrote during apply's write")
    #expect(model.a == 99)
    #expect(fired.value == 1, "apply saw 0 and wrote 1; the 99 is not its own")
    model.a = 100
    #expect(fired.value == 1, "one-shot")
    racer.cancel()
    willSetListener?.cancel()
  }

  /// The same moment, but the write nested in the delivery is made by `apply`'s thread: it is
  /// `apply`'s own (noted after the write around it, whose version it moves past).
  @Test(arguments: OwnWrite.allCases)
  func applysThreadsWriteNestedInItsOwnWriteIsItsOwn(write: OwnWrite) {
    let model = write.makeModel()
    let willSetListener = write.listenToWillSet(model)
    let once = LockedBox(true)
    let nested = observe {
      if model.a == 1 && once.value {
        once.value = false
        model.a = 5
      }
    }
    let fired = LockedBox(0)
    withObservationTracking {
      write.apply(model)
    } onChange: {
      fired.value += 1
    }
    #expect(once.value == false, "the nested write ran")
    #expect(model.a == 5)
    #expect(fired.value == 0, "every write since apply's read was apply's thread's own")
    model.a = 6
    #expect(fired.value == 1, "the next write fires it")
    nested.cancel()
    willSetListener?.cancel()
  }
}

/// ``ScriptModel`` with `@Tracked` storage.
private final class TrackedScriptModel: TrackedObservable, ScriptModel, @unchecked Sendable {
  let observationRegistrar = ReactiveState.ObservationRegistrar()
  @Tracked var a = 0
  @Tracked var b = 0
  @Tracked var c = 0
  var ignored = 0
  var sum: Int { a + b }
}
