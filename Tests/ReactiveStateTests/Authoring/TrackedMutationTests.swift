import Observation
import ReactiveStateMacrosFree
import Testing

// In-place mutation through `@Tracked`'s `_modify`: no copy, one notification, a recorded read.

private final class MutationItems: TrackedObservable, @unchecked Sendable {
  let observationRegistrar = ReactiveState.ObservationRegistrar()
  @Tracked var values: [Int] = []
  @Tracked var count = 0
}

@Observation.Observable
private final class MutationOracleItems {
  var values: [Int] = []
  var count = 0
}

private final class MutationCounter: @unchecked Sendable {
  var value = 0
}

/// Counts every notification by re-arming a one-shot observer from its own `onChange`.
private final class MutationRearmingObserver: @unchecked Sendable {
  private(set) var count = 0
  private let read: () -> Void
  private let oracle: Bool

  init(oracle: Bool = false, _ read: @escaping () -> Void) {
    self.read = read
    self.oracle = oracle
    arm()
  }

  private func arm() {
    if oracle {
      Observation.withObservationTracking(read) { [self] in
        count += 1
        arm()
      }
    } else {
      ReactiveState.withObservationTracking(read) { [self] in
        count += 1
        arm()
      }
    }
  }
}

private func mutationBufferAddress(_ array: [Int]) -> UInt {
  array.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
}

@Suite("@Tracked in-place mutation")
struct TrackedMutationTests {
  @Test func appendDoesNotCopyTheBuffer() {
    let items = MutationItems()
    items.values.reserveCapacity(64)
    let before = mutationBufferAddress(items.values)
    for value in 0..<10 {
      items.values.append(value)
    }
    #expect(mutationBufferAddress(items.values) == before)
    #expect(items.values == Array(0..<10))
  }

  @Test func appendCopiesWhenTheBufferIsShared() {
    // Control for the test above: the address check does detect a copy.
    let items = MutationItems()
    items.values.reserveCapacity(64)
    let held = items.values
    items.values.append(1)
    #expect(mutationBufferAddress(items.values) != mutationBufferAddress(held))
  }

  @Test func modifyNotifiesOnceLikeTheMacro() {
    let items = MutationItems()
    let observer = MutationRearmingObserver { _ = items.count }
    items.count += 1
    #expect(observer.count == 1)
    items.values.append(1)
    #expect(observer.count == 1)

    let oracleItems = MutationOracleItems()
    let oracle = MutationRearmingObserver(oracle: true) { _ = oracleItems.count }
    oracleItems.count += 1
    #expect(oracle.count == observer.count)
  }

  @Test func noOpModifyStillNotifies() {
    let items = MutationItems()
    let oracleItems = MutationOracleItems()
    let tracked = MutationRearmingObserver { _ = items.count }
    let oracle = MutationRearmingObserver(oracle: true) { _ = oracleItems.count }
    items.count += 0
    oracleItems.count += 0
    #expect(tracked.count == 1)
    #expect(tracked.count == oracle.count)
  }

  @Test func everyInPlaceMutationNotifies() {
    let items = MutationItems()
    let observer = MutationRearmingObserver { _ = items.values }
    items.values.append(1)
    items.values[0] = 2
    items.values.removeAll()
    #expect(observer.count == 3)
  }

  @Test func equalAssignmentsCountLikeTheMacro() {
    let items = MutationItems()
    let oracleItems = MutationOracleItems()
    let tracked = MutationRearmingObserver { _ = items.count }
    let oracle = MutationRearmingObserver(oracle: true) { _ = oracleItems.count }
    for value in [1, 1, 2, 2, 2, 3] {
      items.count = value
      oracleItems.count = value
    }
    #expect(tracked.count == 3)
    #expect(tracked.count == oracle.count)
  }

  @Test func modifyInsideTrackingRecordsARead() {
    let items = MutationItems()
    let fired = MutationCounter()
    ReactiveState.withObservationTracking {
      items.values.append(0)
    } onChange: {
      fired.value += 1
    }
    #expect(fired.value == 0)
    items.values = [7]
    #expect(fired.value == 1)
  }
}
