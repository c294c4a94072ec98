import CReactiveState

/// One-shot registrations armed inside the mutation of a write of a property they read, on
/// the writing thread, when that write has no `willSet` walk (nobody listened to `willSet`
/// of the property when it began): they are installed when the write ends, as if its change
/// came before them.
///
/// Such a write announces itself only at its end, after the store — late, for readers on
/// other threads that may have read the old value. A registration armed inside the mutation
/// itself (from a `didSet` on the backing storage, say, where the macro moves a property's
/// `didSet`) read the property during the write: after the store it saw the new value, and
/// the toolchain's registrar, which announced the write before the mutation, fires it at the
/// next write only. So does this. (Armed before the store, it read the old value: the
/// toolchain then misses this write too, and so does this — the one place where a change
/// made while a one-shot is armed is not delivered, since it is the registration's own
/// thread that is making it.)
///
/// The registration is installed with the property's version as the write leaves it (the
/// version it read plus the write's one move); another thread's write meanwhile makes that
/// version differ, and it fires at once. Nested writes are not told apart: only the innermost
/// write without a `willSet` walk is noted.
final class OwnWriteDeferral {
  private var pending: [(reads: AccessList, onChange: @Sendable () -> Void)] = []

  /// Defers the installation of a one-shot over `list` when this thread is inside the
  /// mutation of a write of a property in it (see the type); returns whether it did.
  @inline(__always)
  static func defers(_ list: AccessList, onChange: @escaping @Sendable () -> Void) -> Bool {
    let thread = rs_current_thread()
    guard let writing = thread.pointee.unannounced_write_slot,
      list.entries.contains(where: { $0.source.toOpaque() == writing })
    else { return false }
    let deferral: OwnWriteDeferral
    if let existing = thread.pointee.deferred_one_shots {
      deferral = Unmanaged<OwnWriteDeferral>.fromOpaque(existing).takeUnretainedValue()
    } else {
      deferral = OwnWriteDeferral()
      thread.pointee.deferred_one_shots = Unmanaged.passRetained(deferral).toOpaque()
    }
    deferral.pending.append((list.copy(), onChange))
    return true
  }

  /// A write without a `willSet` walk of `slot` ended on this thread (its version moved):
  /// installs what was deferred during it.
  @inline(__always)
  static func writeEnded(_ slot: Unmanaged<PropertySlot>) {
    let thread = rs_current_thread()
    guard thread.pointee.unannounced_write_slot == UnsafeMutableRawPointer(slot.toOpaque())
    else { return }
    thread.pointee.unannounced_write_slot = nil
    if thread.pointee.deferred_one_shots != nil { installDeferred(after: slot) }
  }

  @inline(never)
  private static func installDeferred(after slot: Unmanaged<PropertySlot>) {
    let thread = rs_current_thread()
    guard let raw = thread.pointee.deferred_one_shots else { return }
    thread.pointee.deferred_one_shots = nil
    let deferral = Unmanaged<OwnWriteDeferral>.fromOpaque(raw).takeRetainedValue()
    for (reads, onChange) in deferral.pending {
      for index in reads.entries.indices
      where reads.entries[index].source.toOpaque() == slot.toOpaque() {
        // The write moved the version by two after the read (see `endUnannouncedMutation`).
        reads.entries[index].version &+= 2
      }
      OneShotObserver.install(reads, onChange: onChange)
    }
  }
}
