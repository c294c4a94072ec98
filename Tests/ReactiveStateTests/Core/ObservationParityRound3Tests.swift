@_spi(SwiftUI) import Observation
import ReactiveState
import Testing

/// A hand-written model on the toolchain's registrar (the oracle), with its storage and
/// registrar reachable so a test can make a write by hand.
final class ParityRound3Oracle: Observation.Observable, @unchecked Sendable {
  let registrar = Observation.ObservationRegistrar()
  var storedA = 0
  var storedB = 0
  var a: Int {
    get {
      registrar.access(self, keyPath: \.a)
      return storedA
    }
    set { registrar.withMutation(of: self, keyPath: \.a) { storedA = newValue } }
  }
  var b: Int {
    get {
      registrar.access(self, keyPath: \.b)
      return storedB
    }
    set { registrar.withMutation(of: self, keyPath: \.b) { storedB = newValue } }
  }
}

/// The same model on ReactiveState's registrar.
final class ParityRound3Model: ReactiveState.Observable, @unchecked Sendable {
  let registrar = ReactiveState.ObservationRegistrar()
  var storedA = 0
  var storedB = 0
  var a: Int {
    get {
      registrar.access(self, keyPath: \.a)
      return storedA
    }
    set { registrar.withMutation(of: self, keyPath: \.a) { storedA = newValue } }
  }
  var b: Int {
    get {
      registrar.access(self, keyPath: \.b)
      return storedB
    }
    set { registrar.withMutation(of: self, keyPath: \.b) { storedB = newValue } }
  }
}

/// Observation parity found in review I: scenarios run against the toolchain's Observation
/// (the oracle) and ReactiveState, expecting the same outcome.
@Suite struct ObservationParityRound3Tests {
  /// A write made inside `apply` never fires that `apply`'s own `onChange` (the registration
  /// is not installed yet), also when it is made inside a nested tracking that runs in
  /// `withoutObservationTracking`: suspending reads does not make a write someone else's.
  @Test func aWriteInATrackingNestedInUntrackedCodeIsStillTheOuterScopesOwn() {
    let fired = Box([0, 0])
    let theirs = ParityRound3Oracle()
    // Observation has no `withoutObservationTracking`: the oracle nests the tracking directly.
    Observation.withObservationTracking {
      _ = theirs.a
      Observation.withObservationTracking(
        {
          _ = theirs.b
          theirs.a = 5
        }, onChange: {})
    } onChange: {
      fired.value[0] += 1
    }
    let ours = ParityRound3Model()
    ReactiveState.withObservationTracking {
      _ = ours.a
      withoutObservationTracking {
        withoutObservationTracking {
          ReactiveState.withObservationTracking(
            {
              _ = ours.b
              ours.a = 5
            }, onChange: {})
        }
        ReactiveState.withObservationTracking(
          {
            _ = ours.b
            withoutObservationTracking { ours.a = 6 }
          }, onChange: {})
      }
    } onChange: {
      fired.value[1] += 1
    }
    #expect(fired.value == [0, 0])
    theirs.a = 7
    ours.a = 7
    #expect(fired.value == [1, 1])
  }

  /// The plain `withMutation(of:keyPath:_:)` (no `replacing:with:`) notifies even when the
  /// write stores an equal value, or nothing: the oracle for `DocumentedClaimsTests`'
  /// "withMutation(of:keyPath:_:) always notifies, as in Observation".
  @Test func plainWithMutationNotifiesWithoutAChange() {
    let fired = Box([0, 0])
    let theirs = ParityRound3Oracle()
    let ours = ParityRound3Model()
    Observation.withObservationTracking({ _ = theirs.a }, onChange: { fired.value[0] += 1 })
    ReactiveState.withObservationTracking({ _ = ours.a }, onChange: { fired.value[1] += 1 })
    theirs.a = 0
    ours.a = 0
    #expect(fired.value == [1, 1], "an equal value")
    Observation.withObservationTracking({ _ = theirs.a }, onChange: { fired.value[0] += 1 })
    ReactiveState.withObservationTracking({ _ = ours.a }, onChange: { fired.value[1] += 1 })
    theirs.registrar.withMutation(of: theirs, keyPath: \.a) {}
    ours.registrar.withMutation(of: ours, keyPath: \.a) {}
    #expect(fired.value == [2, 2], "no store at all")
  }

  static let optionSets: [ReactiveState.ObservationTracking.Options] = [
    .willSet, .didSet, [.willSet, .didSet],
  ]

