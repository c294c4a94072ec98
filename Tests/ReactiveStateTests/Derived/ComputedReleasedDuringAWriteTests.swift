import Foundation
import ReactiveState
import Testing

/// A `Computed` released while a write of its input is in flight on another thread: the
/// write's `willSet` came before the value read the input, so only its `didSet` can tell the
/// registration. It must still arrive once the value is gone.
@Suite struct ComputedReleasedDuringAWriteTests {
  /// A model whose next write of `a` can be held between its `willSet` and its store.
  final class HeldWriteModel: ReactiveState.Observable, @unchecked Sendable {
    let registrar = ReactiveState.ObservationRegistrar()
    private let lock = NSLock()
    private var _a = 0
    private var _b = 0
    /// Signalled by the held write once it is past its `willSet`.
    let entered = DispatchSemaphore(value: 0)
    /// The held write stores once this is signalled.
    let proceed = DispatchSemaphore(value: 0)
    let holdsNextWrite = LockedBox(false)

    var a: Int {
      get {
        registrar.access(self, keyPath: \.a)
        return stored { _a }
      }
      set {
        registrar.withMutation(of: self, keyPath: \.a) {
          if holdsNextWrite.value {
            holdsNextWrite.value = false
            entered.signal()
            proceed.wait()
          }
          stored { _a = newValue }
        }
      }
    }
    var b: Int {
      registrar.access(self, keyPath: \.b)
      return stored { _b }
    }
    private func stored<T>(_ body: () -> T) -> T {
      lock.lock()
      defer { lock.unlock() }
      return body()
    }

    /// Starts a write of `a` on another thread and returns once it is past its `willSet`
    /// (someone listens to `willSet` of `a`, so the write is announced at its start); the
    /// returned semaphore is signalled when the write, `didSet` included, is over.
    func startHeldWrite() -> DispatchSemaphore {
      ReactiveState.withObservationTracking {
        _ = a
      } onChange: {
      }
      holdsNextWrite.value = true
      let done = DispatchSemaphore(value: 0)
      Thread {
        self.a = 1
        done.signal()
      }.start()
      entered.wait()
      return done
    }
  }

  func callsOfARegistrationArmedDuringTheWrite(releasingTheValue: Bool) -> Int {
    let model = HeldWriteModel()
    var sum: Computed<Int>? = Computed { model.a + model.b }
    let writeDone = model.startHeldWrite()
    let fired = LockedBox(0)
    ReactiveState.withObservationTracking {
      _ = sum?.value  // the old `a`: the write has not stored yet
    } onChange: {
      fired.value += 1
    }
    if releasingTheValue { sum = nil }
    model.proceed.signal()
    writeDone.wait()
    withExtendedLifetime(sum) {}
    return fired.value
  }

  /// The value kept alive: its `didSet` reaches the registration, late rather than lost.
  @Test func theWritesDidSetReachesTheRegistrationThroughALiveValue() {
    #expect(callsOfARegistrationArmedDuringTheWrite(releasingTheValue: false) == 1)
  }

  @Test func theWritesDidSetReachesTheRegistrationAfterTheValueIsReleased() {
    #expect(callsOfARegistrationArmedDuringTheWrite(releasingTheValue: true) == 1)
  }

  @Test func theOptionsFormHearsTheWritesDidSetAfterTheValueIsReleased() {
    let model = HeldWriteModel()
    var sum: Computed<Int>? = Computed { model.a + model.b }
    let writeDone = model.startHeldWrite()
    let events = LockedBox<[String]>([])
    ReactiveState.withObservationTracking(options: [.didSet]) {
      _ = sum?.value
    } onChange: { event in
      events.value.append("\(event.kind)")
    }
    sum = nil
    model.proceed.signal()
    writeDone.wait()
    #expect(events.value == ["didSet"])
  }
}
