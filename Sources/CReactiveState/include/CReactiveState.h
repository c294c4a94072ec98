#ifndef C_REACTIVE_STATE_H
#define C_REACTIVE_STATE_H

#include <stdatomic.h>
#include <stdint.h>

/// How many nested observer runs reuse the thread's tracking scopes (deeper ones allocate).
#define RS_OBSERVER_SCOPE_LIMIT 32

/// Per-thread state of the tracking engine. Swift has no thread-local storage, and
/// `pthread_getspecific` costs a call; an initial-exec `_Thread_local` is a single load.
typedef struct rs_thread_state {
  /// The innermost active tracking scope on this thread (an unretained Swift object), or NULL.
  void *_Nullable scope;
  /// Thread-unique serial used to stamp recorded reads (see `AccessList`).
  uint64_t serial;
  /// A retained, empty `AccessList` kept for reuse by the next `withObservationTracking`.
  void *_Nullable spare_access_list;
  /// The thread's transaction bookkeeping (a retained Swift object, created on first use and
  /// kept for the thread's lifetime), or NULL.
  void *_Nullable transaction;
  /// Nesting depth of `withTransaction` on this thread (0: none open).
  uint64_t transaction_depth;
  /// Finished one-shot observers kept for reuse (retained Swift objects chained through
  /// their delivery-queue link), and how many there are.
  void *_Nullable observer_pool;
  uint64_t observer_pool_count;
  /// Nonzero once a thread-exit handler that releases the cached objects above is set.
  uint64_t has_exit_cleanup;
  /// Whether this is the process's main thread: 0 not known yet, 1 main, 2 another thread.
  uint64_t thread_kind;
  /// The innermost `ObservationDiagnostics.capture` running on this thread (an unretained
  /// Swift object), or NULL.
  void *_Nullable diagnostics_capture;
  /// The causal depth of the scheduled continuous observer running on this thread (0: none):
  /// a change it makes queues a scheduled observer one deeper (see `ContinuousObserver`).
  uint64_t scheduled_run_depth;
  /// How many `willSet` deliveries (callbacks of a write, before its store) are running on
  /// this thread, one inside another (see `OneShotObserver`).
  uint64_t willset_delivery_depth;
  /// A nonzero 32-bit number unique to the thread (until 2^32 threads took one), assigned at
  /// first use (0: none yet; see `rs_current_thread_tag`).
  uint32_t thread_tag;
  /// How many derived values are being deinitialised on this thread, one inside another's
  /// release (see `DerivedRelease`), and the retained Swift queue of what their releases were
  /// deferred to (NULL when none).
  uint64_t derived_release_depth;
  void *_Nullable derived_release_queue;
  /// The tracking scopes of continuous observers' runs by nesting depth (retained Swift
  /// objects, created on first use at each depth), and how many runs are nested now: a scope
  /// is run state, checked out for one run (see `ObserverScopeStack`).
  void *_Nullable observer_scopes[RS_OBSERVER_SCOPE_LIMIT];
  uint64_t observer_scope_depth;
  /// Unoptimised builds only: the objects this thread pinned while holding the graph lock
  /// (a malloc'd array of retained Swift objects), its size and its capacity (see
  /// `GraphLockPins`).
  void *_Nonnull *_Nullable graph_lock_pins;
  uint64_t graph_lock_pin_count;
  uint64_t graph_lock_pin_capacity;
  /// The scope `withoutObservationTracking` suspended (an unretained Swift object), or NULL:
  /// reads inside the block record nothing, but its writes are still the scope's own.
  void *_Nullable untracked_scope;
  /// The property slot (an unretained Swift object) of the innermost write without a
  /// `willSet` walk whose mutation runs on this thread now, or NULL; and the thread's
  /// `OwnWriteDeferral` (a retained Swift object, or NULL): the writes around that one and the
  /// one-shot registrations armed inside them, installed when those writes end.
  void *_Nullable unannounced_write_slot;
  void *_Nullable deferred_one_shots;
  /// The validation pass open on this thread (0: none): a read of an unlinked derived value,
  /// outside any other such read, numbers one, so each unlinked value it reaches is checked
  /// once however many paths lead to it (see `DerivedNode.validatedInPass`).
  uint64_t validation_pass;
  /// `@Published` writes in progress on this thread (their `objectWillChange` sent, their value
  /// not yet stored), and the actions waiting for the outermost to store (a retained Swift
  /// object, or NULL; see `PublishedWriteScope`).
  uint64_t published_write_depth;
  void *_Nullable after_published_write;
} rs_thread_state;

