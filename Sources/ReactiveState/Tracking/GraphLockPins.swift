import CReactiveState

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Strong references that code holding ``GraphLock`` takes on the nodes it reaches through
/// unowned links — in unoptimised builds only — released right after the lock is.
///
/// Under the lock, nodes are reached through unowned links: one whose last owner lets go on
/// another thread meanwhile stays allocated, because its deinitialiser first waits for the
/// lock. Optimised code never retains such a node. Unoptimised code retains and releases a
/// reference around many member accesses, and that release can be the last one: the node
/// would be deinitialised on this thread, under the lock its deinitialiser takes — a
/// deadlock. A pin keeps every such release from being the last. A node already being
/// deinitialised is not pinned (`swift_tryRetain` fails), and transient retains cannot
/// deinitialise it again.
enum GraphLockPins {
  /// Pins `node` for the rest of this thread's hold of the graph lock (caller holds it).
  @inline(__always)
  static func pin<Node: AnyObject>(_ node: Unmanaged<Node>) {
    if BuildConfiguration.isUnoptimised { pinUnoptimised(node.toOpaque()) }
  }

  /// After ``GraphLock/unlock()``: releases this thread's pins.
  @inline(__always)
  static func releaseAfterUnlock() {
    if BuildConfiguration.isUnoptimised && rs_current_thread().pointee.graph_lock_pin_count != 0 {
      releaseAll()
    }
  }

  @inline(never)
  private static func pinUnoptimised(_ object: UnsafeMutableRawPointer) {
    guard swift_tryRetain(object) != nil else { return }
    let thread = rs_current_thread()
    let count = Int(thread.pointee.graph_lock_pin_count)
    if count == Int(thread.pointee.graph_lock_pin_capacity) {
      let capacity = max(16, count * 2)
      let grown = realloc(
        thread.pointee.graph_lock_pins, capacity * MemoryLayout<UnsafeMutableRawPointer>.stride)!
      thread.pointee.graph_lock_pins = grown.assumingMemoryBound(to: UnsafeMutableRawPointer.self)
      thread.pointee.graph_lock_pin_capacity = UInt64(capacity)
    }
    thread.pointee.graph_lock_pins.unsafelyUnwrapped[count] = object
    thread.pointee.graph_lock_pin_count = UInt64(count + 1)
  }

  @inline(never)
  private static func releaseAll() {
    // Taken first: a release may deinitialise a node, whose deinitialiser locks (and pins)
    // again.
    let thread = rs_current_thread()
    let pins = thread.pointee.graph_lock_pins.unsafelyUnwrapped
    let count = Int(thread.pointee.graph_lock_pin_count)
    thread.pointee.graph_lock_pins = nil
    thread.pointee.graph_lock_pin_count = 0
    thread.pointee.graph_lock_pin_capacity = 0
    for index in 0..<count {
      Unmanaged<AnyObject>.fromOpaque(pins[index]).release()
    }
    free(pins)
  }
}
