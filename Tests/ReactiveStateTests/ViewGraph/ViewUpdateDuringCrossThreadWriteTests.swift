import Foundation
import ReactiveState
import ReactiveStateMacrosFree
import Testing

/// A model written on another thread while the host's update pass runs in the middle of the
/// write: between its `willSet` and its store, or between its store and its `didSet` walk.
/// The view must show the final value once writes stop. Its body observer listened to
/// `willSet` only, so an update pass inside the write consumed the change — reading the old
/// value, or a `Computed` not yet marked stale — and nothing ran it again. Found by a review.
/// A model whose setter runs hooks inside the mutation: `beforeStore` after `willSet` and
/// before the store, `afterStore` after the store and before `didSet`.
final class HookedModel: ReactiveState.Observable, @unchecked Sendable {
  private let registrar = ReactiveState.ObservationRegistrar()
  private let lock = NSLock()
  private var _value = 0
  private var _other = 0
  let beforeStore = LockedBox<(@Sendable () -> Void)?>(nil)
  let afterStore = LockedBox<(@Sendable () -> Void)?>(nil)
  var value: Int {
    get {
      registrar.access(self, keyPath: \.value)
      lock.lock()
      defer { lock.unlock() }
      return _value
    }
    set {
      registrar.withMutation(of: self, keyPath: \.value) {
        beforeStore.value?()
        lock.lock()
        _value = newValue
        lock.unlock()
        afterStore.value?()
      }
    }
  }
  var other: Int {
    get {
      registrar.access(self, keyPath: \.other)
      lock.lock()
      defer { lock.unlock() }
      return _other
    }
    set {
      registrar.withMutation(of: self, keyPath: \.other) {
        lock.lock()
        _other = newValue
        lock.unlock()
      }
    }
  }
}

final class UncheckedRef<T>: @unchecked Sendable {
  let value: T
  init(_ value: T) { self.value = value }
}

@MainActor
@Suite(.serialized) struct ViewUpdateDuringCrossThreadWriteTests {
  struct DerivedReader: View {
    let doubled: Computed<Int>
    var body: some View { Text("\(doubled.value)") }
  }

  struct PlainReader: View {
    let model: HookedModel
    var body: some View { Text("\(model.value * 2)") }
  }

  enum Window { case beforeStore, afterStore }

  /// Writes `model.value = 1` on another thread, holds the write at `window`, lets the host's
  /// hop run and flushes the host meanwhile, then lets the write finish and flushes again.
  func flushDuringWrite(_ host: ViewHost, _ model: HookedModel, at window: Window) async {
    let reached = DispatchSemaphore(value: 0)
    let resume = DispatchSemaphore(value: 0)
    let done = DispatchSemaphore(value: 0)
    let hook: @Sendable () -> Void = {
      reached.signal()
      resume.wait()
    }
    switch window {
    case .beforeStore: model.beforeStore.value = hook
    case .afterStore: model.afterStore.value = hook
    }
    let ref = UncheckedRef(model)
    Thread.detachNewThread {
      ref.value.value = 1
      done.signal()
    }
    #expect(reached.wait(timeout: .now() + 10) == .success)
    model.beforeStore.value = nil
    model.afterStore.value = nil
    // The willSet hopped to the main actor: let it mark the view dirty.
    for _ in 0..<20 { await Task.yield() }
    host.flush()  // the host's update pass lands while the write is in flight
    resume.signal()
    #expect(done.wait(timeout: .now() + 10) == .success)
    for _ in 0..<20 { await Task.yield() }
    host.flush()  // writes stopped: the view must show the final value
  }

  @Test func viewOverComputedFlushedAfterTheStoreBeforeDidSet() async {
    let model = HookedModel()
    let doubled = Computed("doubled", isEqual: ==) { model.value * 2 }
    let host = ViewHost(DerivedReader(doubled: doubled), mode: .manual)
    #expect(host.texts == ["0"])
    await flushDuringWrite(host, model, at: .afterStore)
    #expect(model.value == 1)
    #expect(host.texts == ["2"], "the view keeps a value computed from the old input")
  }

  @Test func viewOverComputedFlushedBeforeTheStore() async {
    let model = HookedModel()
    let doubled = Computed("doubled", isEqual: ==) { model.value * 2 }
    let host = ViewHost(DerivedReader(doubled: doubled), mode: .manual)
    await flushDuringWrite(host, model, at: .beforeStore)
    #expect(host.texts == ["2"], "the view keeps a value computed from the old input")
  }

  @Test func viewOverPropertyFlushedAfterTheStoreBeforeDidSet() async {
    let model = HookedModel()
    let host = ViewHost(PlainReader(model: model), mode: .manual)
    await flushDuringWrite(host, model, at: .afterStore)
    #expect(host.texts == ["2"])
  }

  @Test func viewOverPropertyFlushedBeforeTheStore() async {
    let model = HookedModel()
    let host = ViewHost(PlainReader(model: model), mode: .manual)
    await flushDuringWrite(host, model, at: .beforeStore)
    #expect(host.texts == ["2"])
  }
}
