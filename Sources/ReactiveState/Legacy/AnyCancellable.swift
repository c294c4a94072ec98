import CReactiveState
import Dispatch

/// Something whose subscription can be cancelled; the shape of Combine's `Cancellable`.
public protocol Cancellable {
  /// Stops delivery. Calling it more than once has no further effect.
  func cancel()
}

/// A subscription token, shaped like Combine's `AnyCancellable`.
///
/// Contract:
/// - ``cancel()`` runs the cancellation action at most once, from whichever thread calls it first;
///   after it returns, the subscription receives no further values that start afterwards.
/// - Dropping the last reference cancels, so a subscription lives exactly as long as its token.
///   Keep the token (for example with `store(in:)`) or the subscription ends immediately.
/// - Tokens are `Hashable` by identity so they can be kept in a `Set<AnyCancellable>`.
public final class AnyCancellable: Cancellable, Hashable, @unchecked Sendable {
  private let lock = WordLock()
  private var action: (() -> Void)?
  /// The thread running the action (its thread-state address), 0 when none is.
  private var runner: UInt = 0
  /// Where other callers of ``cancel()`` wait for the running action; made by the first one.
  private var completion: DispatchSemaphore?
  /// The threads that wait on ``completion`` (registered in ``WaitForGraph/shared``).
  private var waiters: [UInt] = []

  /// Creates a token that runs `cancel` once, on the first ``cancel()`` or on deinit.
  public init(_ cancel: @escaping () -> Void) {
    action = cancel
  }

  /// Creates a token that forwards to another cancellable.
  public convenience init(_ canceller: some Cancellable) {
    self.init { canceller.cancel() }
  }

  deinit {
    cancel()
  }

  /// Cancels the subscription. Idempotent and thread-safe; the action runs outside the lock.
  ///
  /// A call made while another thread runs the action waits until it has finished, so no call
  /// returns before the cancellation is complete. A call made by the action itself (on its
  /// own thread) returns at once, and so does one whose wait would close a cycle of threads
  /// each waiting for the next (tokens whose actions cancel each other, or an action reading a
  /// ``Computed`` whose derivation, running on another thread, cancels this token). Waits the
  /// library cannot see are not detected: an action that waits synchronously for another
  /// thread (`queue.sync`, a semaphore) must not wait for one that cancels this same token
  /// meanwhile, or both wait forever.
  public func cancel() {
    let thread = UInt(bitPattern: rs_current_thread())
    lock.lock()
    if let action {
      self.action = nil
      runner = thread
      lock.unlock()
      action()
      finishRun()
    } else if runner != 0 && runner != thread
      && WaitForGraph.shared.beginWait(
        thread, for: .cancellation(runner: runner), canGiveUp: false)
    {
      let completion = completion ?? DispatchSemaphore(value: 0)
      self.completion = completion
      waiters.append(thread)
      lock.unlock()
      completion.wait()
    } else {
      lock.unlock()
    }
  }

  /// How many callers of ``cancel()`` wait for the running action now (tests).
  var waitingCallerCount: Int { lock.withLock { waiters.count } }

  /// Ends the action's run and wakes the callers that wait for it.
  private func finishRun() {
    let (completion, waiters) = lock.withLock {
      defer {
        runner = 0
        self.completion = nil
        self.waiters = []
      }
      if !self.waiters.isEmpty { WaitForGraph.shared.endWaits(of: self.waiters) }
      return (self.completion, self.waiters)
    }
    for _ in waiters { completion?.signal() }
  }

  /// Keeps this token in `set`; the subscription lives until the set drops it.
  public func store(in set: inout Set<AnyCancellable>) {
    set.insert(self)
  }

  /// Keeps this token in `collection`; the subscription lives until the collection drops it.
  public func store<C: RangeReplaceableCollection>(in collection: inout C)
  where C.Element == AnyCancellable {
    collection.append(self)
  }

  /// Identity equality: two tokens are equal only if they are the same object.
  public static func == (lhs: AnyCancellable, rhs: AnyCancellable) -> Bool {
    lhs === rhs
  }

  /// Hashes the token's identity.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(self))
  }
}
