import Dispatch
import Foundation
import ReactiveState
import Testing

/// Three derived values reading each other in a ring, first computed at once on three threads
/// (each holds its own compute lock before reading the next): a cycle spread over three
/// threads, which must be reported instead of deadlocking.
@Suite struct CrossThreadThreeWayCycleTests {
  @Test(arguments: 0..<3)
  func aRingOfThreeValuesOnThreeThreadsReportsACycle(round: Int) {
    let holders = (0..<3).map { _ in LockedBox<Computed<Int>?>(nil) }
    let arrived = LockedBox(0)
    let values = (0..<3).map { index in
      Computed("Ring\(index)") { () throws -> Int in
        arrived.value += 1
        // Every thread holds its own value's lock before any reads the next one.
        while arrived.value < 3 { Thread.sleep(forTimeInterval: 0.001) }
        return (try holders[(index + 1) % 3].value?.get() ?? 0) + 1
      }
    }
    for index in 0..<3 { holders[index].value = values[index] }
    let messages = LockedBox<[String]>([])
    let done = DispatchSemaphore(value: 0)
    for value in values {
      Thread.detachNewThread {
        let reported = ObservationDiagnostics.capture { _ = try? value.get() }
        messages.value += reported.map(\.message)
        done.signal()
      }
    }
    var finished = 0
    for _ in 0..<3 where done.wait(timeout: .now() + 60) == .success { finished += 1 }
    #expect(finished == 3, "the three threads deadlocked")
    #expect(messages.value.contains { $0.contains("waits for a value this thread is computing") })
    for holder in holders { holder.value = nil }
  }
}
