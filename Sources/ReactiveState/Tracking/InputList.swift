/// What a reader read, in order, with the versions it saw: a derived value's last
/// computation, a continuous observer's derived inputs, a one-shot observer's `apply`.
///
/// A manually managed buffer of retained sources that outlives each use: a reader that reads
/// the same sources again overwrites versions in place with no reference counting and no
/// allocation; a different source swaps one retain for another. Owned by its reader (a
/// node's compute lock, an observer's running thread, an access list's thread).
struct InputList {
  struct Input {
    /// Retained by the list (manually, so copies of entries cost no reference counting).
    let source: Unmanaged<SourceNode>
    var version: UInt64
  }

  private var buffer: UnsafeMutablePointer<Input>?
  // Layout: 32-bit counts, so the list takes three words of its owner's fields, which a
  // change through a derived value or an observer touches.
  private var storedCount: UInt32 = 0
  private var storedRetained: UInt32 = 0
  private var storedCapacity: UInt32 = 0
  /// Whether `buffer` was allocated by the list (false: storage its owner lent it, see
  /// ``init(lending:capacity:)``, which the list never frees).
  private var ownsBuffer = true

  /// Entries filled by the current (or last) use.
  private(set) var count: Int {
    get { Int(storedCount) }
    set { storedCount = UInt32(truncatingIfNeeded: newValue) }
  }
  /// Entries holding a retained source (≥ count).
  private var retained: Int {
    get { Int(storedRetained) }
    set { storedRetained = UInt32(truncatingIfNeeded: newValue) }
  }
  /// Entries the buffer holds.
  private(set) var capacity: Int {
    get { Int(storedCapacity) }
    set { storedCapacity = UInt32(truncatingIfNeeded: newValue) }
  }

  /// An empty list.
  init() {}

  /// An empty list that starts in `capacity` entries of its owner's storage, which must
  /// outlive it; it moves to a buffer of its own only when it outgrows them.
  init(lending storage: UnsafeMutablePointer<Input>, capacity: Int) {
    buffer = storage
    self.capacity = capacity
    ownsBuffer = false
  }

  /// Starts refilling from the first entry.
  mutating func restart() { count = 0 }

  /// Records the next input: a retained entry already holding `source` is reused as is.
  @inline(__always)
  mutating func append(_ source: SourceNode, version: UInt64) {
    if !appendInPlace(source, version: version) { appendReplacing(source, version: version) }
  }

  /// ``append(_:version:)`` when the next entry already holds `source` (a reader reading the
  /// same sources again): updates its version and returns true; otherwise changes nothing.
  @inline(__always)
  mutating func appendInPlace(_ source: SourceNode, version: UInt64) -> Bool {
    guard count < retained,
      buffer.unsafelyUnwrapped[count].source.toOpaque()
        == Unmanaged.passUnretained(source).toOpaque()
    else { return false }
    buffer.unsafelyUnwrapped[count].version = version
    count += 1
    return true
  }

  /// ``append(_:version:)`` when the entry at `count` does not already hold `source`.
  @inline(never)
  mutating func appendReplacing(_ source: SourceNode, version: UInt64) {
    let identity = Unmanaged.passUnretained(source)
    if count < retained {
      let old = buffer![count].source
      if old.toOpaque() != identity.toOpaque() {
        buffer![count] = Input(source: identity.retain(), version: version)
        old.release()
      } else {
        buffer![count].version = version
      }
    } else {
      if count == capacity { grow() }
      (buffer! + count).initialize(to: Input(source: identity.retain(), version: version))
      retained += 1
    }
    count += 1
  }

  /// Releases entries the last use did not reach.
  @inline(__always)
  mutating func trim() {
    if retained > count { release(from: count) }
  }

  /// Releases entries the last use did not reach, except a leading run of them that `keep`
  /// accepts (kept retained for the next use).
  mutating func trim(keeping keep: (SourceNode) -> Bool) {
    var kept = count
    while kept < retained && buffer![kept].source._withUnsafeGuaranteedRef(keep) { kept += 1 }
    release(from: kept)
  }

  /// The filled entries (versions may be updated in place).
  var inputs: UnsafeMutableBufferPointer<Input> {
    UnsafeMutableBufferPointer(start: buffer, count: count)
  }

  /// Releases everything (the reader is going away).
  mutating func removeAll() {
    count = 0
    trim()
    if ownsBuffer { buffer?.deallocate() }
    buffer = nil
    capacity = 0
    ownsBuffer = true
  }

  @inline(never)
  private mutating func release(from index: Int) {
    while retained > index {
      retained -= 1
      buffer![retained].source.release()
    }
  }

  private mutating func grow() {
    let newCapacity = max(4, capacity * 2)
    let grown = UnsafeMutablePointer<Input>.allocate(capacity: newCapacity)
    if let buffer {
      grown.moveInitialize(from: buffer, count: retained)
      if ownsBuffer { buffer.deallocate() }
    }
    buffer = grown
    capacity = newCapacity
    ownsBuffer = true
  }
}