/// A small mutex: one 32-bit word (0 free, 1 held, 2 held with sleepers). Uncontended
/// acquire and release are one atomic instruction each; contended waiters spin briefly, then
/// sleep on a futex (Linux) or yield. Built from C11 atomics, so ThreadSanitizer sees its
/// acquire/release ordering. Zero-initialised memory is an unlocked lock.
typedef struct rs_lock {
  uint32_t state;
} rs_lock;

/// The out-of-line halves of `rs_lock_acquire` (spin, then sleep) and `rs_lock_release`
/// (wake a sleeper).
void rs_lock_acquire_contended(rs_lock *_Nonnull lock);
/// Gives the processor to another thread (`sched_yield`).
void rs_thread_yield(void);
void rs_lock_wake_one(rs_lock *_Nonnull lock);
/// Acquires the lock if it is free; otherwise sleeps until it is released or `milliseconds`
/// pass (or spuriously less), then tries once more. Returns nonzero when the lock was taken.
/// Marks the lock contended, so its holder wakes a sleeper on release.
int rs_lock_acquire_or_wait(rs_lock *_Nonnull lock, uint32_t milliseconds);

static inline _Atomic(uint32_t) *_Nonnull rs_lock_word(rs_lock *_Nonnull lock) {
  return (_Atomic(uint32_t) *)&lock->state;
}

/// Acquires the lock: one compare-exchange when it is free (inlined into the caller).
/// Sequentially consistent (the same instruction as acquiring on x86): a derived value's
/// refresh reads its inputs' versions after taking its lock, and a propagation walk that moved
/// a version and then sees the lock free (`rs_lock_is_held`) knows every later holder reads
/// the new version.
static inline void rs_lock_acquire(rs_lock *_Nonnull lock) {
  uint32_t expected = 0;
  if (__builtin_expect(!atomic_compare_exchange_strong_explicit(rs_lock_word(lock), &expected, 1,
                                                                memory_order_seq_cst,
                                                                memory_order_relaxed),
                       0)) {
    rs_lock_acquire_contended(lock);
  }
}

/// Acquires the lock if it is free; returns nonzero on success. Never waits.
static inline int rs_lock_try_acquire(rs_lock *_Nonnull lock) {
  uint32_t expected = 0;
  return atomic_compare_exchange_strong_explicit(rs_lock_word(lock), &expected, 1,
                                                 memory_order_seq_cst, memory_order_seq_cst);
}

/// Whether some thread holds the lock now (sequentially consistent; see `rs_lock_acquire`).
static inline int rs_lock_is_held(rs_lock *_Nonnull lock) {
  return atomic_load_explicit(rs_lock_word(lock), memory_order_seq_cst) != 0;
}

/// Releases the lock. Sequentially consistent (an xchg either way on x86): a releaser that
/// then checks a flag set by a failed try-acquire must see it.
static inline void rs_lock_release(rs_lock *_Nonnull lock) {
  if (__builtin_expect(atomic_exchange_explicit(rs_lock_word(lock), 0, memory_order_seq_cst) == 2,
                       0)) {
    rs_lock_wake_one(lock);
  }
}

/// The process-wide dependency-graph lock (see `GraphLock`).
extern rs_lock rs_graph_lock;

static inline rs_lock *_Nonnull rs_graph_lock_pointer(void) { return &rs_graph_lock; }

/// Advanced (relaxed) by every registrar storage that had property slots as it deinitialises:
/// a tracking scope's cached "last read" (a call site and a storage address) is valid only
/// in the epoch it was taken in, since a storage allocated later may reuse the address.
extern _Atomic(uint64_t) rs_storage_epoch;

static inline uint64_t rs_storage_epoch_load(void) {
  return atomic_load_explicit(&rs_storage_epoch, memory_order_relaxed);
}

static inline void rs_storage_epoch_advance(void) {
  atomic_fetch_add_explicit(&rs_storage_epoch, 1, memory_order_relaxed);
}

