import Observation
import ReactiveState
import Testing

/// Identity of an observed property is (registrar, key-path value), as in Observation
/// (`swift-observation.md` §3.1 item 3): each case runs against both engines.
@Suite struct RegistrarIdentityTests {
  final class SharedOurs: ReactiveState.Observable, @unchecked Sendable {
    static let registrar = ReactiveState.ObservationRegistrar()
    private var _x = 0
    var x: Int {
      get {
        Self.registrar.access(self, keyPath: \.x)
        return _x
      }
      set { Self.registrar.withMutation(of: self, keyPath: \.x) { _x = newValue } }
    }
  }

  final class SharedTheirs: Observation.Observable, @unchecked Sendable {
    static let registrar = Observation.ObservationRegistrar()
    private var _x = 0
    var x: Int {
      get {
        Self.registrar.access(self, keyPath: \.x)
        return _x
      }
      set { Self.registrar.withMutation(of: self, keyPath: \.x) { _x = newValue } }
    }
  }

  @Test func aSharedRegistrarConflatesItsObjects() {
    let fired = Box([0, 0])
    let (a, b) = (SharedOurs(), SharedOurs())
    ReactiveState.withObservationTracking({ _ = a.x }, onChange: { fired.value[0] += 1 })
    b.x = 1
    let (c, d) = (SharedTheirs(), SharedTheirs())
    Observation.withObservationTracking({ _ = c.x }, onChange: { fired.value[1] += 1 })
    d.x = 1
    #expect(fired.value == [1, 1], "the subject is ignored; the registrar is the identity")
  }

  final class Spelled: ReactiveState.Observable, @unchecked Sendable {
    private let registrar = ReactiveState.ObservationRegistrar()
    private var _y = 0
    private var _z = 0
    var y: Int {
      get {
        registrar.access(self, keyPath: \.y)
        return _y
      }
      set {
        let spelled: KeyPath<Spelled, Int> = (\Spelled.self).appending(path: \Spelled.y)
        registrar.withMutation(of: self, keyPath: spelled) { _y = newValue }
      }
    }
    var z: Int {
      get {
        registrar.access(self, keyPath: \.z)
        return _z
      }
      // A different key path than the getter's: never matches (as in Observation).
      set { registrar.withMutation(of: self, keyPath: \._z) { _z = newValue } }
    }
  }

  @Test func keyPathsMatchByValueAndAMismatchNeverFires() {
    let model = Spelled()
    let fired = Box(0)
    ReactiveState.withObservationTracking({ _ = model.y }, onChange: { fired.value += 1 })
    model.y = 3
    #expect(fired.value == 1, "\\Spelled.self.appending(\\.y) == \\.y")
    ReactiveState.withObservationTracking({ _ = model.z }, onChange: { fired.value += 1 })
    model.z = 3
    #expect(fired.value == 1, "access and mutation key paths differ: silent miss")
  }

  @Test func aSubclassHasItsOwnRegistrarAndBasePropertiesStillFire() {
    let child = ChildModel()
    let fired = Box<[String]>([])
    ReactiveState.withObservationTracking({ _ = child.a }, onChange: { fired.value.append("base") })
    ReactiveState.withObservationTracking(
      { _ = child.extra }, onChange: { fired.value.append("sub") })
    child.extra = 1
    child.a = 1
    #expect(fired.value == ["sub", "base"])
  }

  class BaseModel: ReactiveState.Observable, @unchecked Sendable {
    private let registrar = ReactiveState.ObservationRegistrar()
    private var _a = 0
    var a: Int {
      get {
        registrar.access(self, keyPath: \.a)
        return _a
      }
      set { registrar.withMutation(of: self, keyPath: \.a) { _a = newValue } }
    }
  }

  final class ChildModel: BaseModel, @unchecked Sendable {
    private let childRegistrar = ReactiveState.ObservationRegistrar()
    private var _extra = 0
    var extra: Int {
      get {
        childRegistrar.access(self, keyPath: \.extra)
        return _extra
      }
      set { childRegistrar.withMutation(of: self, keyPath: \.extra) { _extra = newValue } }
    }
  }
}
