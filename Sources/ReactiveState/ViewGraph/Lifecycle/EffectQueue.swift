/// When a post-pass effect runs relative to the others queued by the same pass.
enum EffectPhase: Int, CaseIterable {
  /// `onDisappear` of identities that ended.
  case disappear
  /// A sheet's `onDismiss`: after its content disappeared, before another item's content
  /// appears (SwiftUI presents the next sheet once the previous one is dismissed).
  case dismiss
  /// `onAppear` of identities that were mounted.
  case appear
  /// `onChange(of:)` actions.
  case change
  /// `.task` cancellation and start.
  case task
}

/// The effects one update pass queued, run after it in a fixed order: every disappear, then
/// every `onDismiss`, then every appear, then `onChange` actions, then task cancellations and
/// starts; within a phase,
/// in the order they were queued (the pass's evaluation order: parents before children, and
/// shallower dirty views before deeper ones elsewhere in the tree).
///
/// ``next()`` hands them out one at a time from the batch being run, so a run nested in an
/// effect (one that closes the host, whose `close()` runs what is pending before ending every
/// identity) continues that batch instead of leaving its rest to run after the views ended.
@MainActor
struct EffectQueue {
  private var phases = Self.noEffects
  private static let noEffects = [[@MainActor () -> Void]](
    repeating: [], count: EffectPhase.allCases.count)
  /// What is left of the batch being run, in running order.
  private var batch: ArraySlice<@MainActor () -> Void> = []

  var isEmpty: Bool { batch.isEmpty && phases.allSatisfy(\.isEmpty) }

  mutating func append(_ phase: EffectPhase, _ effect: @escaping @MainActor () -> Void) {
    phases[phase.rawValue].append(effect)
  }

  /// Removes and returns the next effect to run: the rest of the batch being run, then (as a
  /// new batch) everything queued since, in running order; nil when nothing is queued.
  mutating func next() -> (@MainActor () -> Void)? {
    if batch.isEmpty {
      if phases.allSatisfy(\.isEmpty) { return nil }
      batch = phases.flatMap { $0 }[...]
      phases = Self.noEffects
    }
    let effect = batch.popFirst()
    // An emptied slice still holds its whole buffer, and with it what the effects captured.
    if batch.isEmpty { batch = [] }
    return effect
  }

  mutating func removeAll() {
    phases = Self.noEffects
    batch = []
  }
}
