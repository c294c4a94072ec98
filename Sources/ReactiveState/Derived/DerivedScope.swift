/// How a derived value's computation records what it reads: the node's inputs, in order,
/// and its upstream links while it has subscribers.
extension DerivedNode {
  /// ``track(_:stamp:readAt:)`` of a read made now, out of line and static: the scope's
  /// `record` reaches it with a jump (its register for `self` stays its own; a closure holding
  /// this body was called through a frame of its own).
  @inline(never)
  static func trackRead(_ source: SourceNode, by node: DerivedNode, stamp: UInt64) {
    node.track(source, stamp: stamp, firstReadChecked: true)
  }

  /// Records an input read during a computation (computing thread), now or, by a nested
  /// one-shot, at `readAt`; links it only when the node has subscribers. `firstReadChecked`:
  /// the caller found `source` not read yet in this computation (see
  /// ``SourceNode/markFirstRead(byScope:)``).
  @inline(__always)
  final func track(
    _ source: SourceNode, stamp: UInt64, readAt: UInt64? = nil, firstReadChecked: Bool = false
  ) {
    if firstReadChecked {
      source.markFirstRead(byScope: stamp)
    } else {
      guard source.isFirstRead(byScope: stamp) else { return }
    }
    let version = readAt ?? source.version.load(ordering: .sequentiallyConsistent)
    // The steady state — the same input as last time, at this position, linked through the
    // next old link — makes no call; anything else is done out of line.
    guard inputs.appendInPlace(source, version: version) else {
      return trackNewInput(source, version: version)
    }
    guard linksInputs else { return }
    guard let reused = reuseNextLink(source, version: version, after: cursor) else {
      return linkInput(source, version: version)
    }
    cursor = reused
  }

  /// ``track(_:stamp:readAt:)`` of a read whose source is not at this position of the inputs.
  @inline(never)
  private func trackNewInput(_ source: SourceNode, version: UInt64) {
    inputs.appendReplacing(source, version: version)
    if linksInputs { cursor = reuseOrLink(source, version: version, after: cursor) }
  }

  /// ``track(_:stamp:readAt:)`` of a read recorded in place whose link is not the next one.
  @inline(never)
  private func linkInput(_ source: SourceNode, version: UInt64) {
    cursor = reuseOrLink(source, version: version, after: cursor)
  }
}

/// The tracking scope of a derived value's computation: its reads become the node's inputs
/// and never leak into the scope that read the derived value.
final class DerivedScope: TrackingScope {
  /// Set once, right after the node is initialised; the node owns this scope.
  @exclusivity(unchecked) var node: Unmanaged<DerivedNode>?

  override func record(_ source: SourceNode) {
    node.unsafelyUnwrapped._withUnsafeGuaranteedRef {
      DerivedNode.trackRead(source, by: $0, stamp: stamp)
    }
  }

  override func record(_ source: SourceNode, readAt version: UInt64) {
    node.unsafelyUnwrapped._withUnsafeGuaranteedRef {
      $0.track(source, stamp: stamp, readAt: version)
    }
  }

  override var subscribesToReads: Bool {
    node.unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.linksInputs }
  }

  override func holdUntilComputationEnds(_ object: AnyObject) {
    DerivedNode.outermostLocked(from: self).hold(object)
  }
}
