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

/// A one-time action a body runs (set by the test on the main actor, taken by the body).
final class BodyHook: @unchecked Sendable {
  private let lock = NSLock()
  private var action: (() -> Void)?
  func set(_ action: @escaping () -> Void) {
    lock.lock()
    self.action = action
    lock.unlock()
  }
  func take() -> (() -> Void)? {
    lock.lock()
    defer { lock.unlock() }
    let action = self.action
    self.action = nil
    return action
  }
}

@MainActor
@Suite(.serialized) struct CrossThreadWriteDuringBodyTests {
  struct HookedReader: View {
    let model: HookedModel
    let hook: BodyHook
    var body: some View {
      let value = model.value
      hook.take()?()
      return Text("\(value * 2)")
    }
  }

  /// Another thread writes `model.value = 1` and is held after its store, before its didSet.
  /// The host's pass runs (the willSet hop marked the view dirty); the body reads the stored
  /// value 1, and while it runs, the other thread's write ends (its didSet walk). Nothing was
  /// written during body on the main actor: no "model written during body" issue. It was
  /// recorded once view bodies listened to didSet (a review caught that regression).
  func writeEndingDuringBody(mode: ViewHost.UpdateMode) async -> ViewHost {
    let model = HookedModel()
    let hook = BodyHook()
    let host = ViewHost(HookedReader(model: model, hook: hook), mode: mode)
    #expect(host.texts == ["0"])
    let reached = DispatchSemaphore(value: 0)
    let resume = DispatchSemaphore(value: 0)
    let done = DispatchSemaphore(value: 0)
    model.afterStore.value = {
      reached.signal()
      resume.wait()
    }
    let ref = UncheckedRef(model)
    // The body lets the write finish and waits for it.
    hook.set {
      resume.signal()
      _ = done.wait(timeout: .now() + 10)
    }
    Thread.detachNewThread {
      ref.value.value = 1
      done.signal()
    }
    #expect(reached.wait(timeout: .now() + 10) == .success)
    model.afterStore.value = nil
    for _ in 0..<20 { await Task.yield() }
    host.flush()
    for _ in 0..<20 { await Task.yield() }
    host.flush()
    #expect(host.texts == ["2"])
    return host
  }

  @Test func crossThreadWriteEndingDuringBodyRecordsNoIssueManual() async {
    let host = await writeEndingDuringBody(mode: .manual)
    #expect(host.issues.isEmpty, "\(host.issues)")
  }

  @Test func crossThreadWriteEndingDuringBodyRecordsNoIssueAutomatic() async {
    let host = await writeEndingDuringBody(mode: .automatic)
    #expect(host.issues.isEmpty, "\(host.issues)")
  }

  /// Another thread's whole write lands while the body runs (its willSet marks the running
  /// observer dirty): no issue either (it used to be recorded as a write during body).
  @Test func crossThreadWriteDuringBodyRecordsNoIssue() async {
    let model = HookedModel()
    let hook = BodyHook()
    let host = ViewHost(HookedReader(model: model, hook: hook), mode: .manual)
    let ref = UncheckedRef(model)
    hook.set {
      let done = DispatchSemaphore(value: 0)
      Thread.detachNewThread {
        ref.value.value = 1
        done.signal()
      }
      _ = done.wait(timeout: .now() + 10)
    }
    // A main-actor write invalidates the view; its next run starts the other thread's write.
    model.value = 5
    host.flush()
    for _ in 0..<20 { await Task.yield() }
    host.flush()
    #expect(host.texts == ["2"])
    #expect(host.issues.isEmpty, "\(host.issues)")
  }
}