/// A full memory barrier: orders this thread's earlier stores before its later loads (the
/// store-load ordering a Dekker-style handshake needs). One locked no-op on x86-64, where it
/// is cheaper than `mfence`; a sequentially consistent fence elsewhere and under
/// ThreadSanitizer.
static inline void rs_full_fence(void) {
#if defined(__x86_64__) && !__has_feature(thread_sanitizer)
  __asm__ __volatile__("lock; orl $0, -4(%%rsp)" ::: "memory", "cc");
#else
  atomic_thread_fence(memory_order_seq_cst);
#endif
}

/// Relaxed atomic access to a pointer-sized word that a thread reads without a lock while
/// another may change it under the graph lock (a dependency link's source, see
/// `DependencyLink`): a plain `mov` on x86-64, atomic so the race is defined.
static inline void *_Nonnull rs_load_word_relaxed(void *_Nonnull const *_Nonnull word) {
  return atomic_load_explicit((_Atomic(void *) const *)word, memory_order_relaxed);
}

static inline void rs_store_word_relaxed(void *_Nonnull *_Nonnull word, void *_Nonnull value) {
  atomic_store_explicit((_Atomic(void *) *)word, value, memory_order_relaxed);
}

extern _Thread_local rs_thread_state rs_thread __attribute__((tls_model("initial-exec")));

static inline rs_thread_state *_Nonnull rs_current_thread(void) { return &rs_thread; }

/// The calling thread's open validation pass (0: none; see `validation_pass`).
static inline uint64_t rs_validation_pass(void) { return rs_thread.validation_pass; }

/// Opens (a stamp) or closes (0) the calling thread's validation pass.
static inline void rs_set_validation_pass(uint64_t pass) { rs_thread.validation_pass = pass; }

/// A property's version moved on this thread: an open validation pass takes a new number (a
/// stamp from the thread's serial, nonzero once the pass was opened), so the unlinked
/// derived values it found current before the write are checked again.
static inline void rs_note_version_move(void) {
  if (rs_thread.validation_pass != 0) rs_thread.validation_pass = ++rs_thread.serial;
}

/// The calling thread's observer scopes by nesting depth (`RS_OBSERVER_SCOPE_LIMIT` entries).
static inline void *_Nullable *_Nonnull rs_observer_scopes(void) {
  return rs_thread.observer_scopes;
}

static inline void *_Nullable rs_current_scope(void) { return rs_thread.scope; }

/// Assigns the calling thread its `thread_tag` (out of line: once per thread).
uint32_t rs_assign_thread_tag(void);

/// The calling thread's tag: a 32-bit identity small enough to fit in an object's padding.
static inline uint32_t rs_current_thread_tag(void) {
  uint32_t tag = rs_thread.thread_tag;
  return tag != 0 ? tag : rs_assign_thread_tag();
}

/// Classifies the calling thread (fills `thread_kind`).
void rs_classify_thread(void);

/// ``rs_is_main_thread`` for a thread not classified as the main thread: classifies it if it
/// is not classified yet, then answers (out of line: other threads rarely ask).
int rs_is_main_thread_slow(void);

/// Whether the calling thread is the process's main thread (where the main actor runs). On
/// the main thread one compare (the main-actor registrar's writes ask on every version move).
static inline int rs_is_main_thread(void) {
  return __builtin_expect(rs_thread.thread_kind == 1, 1) ? 1 : rs_is_main_thread_slow();
}

/// Whether ``rs_process_barrier`` is available (Linux `membarrier`, registered on first call).
int rs_process_barrier_available(void);

/// A full memory barrier on every running thread of the process (Linux `membarrier`,
/// private expedited): the slow side of an asymmetric handshake whose fast side, on the
/// main thread, uses plain stores and loads. Only valid once
/// ``rs_process_barrier_available`` returned nonzero.
void rs_process_barrier(void);

/// The Swift runtime's conditional retain (exported by every Swift runtime; weak references
/// load through it): takes a strong reference to `object` and returns it, unless the object
/// is already being deinitialised, in which case it changes nothing and returns NULL.
extern void *_Nullable swift_tryRetain(void *_Nonnull object);

static inline void rs_set_current_scope(void *_Nullable scope) { rs_thread.scope = scope; }

#endif
