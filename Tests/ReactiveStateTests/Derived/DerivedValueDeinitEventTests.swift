import ReactiveState
import Testing

/// `.deinit` events for objects read through derived values: one per deallocated object, as
/// for an object read through a computed property, and none for a derived value itself (it
/// is no observed object).
@Suite struct DerivedValueDeinitEventTests {
  /// A model owning a derived value of itself (as `@Derived` does).
  final class ModelWithTotal: ReactiveState.Observable, @unchecked Sendable {
    let registrar = ReactiveState.ObservationRegistrar()
    private var _a = 0
    private var _b = 0
    private(set) var total: Computed<Int>!
    init() { total = Computed(of: self) { $0.a + 1 } }
    var a: Int {
      registrar.access(self, keyPath: \.a)
      return _a
    }
    var b: Int {
      registrar.access(self, keyPath: \.b)
      return _b
    }
  }

  /// SE-0506's `.deinit`: one event per deallocated object the registration read, here the
  /// model (the toolchain here has no options form to compare with).
  @Test(arguments: [true, false])
  func oneDeinitForAModelReadThroughItsDerivedValue(alsoReadingDirectly: Bool) {
    var model: ModelWithTotal? = ModelWithTotal()
    let log = deinitEventLog {
      if alsoReadingDirectly { _ = model!.b }
      _ = model!.total.value
    }
    model = nil
    #expect(log.value == ["deinit"])
  }

  /// A derived value that read no observed object goes without an event (the toolchain
  /// installs nothing for an `apply` that reads nothing observable).
  @Test func aDerivedValueThatGoesIsNoDeallocatedObject() {
    var constant: Computed<Int>? = Computed { 42 }
    let log = deinitEventLog {
      _ = constant?.value
    }
    constant = nil
    #expect(log.value.isEmpty)
  }

  /// An object read only through a derived value, gone before it, is reported when the value
  /// goes — also after another object, read directly, was reported. Deliberately later than
  /// for a computed property (reported as the object goes): the registration is linked to the
  /// value, not to what it reads.
  @Test func anObjectReadThroughAValueIsReportedWhenTheValueGoes() {
    var direct: HandModel? = HandModel()
    var throughValue: HandModel? = HandModel()
    var value: Computed<Int>? = Computed { [weak throughValue] in throughValue?.a ?? -1 }
    let log = deinitEventLog {
      _ = direct!.b
      _ = value!.value
    }
    throughValue = nil
    #expect(log.value.isEmpty, "reported when the value goes")
    direct = nil
    #expect(log.value == ["deinit"])
    value = nil
    #expect(log.value == ["deinit", "deinit"])
  }

  /// An object read only through derived values is reported once, by the first of them to go:
  /// the next one to go finds its deallocation reported already, and the registration ends
  /// silently when that value was its last link (one `.deinit` per deallocated object, as
  /// for an object read through two computed properties).
  @Test func anObjectReadThroughTwoDerivedValuesIsReportedOnce() {
    var object: HandModel? = HandModel()
    var first: Computed<Int>? = Computed { [weak object] in object?.a ?? -1 }
    var second: Computed<Int>? = Computed { [weak object] in (object?.a ?? -1) + 1 }
    let log = deinitEventLog {
      _ = first!.value
      _ = second!.value
    }
    object = nil
    #expect(log.value.isEmpty, "reported when a value goes")
    first = nil
    #expect(log.value == ["deinit"])
    second = nil
    #expect(log.value == ["deinit"], "reported twice")
  }

  // MARK: - Continuous observation: no report at a value's departure

  /// Deliberately unlike the event form: a continuous observation retains the derived values
  /// it reads, so one goes only after a run stopped reading it, and its departure is no
  /// `.deinit` event, not even for an object read only through it and gone before it (the
  /// observation no longer reads either). Until session 43 that departure queued a `.deinit`.
  @Test func aValueAContinuousObservationStoppedReadingGoesUnheard() {
    let object = Box<HandModel?>(HandModel())
    let value = Box<Computed<Int>?>(Computed { [weak object] in object?.value?.a ?? -1 })
    let trigger = HandModel()
    let kinds = Box<[String]>([])
    let token = withContinuousObservation(options: [.didSet, .deinit]) { event in
      kinds.value.append("\(event.kind)")
      _ = trigger.a
      _ = value.value?.value
    }
    var held = object.value
    object.value = nil
    held = nil  // read only through the value, which takes its departure
    _ = held
    #expect(kinds.value == ["initial"])
    value.value = nil  // the observation still holds it
    trigger.a = 1  // this run stops reading the value, which goes
    #expect(kinds.value == ["initial", "didSet"])
    withExtendedLifetime(token) {}
  }
}
