import Foundation
import Observation
import ReactiveState
import Testing

/// Observation parity, round 2: scenarios run against the toolchain's Observation (the oracle)
/// and ReactiveState, expecting the same outcome.
@Suite struct ObservationParityRound2Tests {
  /// Inside one `apply`, a temporary observable object is read and deallocated, then another
  /// object of the same class is read. The allocator usually hands the second object (and its
  /// registrar storage) the first one's addresses. The second read must still be recorded:
  /// changing it fires `onChange`, as with Observation.
  @Test(arguments: Engine.allCases)
  func readOfAnObjectAllocatedWhereADeallocatedOneWasIsTracked(engine: Engine) {
    let iterations = 20
    let fired = Box(0)
    var survivors: [any ScriptModel] = []
    for _ in 0..<iterations {
      let survivor: any ScriptModel = engine.track(
        {
          do {
            let temporary = engine.makeModel()
            _ = temporary.a
          }
          let survivor = engine.makeModel()
          _ = survivor.a
          return survivor
        }, onChange: { fired.value += 1 })
      survivors.append(survivor)
      survivor.a = 1
    }
    #expect(fired.value == iterations)
  }

  /// The same for a continuous observer: its run reads a temporary object, then a survivor
  /// of the same class; a later change of the survivor must re-run it.
  @Test func continuousObserverTracksAReadOfAnObjectAllocatedWhereADeallocatedOneWas() {
    let iterations = 20
    let runs = Box(0)
    var tokens: [ObservationToken] = []
    var survivors: [HandModel] = []
    for _ in 0..<iterations {
      let survivor = Box<HandModel?>(nil)
      let token = observe {
        do {
          let temporary = HandModel()
          _ = temporary.a
        }
        if survivor.value == nil { survivor.value = HandModel() }
        _ = survivor.value!.a
        runs.value += 1
      }
      tokens.append(token)
      survivors.append(survivor.value!)
    }
    #expect(runs.value == iterations)
    for survivor in survivors { survivor.a = 1 }
    #expect(runs.value == 2 * iterations)
  }
}

/// The macro's expansion written by hand, for either engine, with a user `didSet` on the
/// backing storage (where the macro moves a property's `didSet`): it runs inside the
/// registrar's mutation, after the store.
final class OracleDidSetModel: Observation.Observable, @unchecked Sendable {
  private let registrar = Observation.ObservationRegistrar()
  var onStored: (@Sendable () -> Void)?
  private var _value = 0 { didSet { onStored?() } }
  var value: Int {
    get {
      registrar.access(self, keyPath: \.value)
      return _value
    }
    set { registrar.withMutation(of: self, keyPath: \.value) { _value = newValue } }
  }
}

final class HandDidSetModel: ReactiveState.Observable, @unchecked Sendable {
  private let registrar = ReactiveState.ObservationRegistrar()
  var onStored: (@Sendable () -> Void)?
  private var _value = 0 { didSet { onStored?() } }
  var value: Int {
    get {
      registrar.access(self, keyPath: \.value)
      return _value
    }
    set { registrar.withMutation(of: self, keyPath: \.value) { _value = newValue } }
  }
}

extension ObservationParityRound2Tests {
  /// A one-shot armed from a property's `didSet` (inside the write, after the store) reads
  /// the new value: the write it is armed in is not a change it missed. Observation fires it
  /// at the next write only; so must ReactiveState.
  @Test(arguments: Engine.allCases)
  func oneShotArmedInsideAWriteAfterTheStoreWaitsForTheNextWrite(engine: Engine) {
    let seen = Box<[Int]>([])
    let fired = Box<[Int]>([])
    switch engine {
    case .observation:
      let model = OracleDidSetModel()
      model.onStored = {
        Observation.withObservationTracking {
          seen.value.append(model.value)
        } onChange: {
          fired.value.append(model.value)
        }
      }
      model.value = 1
      #expect(fired.value == [], "\(engine): fired during the write that armed it")
      model.value = 2
    case .reactiveState:
      let model = HandDidSetModel()
      // The model was observed once before (its properties have slots), as in an app.
      ReactiveState.withObservationTracking({ _ = model.value }, onChange: {})
      model.value = 0
      model.onStored = {
        ReactiveState.withObservationTracking {
          seen.value.append(model.value)
        } onChange: {
          fired.value.append(model.value)
        }
      }
      model.value = 1
      #expect(fired.value == [], "\(engine): fired during the write that armed it")
      model.value = 2
    }
    // The registration armed after `value = 1` fires at `value = 2`, before the store.
    #expect(fired.value == [1], "\(engine)")
  }
}

/// SE-0506 declares the options form of `withObservationTracking` with a typed-throwing
/// `apply` (`() throws(Failure) -> Result`, rethrown as `throws(Failure)`). Code written
/// against that signature must compile here too.
struct OptionsFormLoadError: Error, Equatable {}

extension ObservationParityRound2Tests {
  @Test func optionsFormAcceptsATypedThrowingApply() {
    let model = HandModel()
    let kinds = Box<[ObservationTracking.Event.Kind]>([])
    func load() throws(OptionsFormLoadError) -> Int {
      if model.b > 0 { throw OptionsFormLoadError() }
      return model.a
    }
    let value = try? ReactiveState.withObservationTracking(options: [.willSet]) {
      () throws(OptionsFormLoadError) -> Int in
      try load()
    } onChange: { event in
      kinds.value.append(event.kind)
    }
    #expect(value == 0)
    model.b = 1
    #expect(kinds.value == [.willSet])
    // A throwing apply rethrows its error (typed), after tracking what it read.
    #expect(throws: OptionsFormLoadError()) {
      try ReactiveState.withObservationTracking(options: [.didSet]) {
        () throws(OptionsFormLoadError) -> Int in
        try load()
      } onChange: { event in
        kinds.value.append(event.kind)
      }
    }
    model.b = 2
    #expect(kinds.value == [.willSet, .didSet])
  }
}
