import Dispatch
import ReactiveState
import ReactiveStateMacrosFree
import Testing

/// ``NestedReleasedWhileComputingModel`` whose `outer` reads `subtotal` without tracking it:
/// inside `withoutObservationTracking`, or inside a one-shot registration made there
/// (`throughOneShot`). `subtotal`'s computations hold the model, `outer`'s do not.
final class UntrackedNestedReleasedModel: @unchecked Sendable {
  let source: HandModel
  let hooks: GateHooks
  let subtotalComputations = AtomicCounter()
  private(set) var outer: Computed<Int>!
  init(source: HandModel, hooks: GateHooks, throughOneShot: Bool) {
    self.source = source
    self.hooks = hooks
    let subtotal = $subtotal
    outer = Computed("outer") {
      let read = withoutObservationTracking {
        throughOneShot
          ? ReactiveState.withObservationTracking({ subtotal.value }, onChange: {})
          : subtotal.value
      }
      return source.b + read + 1
    }
  }
  @Derived({ (model: UntrackedNestedReleasedModel) in
    model.subtotalComputations.increment()
    if model.subtotalComputations.value > 1 { model.hooks.computing() }
    return model.source.a * 2
  })
  var subtotal: Int
}

/// Review round 28 of the derived values: each test failed before its fix.
@Suite struct ReviewRound28DerivedTests {
  /// The model's last reference goes while another thread computes `subtotal` for `outer`,
  /// which reads it untracked. The computation's hold on the model must outlast `outer`'s
  /// lock too (the model's deinitialiser frees `outer`, taking its lock): the untracked read
  /// used to cut the chain of enclosing computations, so the model was freed under `outer`'s
  /// lock, inside `outer`'s own derivation, and the write never finished.
  @Test(arguments: [false, true])
  func aModelReleasedDuringAnUntrackedNestedComputationIsFreedAfterTheOutermostOne(
    throughOneShot: Bool
  ) {
    let source = HandModel()
    let paused = PausedComputation()
    var model: UntrackedNestedReleasedModel? = UntrackedNestedReleasedModel(
      source: source, hooks: paused.hooks, throughOneShot: throughOneShot)
    paused.expectReleaseMidComputationFreesTheModel(&model, source: source) { $0?.outer.value }
  }

  /// `inner` reads `outer` while `outer` is being computed (a cycle: the read fails), then
  /// `outer` stops reading `inner`. `inner`'s outcome came from that failed read, so it must
  /// not stay cached once `outer` changes: it used to keep -1 until `model.a` changed.
  @Test(arguments: [false, true])
  func aValueThatReadAnotherInACycleRecomputesWhenTheCycleIsBroken(observed: Bool) {
    let model = HandModel()
    let holder = Box<Computed<Int>?>(nil)
    let inner = Computed("round28-inner") { () -> Int in
      model.a == 0 ? model.b : (try? holder.value!.get()) ?? -1
    }
    let outer = Computed("round28-outer") { model.c == 0 ? inner.value + 1 : 100 }
    holder.value = outer
    let seen = Box<[Int]>([])
    let token = observed ? observe { seen.value.append(outer.value) } : nil
    #expect(outer.value == 1)
    let reported = ObservationDiagnostics.capture {
      model.a = 1
      #expect(outer.value == 0, "inner's read of outer fails, so inner is -1")
    }
    #expect(reported.contains { $0.message.contains("round28-outer") })
    model.c = 1
    #expect(outer.value == 100)
    #expect(inner.value == 100, "inner reads outer, which no longer reads it")
    if observed { #expect(seen.value == [1, 0, 100]) }
    withExtendedLifetime(token) {}
  }

  /// `x` read `y` (`y` then read nothing derived), then `y` read `x` (the read that closed
  /// the cycle failed during `x`'s check, reported): each lists the other as an input.
  /// Subscribing to `x` then subscribes its unlinked inputs depth-first — `y`, then `y`'s
  /// input `x`, whose lock this thread holds: it used to wait for it forever.
  @Test func subscribingToTwoValuesThatReadEachOtherFinishesAndHearsLaterChanges() {
    let model = HandModel()
    let holder = LockedBox<Computed<Int>?>(nil)
    let x = Computed("round28-x") { model.a == 1 ? ((try? holder.value!.get()) ?? -1) + 1 : 0 }
    let y = Computed("round28-y") { model.b == 1 ? ((try? x.get()) ?? -100) + 10 : 5 }
    holder.value = y
    model.a = 1
    #expect(x.value == 6)
    model.b = 1
    let reported = ObservationDiagnostics.capture { #expect(y.value == 16) }
    #expect(reported.contains { $0.message.contains("round28-y") })
    let subscribed = DispatchSemaphore(value: 0)
    let seen = LockedBox<[Int]>([])
    let token = LockedBox<ObservationToken?>(nil)
    DispatchQueue.global().async {
      _ = ObservationDiagnostics.capture {
        token.value = observe { seen.value.append(x.value) }
      }
      subscribed.signal()
    }
    #expect(subscribed.wait(timeout: .now() + 10) == .success, "subscribing finished")
    _ = ObservationDiagnostics.capture { model.a = 0 }
    #expect(seen.value.last == 0, "the observer heard of the change")
    token.value?.cancel()
  }
}
