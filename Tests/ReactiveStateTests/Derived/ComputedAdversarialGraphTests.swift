import Foundation
import ReactiveState
import Testing

/// Adversarial cases for `Computed`, continued: derived values created inside derivations,
/// observers cancelling each other mid-propagation, derivations that write state, cycles,
/// threads, lifetimes and async sequences.
@Suite struct ComputedAdversarialGraphTests {
  // MARK: Nesting

  /// A derivation that creates a derived value, keeps it (here, the latest one in a box) and
  /// reads it: the inner value becomes the outer one's input (its own reads do not leak into
  /// the outer one), the observer sees every change, and each replaced inner value is freed.
  @Test func anInnerValueCreatedAndKeptByADerivationIsAnInput() {
    let model = HandModel()
    let latest = LockedBox<Computed<Int>?>(nil)
    let inners = Box<[() -> AnyObject?]>([])
    let outerComputations = Box(0)
    var outer: Computed<Int>? = Computed {
      outerComputations.value += 1
      let inner = Computed { model.a * 2 }
      latest.value = inner
      inners.value.append { [weak inner] in inner }
      return inner.value + model.b
    }
    weak let weakOuter = outer
    let seen = Box<[Int]>([])
    var token: ObservationToken? = observe { [outer = outer!] in seen.value.append(outer.value) }
    model.a = 1
    model.b = 10
    model.a = 2
    #expect(seen.value == [0, 2, 12, 14])
    #expect(outerComputations.value == 4)
    #expect(inners.value.dropLast().allSatisfy { $0() == nil }, "replaced inner values are freed")
    model.c = 5  // read by nobody
    #expect(outerComputations.value == 4)
    token?.cancel()
    token = nil
    #expect(outer!.value == 14)
    outer = nil
    latest.value = nil
    #expect(weakOuter == nil)
    #expect(inners.value.allSatisfy { $0() == nil })
    model.a = 3
  }

  /// A derived value created inside a derivation and freed when the derivation returns: its
  /// node, abandoned, lets every later change of its inputs through to the outer value (see
  /// `DerivedNode.passesChangesOn`). Observed, the observer sees every change; unobserved,
  /// each read recomputes (the freed value can never be brought up to date, so the outer
  /// value cannot keep its result) — a deliberate cost of this anti-pattern: keep derived
  /// values outside the derivations that read them.
  @Test func anInnerValueDroppedByTheDerivationStillPropagatesChanges() {
    let model = HandModel()
    let computations = Box(0)
    let outer = Computed { () -> Int in
      computations.value += 1
      let inner = Computed { model.a * 2 }
      return inner.value
    }
    #expect(outer.value == 0)
    #expect(outer.value == 0)
    #expect(computations.value == 2, "unobserved: recomputed on each read, still correct")
    let seen = Box<[Int]>([])
    let token = observe { seen.value.append(outer.value) }
    model.a = 1
    model.a = 2
    #expect(seen.value == [0, 2, 4], "the observer sees the changes of the inner value's input")
    #expect(outer.value == 4, "an untracked read is current")
    let fired = Box(0)
    ReactiveState.withObservationTracking {
      _ = outer.value
    } onChange: {
      fired.value += 1
    }
    model.a = 3
    #expect(fired.value == 1, "a one-shot hears the willSet through the freed value")
    #expect(seen.value.last == 6)
    token.cancel()
    model.a = 4
    #expect(outer.value == 8)
    #expect(model.aDidSetListeners == 0, "nothing stays linked once unobserved")
  }

  /// An object the derivation creates, reads and drops: its property's slot goes away while
  /// the value is being computed. That must not leave the value stale after its computation
  /// (a stale value stops every later change before its observers).
  @Test func anObjectCreatedAndDroppedByTheDerivationDoesNotStopLaterChanges() {
    let model = HandModel()
    let outer = Computed { () -> Int in
      let scratch = HandModel()
      scratch.a = model.a * 2
      return scratch.a
    }
    let seen = Box<[Int]>([])
    let token = observe { seen.value.append(outer.value) }
    for value in 1...3 { model.a = value }
    #expect(seen.value == [0, 2, 4, 6])
    withExtendedLifetime(token) {}
  }

  // MARK: Cancellation during propagation

