import Dispatch
import Foundation
import ReactiveState
import Testing

/// `observe { @MainActor in … }` under real contention: background writers (plain writes and
/// transactions) race the main thread's writes and transactions, next to plain observers of
/// the same properties. The main-actor body must run only on the main actor's queue, see the
/// last values once the writers stop, and never stop any other observer.
@Suite struct MainActorObserveStressTests {
  /// What the main-actor body saw.
  @MainActor final class Runs {
    var last = (a: -1, b: -1, c: -1)
    var count = 0
    var offMain = 0
  }

  private static let mainKey = DispatchSpecificKey<Int>()

  @MainActor @Test(arguments: 0..<3)
  func backgroundAndMainThreadWritersRaceTheMainActorBody(round: Int) async {
    DispatchQueue.main.setSpecific(key: Self.mainKey, value: 1)
    let model = LockedTriple()  // its storage is locked: several threads read and write it
    let runs = Runs()
    let plainLast = LockedBox((a: -1, b: -1))
    let token = actingAsMainThread {
      observe { @MainActor in
        runs.count += 1
        if DispatchQueue.getSpecific(key: Self.mainKey) == nil { runs.offMain += 1 }
        runs.last = (model[0], model[1], model[2])
      }
    }
    let plain = observe {
      let seen = (a: model[0], b: model[1])
      plainLast.value = seen
    }
    let iterations = 20_000
    let finished = DispatchSemaphore(value: 0)
    for writer in 0..<2 {
      Thread.detachNewThread {
        // Each writer owns one property (the model's storage is not synchronised).
        func write(_ value: Int) {
          if writer == 0 { model[0] = value } else { model[1] = value }
        }
        for i in 1...iterations {
          if i % 3 == 0 {
            withTransaction {
              write(i - 1)
              write(i)
            }
          } else {
            write(i)
          }
        }
        withTransaction { write(iterations) }
        finished.signal()
      }
    }
    var done = 0
    var step = 0
    while done < 2 {
      step += 1
      actingAsMainThread {
        if step % 2 == 0 {
          withTransaction {
            model[2] = step
            model[2] = step + 1
          }
        } else {
          model[2] = step
        }
      }
      await Task.yield()
      if finished.wait(timeout: .now()) == .success { done += 1 }
    }
    let lastC = model[2]
    for _ in 0..<100_000 {
      if runs.last == (iterations, iterations, lastC) { break }
      await Task.yield()
    }
    #expect(runs.last == (iterations, iterations, lastC))
    #expect(runs.offMain == 0)
    #expect(plainLast.value == (iterations, iterations))
    // Settled (a hop queued by a change the last run already read may still run once): no
    // hop left runs the body again.
    for _ in 0..<200 { await Task.yield() }
    let settled = runs.count
    for _ in 0..<200 { await Task.yield() }
    #expect(runs.count == settled)
    token.cancel()
    onAnotherThread { model[0] = -5 }
    actingAsMainThread { model[1] = -5 }
    for _ in 0..<200 { await Task.yield() }
    #expect(runs.count == settled)
    withExtendedLifetime(plain) {}
  }
}
