import Foundation
import Observation
import ReactiveState
import Testing

/// The options form of `withObservationTracking` armed, on the writing thread, inside the
/// mutation of a write of a property it reads — after the store, where the macro moves a
/// property's `didSet`. That write's `willSet` came before the registration, so (as the
/// toolchain's registrar does for its `willSet`-semantic one-shot, the oracle here) it must
/// not hear a `.willSet` for it: it waits for the next write. In ReactiveState the outcome
/// used to depend on whether anyone else listened to `willSet` of the property when the write
/// began: if not, the write announced itself only at its end, and that late `willSet` reached
/// the registration armed during it.
@Suite struct OptionsFormInsideUnannouncedWriteTests {
  /// The toolchain's one-shot armed at the same place: how many writes it fired for, after
  /// the write it was armed in and after the next one.
  private func oracleFirings() -> (afterArmingWrite: Int, afterNextWrite: Int) {
    let model = OracleDeferralModel()
    let fired = Box(0)
    model.onStoredX = {
      model.onStoredX = nil
      Observation.withObservationTracking({ _ = model.x }, onChange: { fired.value += 1 })
    }
    model.x = 1
    let afterArmingWrite = fired.value
    model.x = 2
    return (afterArmingWrite, fired.value)
  }

  /// `announced`: another registration listens to `willSet` of `x` when the write begins,
  /// so the write announces itself before its mutation (else only at its end).
  @Test(arguments: [false, true])
  func aWillSetRegistrationArmedInsideTheWriteWaitsForTheNextWrite(announced: Bool) {
    let oracle = oracleFirings()
    let model = HandDeferralModel()
    // Observed once, so the property has a slot (as in an app).
    ReactiveState.withObservationTracking({ _ = model.x }, onChange: {})
    model.x = 0
    if announced { ReactiveState.withObservationTracking({ _ = model.x }, onChange: {}) }
    let events = Box<[ReactiveState.ObservationTracking.Event.Kind]>([])
    model.onStoredX = {
      model.onStoredX = nil
      ReactiveState.withObservationTracking(options: [.willSet]) {
        _ = model.x
      } onChange: { event in
        events.value.append(event.kind)
      }
    }
    model.x = 1
    #expect(oracle.afterArmingWrite == 0)
    #expect(
      events.value.count == oracle.afterArmingWrite,
      "announced: \(announced): heard \(events.value) for the write it was armed in")
    model.x = 2
    #expect(oracle.afterNextWrite == 1)
    #expect(events.value == [.willSet], "announced: \(announced)")
  }

  /// The same armed directly inside `withMutation` (before any store), next to a plain
  /// one-shot armed there, on the plain and on a main-thread-confined registrar (the
  /// ``MainActorObservationRegistrar`` one): both wait for the next write.
  @Test(arguments: [false, true])
  func aWillSetRegistrationArmedInsideWithMutationFiresAsThePlainForm(confined: Bool) {
    actingAsMainThread {
      let model = HandModel(confinedToMainThread: confined)
      ReactiveState.withObservationTracking({ _ = model.a }, onChange: {})
      model.a = 5
      let plain = Box(0)
      let events = Box(0)
      model.registrar.withMutation(of: model, keyPath: \.a) {
        ReactiveState.withObservationTracking({ _ = model.a }, onChange: { plain.value += 1 })
        ReactiveState.withObservationTracking(options: [.willSet]) {
          _ = model.a
        } onChange: { _ in
          events.value += 1
        }
      }
      #expect(plain.value == 0)
      #expect(events.value == plain.value, "confined: \(confined)")
      model.a = 6
      #expect(plain.value == 1)
      #expect(events.value == plain.value, "confined: \(confined)")
    }
  }
}