  /// Two observers of one derived value, each cancelling the other when it re-runs: a change
  /// runs exactly one of them (the other is cancelled before its turn), the survivor then
  /// cancels itself from inside its own run, and the orphaned value lets go of its input.
  @Test func observersCancellingEachOtherAndThemselvesWhileADerivedValuePropagates() {
    let model = HandModel()
    let doubled = Computed { model.a * 2 }
    let tokens = Box<[ObservationToken?]>([nil, nil])
    let runs = Box([0, 0])
    for index in 0..<2 {
      tokens.value[index] = observe {
        _ = doubled.value
        runs.value[index] += 1
        guard runs.value[index] > 1 else { return }
        if let other = tokens.value[1 - index] {
          other.cancel()
          tokens.value[1 - index] = nil
        } else if let mine = tokens.value[index] {
          mine.cancel()  // second re-run: cancel itself
          tokens.value[index] = nil
        }
      }
    }
    #expect(runs.value == [1, 1])
    model.a = 1
    #expect(runs.value.reduce(0, +) == 3, "exactly one ran: the other was cancelled first")
    model.a = 2
    #expect(runs.value.reduce(0, +) == 4, "the survivor ran and cancelled itself")
    model.a = 3
    #expect(runs.value.reduce(0, +) == 4, "nobody observes any more")
    model.a = 4
    #expect(model.aDidSetListeners == 0, "the orphan dropped its input after lingering")
    #expect(doubled.value == 8)
  }

  // MARK: Derivations that write

  /// A derivation that writes a property it does not read (misuse, but it must not hang or
  /// corrupt anything): the observers of that property see the write, and the derived value
  /// and its observer stay correct.
  @Test func aDerivationWritingAnotherPropertyNeitherHangsNorCorrupts() {
    let model = HandModel()
    let mirror = HandModel()
    let doubled = Computed { () -> Int in
      let value = model.a * 2
      mirror.b = value
      return value
    }
    let mirrored = Box<[Int]>([])
    let seen = Box<[Int]>([])
    let tokens = [
      observe { mirrored.value.append(mirror.b) },
      observe { seen.value.append(doubled.value) },
    ]
    model.a = 1
    model.a = 2
    #expect(seen.value == [0, 2, 4])
    #expect(mirrored.value == [0, 2, 4])
    #expect(mirror.b == 4)
    #expect(doubled.value == 4)
    withExtendedLifetime(tokens) {}
  }

