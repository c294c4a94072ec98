import CReactiveState

/// One-shot registrations armed inside the mutation of a write of a property they read, on
/// the writing thread, when that write has no `willSet` walk (nobody listened to `willSet`
/// of the property when it began): they are installed when the write ends, as if its change
/// came before them. That holds for the plain form and for an options-form registration that
/// waits for `willSet` only (one that requests `.didSet` is linked at once: the toolchain's
/// registrar delivers the `didSet` of a write to a registration armed during it).
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
/// Writes nest (a `didSet` writing another property, or clamping its own): the thread keeps
/// the innermost write without a `willSet` walk in `unannounced_write_slot` and the ones
/// around it here. A registration waits for the outermost of them whose property it read,
/// and is installed with each read property's version as those writes leave it (the version
/// it read plus two per write of it in flight); another thread's write meanwhile makes that
/// version differ, and it fires at once. A write's own end is no longer noted while it
/// announces itself: what its listeners arm then read after its version moved.
///
/// A write that began before its object was observed (no property slots yet) is noted
/// nowhere, to keep that path a load and a branch: what this thread armed inside it is told
/// apart when it ends instead (see `RegistrarStorage.lateMutation(site:keyPath:)`), with the
/// same outcome.
final class OwnWriteDeferral {
  /// The writes without a `willSet` walk in flight on this thread around the innermost one,
  /// outermost first.
  private var outer: [UnsafeMutableRawPointer] = []
  /// Deferred registrations, each with the index (in `outer` + innermost) of the write it
  /// waits for.
  private var pending: [(reads: AccessList, install: (AccessList) -> Void, write: Int)] = []

  /// This thread's state, created if needed.
  private static func current(_ thread: UnsafeMutablePointer<rs_thread_state>) -> OwnWriteDeferral {
    if let existing = thread.pointee.deferred_one_shots {
      return Unmanaged<OwnWriteDeferral>.fromOpaque(existing).takeUnretainedValue()
    }
    let state = OwnWriteDeferral()
    thread.pointee.deferred_one_shots = Unmanaged.passRetained(state).toOpaque()
    return state
  }

  /// A write without a `willSet` walk of `slot` begins on this thread.
  @inline(__always)
  static func writeBegins(_ slot: Unmanaged<PropertySlot>) {
    let thread = rs_current_thread()
    if let enclosing = thread.pointee.unannounced_write_slot {
      current(thread).outer.append(enclosing)
    }
    thread.pointee.unannounced_write_slot = UnsafeMutableRawPointer(slot.toOpaque())
  }

  /// The slots of the writes without a `willSet` walk in flight on this thread, outermost
  /// first (empty outside any).
  static func unannouncedWritesInFlight() -> [UnsafeMutableRawPointer] {
    let thread = rs_current_thread()
    guard let innermost = thread.pointee.unannounced_write_slot else { return [] }
    let outer =
      thread.pointee.deferred_one_shots.map {
        Unmanaged<OwnWriteDeferral>.fromOpaque($0).takeUnretainedValue().outer
      } ?? []
    return outer + [innermost]
  }

  /// Defers the installation of a one-shot over `list` when this thread is inside the
  /// mutation of a write of a property in it (see the type); returns whether it did.
  @inline(__always)
  static func defers(_ list: AccessList, onChange: @escaping @Sendable () -> Void) -> Bool {
    guard rs_current_thread().pointee.unannounced_write_slot != nil else { return false }
    return defers(list) { OneShotObserver.install($0, onChange: onChange) }
  }

  /// ``defers(_:onChange:)`` for an options-form registration that waits for `willSet` only
  /// (see the type).
  @inline(__always)
  static func defers(
    _ list: AccessList, options: ObservationTracking.Options,
    onChange: @escaping @Sendable (ObservationTracking.Event) -> Void
  ) -> Bool {
    guard options.contains(.willSet), !options.contains(.didSet),
      rs_current_thread().pointee.unannounced_write_slot != nil
    else { return false }
    return defers(list) {
      EventObserver.install($0, options: options, onChange: onChange)
    }
  }

  /// Defers `install` of `list` when the list reads a property whose write is in flight.
  @inline(never)
  private static func defers(_ list: AccessList, install: @escaping (AccessList) -> Void) -> Bool {
    let inFlight = unannouncedWritesInFlight()
    guard
      let write = inFlight.firstIndex(where: { slot in
        list.entries.contains { $0.source.toOpaque() == slot }
      })
    else { return false }
    let reads = list.copy()
    for index in reads.entries.indices {
      let source = reads.entries[index].source.toOpaque()
      // Each write of it in flight moves the version by two after the read (see
      // `endUnannouncedMutation`).
      let writes = inFlight.reduce(0) { $1 == source ? $0 + 1 : $0 }
      reads.entries[index].version &+= 2 &* UInt64(writes)
    }
    current(rs_current_thread()).pending.append((reads, install, write))
    return true
  }

  /// A write without a `willSet` walk of `slot` ends on this thread, before it announces
  /// itself: it is no longer noted. Returns the index of the write when registrations may
  /// wait for it (pass it to ``installDeferred(waitingFor:)`` once it has announced itself).
  @inline(__always)
  static func writeEnds(_ slot: Unmanaged<PropertySlot>) -> Int? {
    let thread = rs_current_thread()
    guard thread.pointee.unannounced_write_slot == UnsafeMutableRawPointer(slot.toOpaque())
    else { return nil }
    guard let raw = thread.pointee.deferred_one_shots else {
      thread.pointee.unannounced_write_slot = nil
      return nil
    }
    let state = Unmanaged<OwnWriteDeferral>.fromOpaque(raw).takeUnretainedValue()
    let index = state.outer.count
    thread.pointee.unannounced_write_slot = state.outer.popLast()
    return index
  }

  /// Installs what waited for the write at `index` (or one inside it).
  @inline(never)
  static func installDeferred(waitingFor index: Int) {
    let thread = rs_current_thread()
    guard let raw = thread.pointee.deferred_one_shots else { return }
    let state = Unmanaged<OwnWriteDeferral>.fromOpaque(raw).takeUnretainedValue()
    // The outermost write ends with index 0: then nothing stays deferred.
    let due = state.pending.filter { $0.write >= index }
    state.pending.removeAll { $0.write >= index }
    if state.pending.isEmpty && state.outer.isEmpty {
      thread.pointee.deferred_one_shots = nil
      Unmanaged<OwnWriteDeferral>.fromOpaque(raw).release()
    }
    // Installing may arm more (an `onChange` fired at once): they see the state as it is now.
    for (reads, install, _) in due { install(reads) }
  }
}
