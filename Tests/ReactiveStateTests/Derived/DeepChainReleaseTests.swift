import Foundation
import ReactiveState
import Testing

/// Releasing a long chain of derived values, each capturing the one before it in its
/// derivation: the last reference to the end of the chain frees the whole chain, and that
/// must not nest one deinitialisation per value (it overflowed a 512 KB thread stack at a
/// few thousand values).
@Suite struct DeepChainReleaseTests {
  /// 100,000 values, never read, released on a thread whose stack is 512 KB: every one of
  /// them is freed (the canary the first value's derivation captures goes) and the thread
  /// survives.
  @Test func releasingADeepChainTakesConstantStackSpace() {
    let model = HandModel()
    let (first, last) = Self.chain(depth: 100_000, model: model)
    #expect(first.isAlive)
    Self.release(last, onThreadWithStackSize: 512 * 1024)
    #expect(!first.isAlive, "the whole chain is freed")
  }

  /// The same with a chain that was observed and updated before it goes: its links and
  /// cached values go with it, and a second chain built afterwards works as the first did.
  @Test func releasingAnObservedChainFreesItAndLeavesTheEngineUsable() {
    let model = HandModel()
    for round in 1...2 {
      let (first, last) = Self.chain(depth: 2_000, model: model, readEach: true)
      let seen = Self.observeOneChange(of: last, settingInputTo: round * 10, on: model)
      #expect(seen == [(round - 1) * 10 + 1_999, round * 10 + 1_999])
      Self.release(last, onThreadWithStackSize: 512 * 1024)
      #expect(!first.isAlive, "round \(round): the whole chain is freed")
    }
  }

  /// Observes the chain's last value while its input changes once; returns what the observer
  /// saw. Every reference it took is gone when it returns.
  private static func observeOneChange(
    of last: LockedBox<Computed<Int>?>, settingInputTo value: Int, on model: HandModel
  ) -> [Int] {
    let end = last.value.unsafelyUnwrapped
    let seen = LockedBox<[Int]>([])
    let token = observe { seen.value.append(end.value) }
    model.a = value
    token.cancel()
    return seen.value
  }

  /// A chain `depth` long over `model.a`, each value one more than the one before; returns
  /// a watch on a canary only its first value's derivation holds, and the only strong
  /// reference to its last value (the others are held by the derivations that capture them).
  /// `readEach`: each value is read as it is built, so no first computation nests through the
  /// whole chain.
  private static func chain(depth: Int, model: HandModel, readEach: Bool = false) -> (
    first: CanaryWatch, last: LockedBox<Computed<Int>?>
  ) {
    let canary = Canary()
    let first = CanaryWatch(watching: canary)
    var previous = Computed {
      withExtendedLifetime(canary) { model.a }
    }
    if readEach { _ = previous.value }
    for _ in 1..<depth {
      let upstream = previous
      previous = Computed { upstream.value + 1 }
      if readEach { _ = previous.value }
    }
    return (first, LockedBox(previous))
  }

  /// Drops the last strong reference in `box` on a new thread with the given stack size.
  private static func release(
    _ box: LockedBox<Computed<Int>?>, onThreadWithStackSize stackSize: Int
  ) {
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      box.value = nil
      done.signal()
    }
    thread.stackSize = stackSize
    thread.start()
    done.wait()
  }
}
