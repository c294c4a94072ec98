import Foundation
import ReactiveState
import Testing

/// Continuous observers' runs borrow their thread's tracking scope for their nesting depth
/// (`ObserverScopeStack`): nested runs, deeper than the kept scopes, must each record their own
/// reads, and the stack must unwind completely.
@Suite struct ObserverScopeStackTests {
  /// Observers nested 40 deep (each level's first run starts the next level's observer, so the
  /// runs nest past the 32 kept scopes): a change of each level's property re-runs exactly that
  /// level's observer, which sees the new value.
  @Test func nestedRunsBeyondTheKeptScopesTrackTheirOwnReads() {
    let levels = 40
    let models = (0..<levels).map { _ in HandModel() }
    let seen = LockedBox(Array(repeating: [Int](), count: levels))
    let tokens = LockedBox([ObservationToken]())

    @Sendable func start(_ level: Int) {
      let token = observe {
        let value = models[level].a
        seen.value[level].append(value)
        if level + 1 < levels, seen.value[level].count == 1 { start(level + 1) }
      }
      tokens.value.append(token)
    }
    start(0)
    #expect(observerScopeStackOnThisThread.depth == 0)
    #expect(observerScopeStackOnThisThread.kept <= 32)
    #expect(seen.value.allSatisfy { $0 == [0] })

    for level in stride(from: levels - 1, through: 0, by: -7) {
      models[level].a = level + 100
    }
    for level in 0..<levels {
      let expected = (levels - 1 - level) % 7 == 0 ? [0, level + 100] : [0]
      #expect(seen.value[level] == expected, "level \(level)")
    }
    #expect(observerScopeStackOnThisThread.depth == 0)
    for token in tokens.value { token.cancel() }
  }

  /// The thread keeps the scopes of the first 32 depths; a run nested deeper borrows one of its
  /// own, freed when the run ends — also at exactly depth 32 (the session-41 mutation round:
  /// keeping that one, a scope leaked per run, went unnoticed).
  @Test func aRunNestedPastTheKeptScopesFreesItsOwn() {
    let levels = 33
    let models = (0..<levels).map { _ in HandModel() }
    let tokens = LockedBox([ObservationToken]())
    final class WeakScope: @unchecked Sendable { weak var scope: AnyObject? }
    let scopes = (0..<levels).map { _ in WeakScope() }
    let started = LockedBox(Array(repeating: false, count: levels))

    @Sendable func start(_ level: Int) {
      let token = observe {
        _ = models[level].a
        scopes[level].scope = currentTrackingScope
        if level + 1 < levels, !started.value[level + 1] {
          started.value[level + 1] = true
          start(level + 1)
        }
      }
      tokens.value.append(token)
    }
    start(0)
    #expect(tokens.value.count == levels)
    #expect(scopes[31].scope != nil, "depth 31's scope is kept by the thread")
    #expect(scopes[32].scope == nil, "depth 32's scope went with its run")
    for token in tokens.value { token.cancel() }
  }

  /// A thread that runs observers leaves its stack unwound, with at most as many kept scopes
  /// as its deepest nesting.
  @Test func aThreadKeepsOneScopePerNestingDepth() {
    let result = LockedBox((depth: -1, kept: -1))
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      let outer = HandModel()
      let inner = HandModel()
      let innerToken = LockedBox<ObservationToken?>(nil)
      let token = observe {
        _ = outer.a
        if innerToken.value == nil { innerToken.value = observe { _ = inner.a } }
      }
      inner.a = 1
      outer.a = 1
      result.value = observerScopeStackOnThisThread
      token.cancel()
      innerToken.value?.cancel()
      done.signal()
    }
    thread.start()
    done.wait()
    #expect(result.value.depth == 0)
    #expect(result.value.kept == 2)
  }
}