  /// A derivation that writes the property it reads until it settles: observed or not, it
  /// must not hang, and once settled the value is consistent with the state.
  @Test(arguments: [false, true])
  func aDerivationWritingWhatItReadsSettles(observed: Bool) {
    let model = HandModel()
    let settling = Computed { () -> Int in
      let value = model.a
      if value < 3 { model.a = value + 1 }
      return value
    }
    let seen = Box<[Int]>([])
    let token = observed ? observe { seen.value.append(settling.value) } : nil
    var reads: [Int] = []
    for _ in 0..<6 { reads.append(settling.value) }
    #expect(model.a == 3)
    #expect(reads.last == 3)
    #expect(settling.value == model.a)
    if observed { #expect(seen.value.last == 3) }
    withExtendedLifetime(token) {}
  }

  /// A derivation that always writes what it reads can never settle: observed, it stops (the
  /// observer's re-run limit) with a diagnostic instead of hanging.
  @Test func anObservedDerivationThatKeepsInvalidatingItselfStops() {
    let model = HandModel()
    let runaway = Computed { () -> Int in
      model.a += 1
      return model.a
    }
    let runs = Box(0)
    var token: ObservationToken?
    let reported = ObservationDiagnostics.capture {
      token = observe {
        runs.value += 1
        _ = runaway.value
      }
    }
    #expect(runs.value <= continuousRerunLimit + 2, "stopped")
    #expect(!reported.isEmpty, "with a diagnostic")
    withExtendedLifetime(token) {}
  }

  // MARK: Cycles

  /// A cycle that appears, goes away and comes back: each time it appears the read fails with
  /// a diagnostic, and in between the value is the plain one.
  @Test func aCycleThatComesAndGoesIsReportedEachTimeAndRecovers() {
    let model = HandModel()
    let holder = LockedBox<Computed<Int>?>(nil)
    let flaky = Computed("flaky-cycle") { () throws -> Int in
      model.a == 0 ? model.b : try holder.value!.get() + 1
    }
    holder.value = flaky
    let seen = Box<[String]>([])
    let token = observe {
      do { seen.value.append("\(try flaky.get())") } catch { seen.value.append("cycle") }
    }
    for round in 0..<2 {
      let reported = ObservationDiagnostics.capture { model.a = 1 }
      #expect(reported.contains { $0.message.contains("flaky-cycle") }, "round \(round)")
      #expect(throws: DerivedValueCycle.self) { try flaky.get() }
      model.a = 0
      model.b += 1
      #expect((try? flaky.get()) == model.b)
    }
    #expect(seen.value == ["0", "cycle", "0", "1", "cycle", "1", "2"])
    withExtendedLifetime(token) {}
  }

  // MARK: Threads

  /// Readers on two threads while a third writes increasing values: every value read is the
  /// derivation of one written input — an `Int` chain (read lock-free while observed) and a
  /// `String` of two properties written and read together (read under the lock) — and each
  /// reader's successive values never go back in time. (Two derived values read one after the
  /// other may see different writes: there is no snapshot across values, so none is checked.)
  @Test(arguments: [false, true])
  func readersSeeConsistentMonotonicValuesWhileAWriterWrites(observed: Bool) {
    let rounds = 3_000
    let model = LockedPair()
    let tripled = Computed { model.a * 3 }
    let plusOne = Computed { tripled.value + 1 }
    let pair = Computed { () -> String in
      let (a, b) = model.both
      return "\(a)/\(b)"
    }
    let observedBad = AtomicCounter()
    let token =
      observed
      ? observe {
        let parts = pair.value.split(separator: "/").map { Int($0)! }
        if parts[0] != parts[1] { observedBad.increment() }
        _ = plusOne.value
      } : nil
    let mixed = AtomicCounter()
    let backwards = AtomicCounter()
    let started = DispatchGroup()
    let done = DispatchGroup()
    let writing = LockedBox(true)
    for _ in 0..<2 {
      done.enter()
      started.enter()
      Thread.detachNewThread {
        started.leave()
        var lastPlusOne = 1
        var lastInput = 0
        while writing.value {
          let value = plusOne.value
          if (value - 1) % 3 != 0 || value < 1 { mixed.increment() }
          if value < lastPlusOne { backwards.increment() }
          lastPlusOne = value
          let parts = pair.value.split(separator: "/").map { Int($0)! }
          if parts[0] != parts[1] { mixed.increment() }
          if parts[0] < lastInput { backwards.increment() }
          lastInput = parts[0]
        }
        done.leave()
      }
    }
    started.wait()
    for value in 1...rounds { model.set(value) }
    writing.value = false
    done.wait()
    #expect(mixed.value == 0, "a value derived from no single write")
    #expect(backwards.value == 0, "a reader saw an older value after a newer one")
    #expect(observedBad.value == 0)
    #expect(plusOne.value == 3 * rounds + 1)
    #expect(pair.value == "\(rounds)/\(rounds)")
    withExtendedLifetime(token) {}
  }

  // MARK: Lifetime

  /// A derived value that was observed, is lingering (still linked to its input) and loses
  /// its last reference is freed at once, and takes its link with it.
  @Test func aLingeringValueIsFreedWithItsLastReferenceAndUnlinksItsInput() {
    let model = HandModel()
    weak var weakDoubled: Computed<Int>?
    weak var weakFirst: Computed<Int>?
    do {
      let first = Computed { model.a + 1 }
      let doubled = Computed { first.value * 2 }
      weakDoubled = doubled
      weakFirst = first
      let token = observe { _ = doubled.value }
      model.a = 1
      token.cancel()
      #expect(model.aDidSetListeners == 1, "lingering: still linked")
    }
    #expect(weakDoubled == nil)
    #expect(weakFirst == nil)
    #expect(model.aDidSetListeners == 0, "the freed chain left no link behind")
    model.a = 2
    model.a = 3
  }

  /// An observer that holds a derived value weakly does not keep it alive: dropping the last
  /// strong reference frees it while it is observed. The next change of its input still
  /// reaches the observer (through the abandoned node), whose run then reads nothing, so
  /// nothing stays linked to the input.
  @Test func aValueObservedThroughAWeakReferenceIsFreedWhileObserved() {
    let model = HandModel()
    var doubled: Computed<Int>? = Computed { model.a * 2 }
    weak let weakDoubled = doubled
    let seen = Box<[Int?]>([])
    let token = observe { [weak doubled] in seen.value.append(doubled?.value) }
    #expect(seen.value == [0])
    doubled = nil
    #expect(weakDoubled == nil, "the observer does not keep it alive")
    model.a = 1
    model.a = 2
    #expect(seen.value.allSatisfy { $0 == 0 || $0 == nil })
    #expect(model.aDidSetListeners == 0, "nothing stays linked to the input")
    let runs = seen.value.count
    model.a = 3
    #expect(seen.value.count == runs, "the observer depends on nothing any more")
    withExtendedLifetime(token) {}
  }

  // MARK: Async sequences

  /// An `ObservedValues` over a derived value with cut-off: writes that leave the value equal
  /// produce nothing, and a thrown error ends the sequence after being thrown once.
  @Test func observedValuesOfADerivedValueFollowItsCutOffAndErrors() async throws {
    struct Failure: Error {}
    let model = HandModel()
    let parity = Computed { () throws -> Int in
      if model.a < 0 { throw Failure() }
      return model.a % 2
    }
    var iterator = ObservedValues<Int, any Error> { try parity.get() }.makeAsyncIterator()
    #expect(try await iterator.next() == 0)
    model.a = 2  // equal parity: no element
    model.a = 3
    #expect(try await iterator.next() == 1)
    model.a = -1
    await #expect(throws: Failure.self) { try await iterator.next() }
    model.a = 4
    #expect(try await iterator.next() == nil)
  }
}