  /// The oracle for the options form: the toolchain's willSet/didSet tracking, ended after
  /// the last requested event of a mutation.
  static func armTheirs(
    _ model: ParityRound3Oracle, _ options: ReactiveState.ObservationTracking.Options,
    _ log: Box<[String]>
  ) {
    switch (options.contains(.willSet), options.contains(.didSet)) {
    case (true, true):
      _ = Observation.withObservationTracking {
        _ = model.a
      } willSet: { _ in
        log.value.append("willSet")
      } didSet: { tracking in
        log.value.append("didSet")
        tracking.cancel()
      }
    case (true, false):
      _ = Observation.withObservationTracking {
        _ = model.a
      } willSet: { tracking in
        log.value.append("willSet")
        tracking.cancel()
      }
    default:
      _ = Observation.withObservationTracking {
        _ = model.a
      } didSet: { tracking in
        log.value.append("didSet")
        tracking.cancel()
      }
    }
  }

  static func armOurs(
    _ model: ParityRound3Model, _ options: ReactiveState.ObservationTracking.Options,
    _ log: Box<[String]>
  ) {
    ReactiveState.withObservationTracking(options: options) {
      _ = model.a
    } onChange: { event in
      log.value.append(event.kind == .willSet ? "willSet" : "didSet")
    }
  }

  /// A registration armed inside the mutation of a write of what it reads (a `didSet` on the
  /// backing storage, say) hears that write's `didSet` but not its `willSet`, which came
  /// before it: the toolchain's registrar delivers the `didSet` of a write to a registration
  /// installed during it. `announced`: someone else listens to `willSet` of the property, so
  /// ReactiveState announces the write at its start; else only at its end.
  @Test(arguments: optionSets, [false, true])
  func aRegistrationArmedDuringAWriteHearsOnlyItsDidSet(
    options: ReactiveState.ObservationTracking.Options, announced: Bool
  ) {
    let theirsLog = Box<[String]>([])
    let oursLog = Box<[String]>([])
    let theirs = ParityRound3Oracle()
    let ours = ParityRound3Model()
    Observation.withObservationTracking({ _ = theirs.a }, onChange: {})
    ReactiveState.withObservationTracking({ _ = ours.a }, onChange: {})
    if !announced {
      // The one-shots fire and go: the properties keep their slots, without listeners.
      theirs.a = 0
      ours.a = 0
    }
    theirs.registrar.withMutation(of: theirs, keyPath: \.a) {
      theirs.storedA = 1
      Self.armTheirs(theirs, options, theirsLog)
    }
    ours.registrar.withMutation(of: ours, keyPath: \.a) {
      ours.storedA = 1
      Self.armOurs(ours, options, oursLog)
    }
    #expect(oursLog.value == theirsLog.value, "the write it was armed in")
    theirs.a = 2
    ours.a = 2
    #expect(oursLog.value == theirsLog.value, "the next write")
  }

  /// The same between an explicit `willSet` and `didSet`.
  @Test func aDidSetRegistrationArmedBetweenExplicitAnnouncementsHearsThatDidSet() {
    let theirsLog = Box<[String]>([])
    let oursLog = Box<[String]>([])
    let theirs = ParityRound3Oracle()
    let ours = ParityRound3Model()
    ReactiveState.withObservationTracking({ _ = ours.b }, onChange: {})
    theirs.registrar.willSet(theirs, keyPath: \.a)
    Self.armTheirs(theirs, .didSet, theirsLog)
    theirs.storedA = 1
    theirs.registrar.didSet(theirs, keyPath: \.a)
    ours.registrar.willSet(ours, keyPath: \.a)
    Self.armOurs(ours, .didSet, oursLog)
    ours.storedA = 1
    ours.registrar.didSet(ours, keyPath: \.a)
    #expect(theirsLog.value == ["didSet"])
    #expect(oursLog.value == theirsLog.value)
  }

  /// A deliberate difference: a write made while the `onChange` autoclosure is evaluated,
  /// after `apply`, of a property `apply` read. The toolchain installs after that evaluation
  /// and never hears of it (the change is lost); ReactiveState sees the version moved since
  /// the read and fires once, as for any write between a read and the installation (the
  /// first row of the README's table of deliberate differences).
  @Test func aWriteWhileTheOnChangeExpressionIsEvaluated() {
    let fired = Box([0, 0])
    let theirs = ParityRound3Oracle()
    func theirHandler() -> @Sendable () -> Void {
      theirs.a = 9
      return { fired.value[0] += 1 }
    }
    Observation.withObservationTracking({ _ = theirs.a }, onChange: theirHandler())
    let ours = ParityRound3Model()
    func ourHandler() -> @Sendable () -> Void {
      ours.a = 9
      return { fired.value[1] += 1 }
    }
    ReactiveState.withObservationTracking({ _ = ours.a }, onChange: ourHandler())
    #expect(fired.value == [0, 1])
  }
}
