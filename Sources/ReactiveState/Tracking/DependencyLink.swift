import CReactiveState
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One dependency edge: `subscriber` read `source`.
///
/// A link sits on two intrusive doubly-linked lists at once — the source's subscriber list
/// (`prevSubscriber`/`nextSubscriber`) and the subscriber's dependency list
/// (`previousDependency`/`nextDependency`) — so inserting at a cursor and unlinking from both
/// sides are O(1) with no hashing. Links are manually allocated and recycled through a free
/// list; every field is guarded by ``GraphLock``, except that a running continuous observer
/// reads its own dependency list (and writes `version`) without it: nobody else changes a
/// running subscriber's dependency list. A link whose source was deallocated while its
/// subscriber was running is detached from the source's side only: `previousSubscriber ==
/// self` marks it, and its `sourceNode` becomes ``departedSource`` (see
/// ``LinkPointer/refers(to:)``).
struct DependencyLink {
  /// Unretained both ways: a source unlinks every edge before it goes away, and a subscriber
  /// unlinks its dependencies before it does. Hot paths use these references through
  /// `_withUnsafeGuaranteedRef`, which costs no reference counting.
  ///
  /// The first field, so its address is the link's: a running subscriber loads it atomically
  /// (``LinkPointer/refers(to:)``) while a deallocation may replace it under the lock.
  var sourceNode: Unmanaged<SourceNode>
  var subscriberNode: Unmanaged<ReactiveNode>
  var previousSubscriber: LinkPointer?
  var nextSubscriber: LinkPointer?
  var previousDependency: LinkPointer?
  var nextDependency: LinkPointer?
  /// The source's version when the subscriber last read it through this link.
  var version: UInt64

  /// What a detached link refers to once its source is gone: an address no live source has.
  static let departedSource = SourceNode()
  /// Names the source of a `.deinitialized` delivery that only ends a registration: a derived
  /// value went, and no object read through it went unreported (see
  /// ``ReactiveNode/DerivedValueDeparture``).
  static let silentlyDepartedSource = SourceNode()

  /// The source (a strong reference: use `sourceNode` on hot paths).
  var source: SourceNode { sourceNode.takeUnretainedValue() }
  /// The subscriber (a strong reference: use `subscriberNode` on hot paths).
  var subscriber: ReactiveNode { subscriberNode.takeUnretainedValue() }
}

extension UnsafeMutablePointer where Pointee == DependencyLink {
  /// Whether this link's source is `source`, by address, without the lock: a running
  /// subscriber matching its reads against its own dependency list. A link whose source was
  /// deallocated meanwhile refers to ``DependencyLink/departedSource``, so it never matches
  /// a new object allocated at the freed one's address. Nothing is dereferenced or retained.
  @inline(__always)
  func refers(to source: SourceNode) -> Bool {
    rs_load_word_relaxed(sourceWord) == Unmanaged.passUnretained(source).toOpaque()
  }

  /// Marks the link's source as gone (graph lock; see ``refers(to:)``).
  func noteSourceDeparted() {
    rs_store_word_relaxed(
      sourceWord, Unmanaged.passUnretained(DependencyLink.departedSource).toOpaque())
  }

  /// The address of `sourceNode`, the first field.
  @inline(__always)
  private var sourceWord: UnsafeMutablePointer<UnsafeMutableRawPointer> {
    UnsafeMutableRawPointer(self).assumingMemoryBound(to: UnsafeMutableRawPointer.self)
  }
}

typealias LinkPointer = UnsafeMutablePointer<DependencyLink>

/// Free list of link records. Guarded by ``GraphLock``.
///
/// Kept short on purpose: a long list handed out records freed in a burst long ago (say,
/// 100,000 one-shot registrations firing at once), scattered over the heap and cold, so a graph
/// built afterwards walked them with a cache miss each (a 1000-deep derived chain measured
/// 57 ns per node after such a burst with 4,096 kept, 51 ns with 256). Beyond the limit,
/// records go back to `malloc`.
enum LinkAllocator {
  nonisolated(unsafe) private static var freeList: LinkPointer?
  nonisolated(unsafe) private static var freeCount = 0
  private static let maximumFree = 256

  /// Allocates a link (caller holds the graph lock).
  static func make(source: SourceNode, subscriber: ReactiveNode, version: UInt64) -> LinkPointer {
    let link: LinkPointer
    if let recycled = freeList {
      freeList = recycled.pointee.nextDependency
      freeCount -= 1
      link = recycled
    } else {
      // `malloc`, not `allocate(capacity:)`: the latter goes through the aligned-allocation
      // path on this platform, several times slower for a 56-byte record.
      link = malloc(MemoryLayout<DependencyLink>.stride)!.bindMemory(
        to: DependencyLink.self, capacity: 1)
    }
    link.initialize(
      to: DependencyLink(
        sourceNode: .passUnretained(source), subscriberNode: .passUnretained(subscriber),
        previousSubscriber: nil, nextSubscriber: nil,
        previousDependency: nil, nextDependency: nil, version: version))
    return link
  }

  /// Returns a link to the free list (caller holds the graph lock).
  static func recycle(_ link: LinkPointer) {
    if freeCount < maximumFree {
      link.pointee.nextDependency = freeList
      freeList = link
      freeCount += 1
    } else {
      free(link)
    }
  }
}
