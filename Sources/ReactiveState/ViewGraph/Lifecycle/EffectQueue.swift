/// When a post-pass effect runs relative to the others queued by the same pass.
enum EffectPhase: Int, CaseIterable {
  /// `onDisappear` of identities that ended.
  case disappear
  /// `onAppear` of identities that were mounted.
  case appear
  /// `onChange(of:)` actions.
  case change
  /// `.task` cancellation and start.
  case task
}

/// The effects one update pass queued, run after it in a fixed order: every disappear, then
/// every appear, then `onChange` actions, then task cancellations and starts; within a phase,
/// in the order they were queued (tree order).
@MainActor
struct EffectQueue {
  private var phases: [[@MainActor () -> Void]] = Array(repeating: [], count: 4)

  var isEmpty: Bool { phases.allSatisfy(\.isEmpty) }

  mutating func append(_ phase: EffectPhase, _ effect: @escaping @MainActor () -> Void) {
    phases[phase.rawValue].append(effect)
  }

  /// Removes and returns everything queued, in running order.
  mutating func takeAll() -> [@MainActor () -> Void] {
    let all = phases.flatMap { $0 }
    phases = Array(repeating: [], count: 4)
    return all
  }

  mutating func removeAll() { phases = Array(repeating: [], count: 4) }
}
