/// What a derived value's last computation read, in order, with the versions it saw.
///
/// A manually managed buffer of retained sources: a recomputation that reads the same
/// sources again overwrites versions in place with no reference counting and no
/// allocation; a different source swaps one retain for another. Owned by the node's compute
/// lock.
struct InputList {
  struct Input {
    /// Retained by the list (manually, so copies of entries cost no reference counting).
    let source: Unmanaged<SourceNode>
    var version: UInt64
  }

  private var buffer: UnsafeMutablePointer<Input>?
  private var capacity = 0
  /// Entries filled by the current (or last) computation.
  private(set) var count = 0
  /// Entries holding a retained source (≥ count between computations' ends).
  private var retained = 0

  /// Starts refilling from the first entry.
  mutating func restart() { count = 0 }

  /// Records the next input.
  mutating func append(_ source: SourceNode, version: UInt64) {
    if count < retained
      && buffer![count].source.toOpaque() == Unmanaged.passUnretained(source).toOpaque()
    {
      buffer![count].version = version
      count += 1
    } else {
      append(retaining: .passRetained(source), version: version)
    }
  }

  /// Records the next input, taking over a retain the caller already holds on `source`.
  mutating func append(retaining source: Unmanaged<SourceNode>, version: UInt64) {
    if count < retained {
      let old = buffer![count].source
      buffer![count] = Input(source: source, version: version)
      old.release()
    } else {
      if count == capacity { grow() }
      (buffer! + count).initialize(to: Input(source: source, version: version))
      retained += 1
    }
    count += 1
  }

  /// Releases entries the last computation did not reach.
  mutating func trim() {
    while retained > count {
      retained -= 1
      buffer![retained].source.release()
    }
  }

  /// The filled entries.
  var inputs: UnsafeBufferPointer<Input> { UnsafeBufferPointer(start: buffer, count: count) }

  /// Releases everything (the node is going away).
  mutating func removeAll() {
    count = 0
    trim()
    buffer?.deallocate()
    buffer = nil
    capacity = 0
  }

  private mutating func grow() {
    let newCapacity = max(4, capacity * 2)
    let grown = UnsafeMutablePointer<Input>.allocate(capacity: newCapacity)
    if let buffer {
      grown.moveInitialize(from: buffer, count: retained)
      buffer.deallocate()
    }
    buffer = grown
    capacity = newCapacity
  }
}
