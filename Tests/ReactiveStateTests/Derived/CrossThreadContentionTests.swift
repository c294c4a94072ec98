import Dispatch
import Foundation
import ReactiveState
import Testing

/// Plain contention, with no dependency cycle anywhere: chains and diamonds of derived values
/// with a dependency that switches, read on several threads while writers change their inputs
/// and observers re-read them. The cross-thread cycle detection must never report a cycle.
@Suite struct CrossThreadContentionTests {
  @Test(arguments: 0..<2)
  func contentionWithoutACycleNeverReportsOne(round: Int) {
    let model = LockedTriple()  // its storage is locked: several threads read and write it
    let x = Computed("x") { model[0] + model[1] }
    let y = Computed("y") { model[1] * 2 }
    // Switches between two inputs that never read it.
    let z = Computed("z") { () throws -> Int in
      model[2] % 2 == 0 ? try x.get() + 1 : try y.get() + 1
    }
    let w = Computed("w") { () throws -> Int in try x.get() + y.get() + z.get() }
    let v = Computed("v") { () throws -> Int in try w.get() + z.get() }
    let failures = LockedBox(0)
    let messages = LockedBox<[String]>([])
    let observers = [
      observe { if (try? v.get()) == nil { failures.value += 1 } },
      observe { if (try? z.get()) == nil || (try? w.get()) == nil { failures.value += 1 } },
    ]
    let iterations = 5_000
    let done = DispatchSemaphore(value: 0)
    let threads = 4
    for index in 0..<threads {
      Thread.detachNewThread {
        let reported = ObservationDiagnostics.capture {
          for i in 0..<iterations {
            switch (index, i % 3) {
            case (0, 0): model[0] = i
            case (0, _): model[2] = i
            case (1, 0): model[1] = i
            case (1, _):
              // Each property has one writer (the model's storage is not synchronised).
              withTransaction {
                model[1] = i
                model[1] = i + 1
              }
            default: break
            }
            for value in index < 2 ? [z] : [v, w, z, x] where (try? value.get()) == nil {
              failures.value += 1
            }
          }
        }
        if !reported.isEmpty { messages.value += reported.map(\.message) }
        done.signal()
      }
    }
    var finished = 0
    for _ in 0..<threads where done.wait(timeout: .now() + 60) == .success { finished += 1 }
    #expect(finished == threads, "a deadlock")
    #expect(failures.value == 0)
    #expect(messages.value.isEmpty, "\(messages.value.prefix(3))")
    withExtendedLifetime(observers) {}
  }
}
