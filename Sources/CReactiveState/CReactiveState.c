#include "CReactiveState.h"

#include <sched.h>
#include <stddef.h>
#include <stdatomic.h>
#if defined(__linux__)
#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#endif

_Thread_local rs_thread_state rs_thread __attribute__((tls_model("initial-exec"))) = {0};

rs_lock rs_graph_lock = {0};
_Atomic(uint64_t) rs_storage_epoch = 0;

static _Atomic(uint32_t) rs_last_thread_tag = 0;

uint32_t rs_assign_thread_tag(void) {
  uint32_t tag;
  do {  // 0 means "none": skipped when the counter wraps
    tag = atomic_fetch_add_explicit(&rs_last_thread_tag, 1, memory_order_relaxed) + 1;
  } while (tag == 0);
  rs_thread.thread_tag = tag;
  return tag;
}

void rs_classify_thread(void) {
#if defined(__linux__)
  rs_thread.thread_kind = syscall(SYS_gettid) == getpid() ? 1 : 2;
#else
  rs_thread.thread_kind = 2;  // no confined fast path elsewhere
#endif
}

int rs_is_main_thread_slow(void) {
  if (rs_thread.thread_kind == 0) rs_classify_thread();
  return rs_thread.thread_kind == 1;
}

#if defined(__linux__)
#include <linux/membarrier.h>
#include <pthread.h>

static int rs_barrier_state = 0;  // 1 available, 2 not
static pthread_once_t rs_barrier_once = PTHREAD_ONCE_INIT;

static void rs_register_process_barrier(void) {
  long commands = syscall(SYS_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
  int usable = commands > 0 && (commands & MEMBARRIER_CMD_PRIVATE_EXPEDITED) &&
               syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0;
  rs_barrier_state = usable ? 1 : 2;
}

int rs_process_barrier_available(void) {
  pthread_once(&rs_barrier_once, rs_register_process_barrier);
  return rs_barrier_state == 1;
}

void rs_process_barrier(void) {
  // The fence covers this thread; the system call, every other running thread.
  atomic_thread_fence(memory_order_seq_cst);
  syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0);
  atomic_thread_fence(memory_order_seq_cst);
}
#else
int rs_process_barrier_available(void) { return 0; }
void rs_process_barrier(void) { atomic_thread_fence(memory_order_seq_cst); }
#endif

// Called from Swift (`_closureCodeAddress` in CallSite.swift) with a non-escaping closure
// argument, which the Swift calling convention passes as (function, context) in the first two
// argument registers: here, the two parameters. Not declared in the header, so Swift sees only
// its own declaration of the symbol.
// On the two architectures Swift runs on here it is written without a stack frame (it sits on
// every registrar call that inspects a key path).
const void *rs_closure_code_address(const void *function, const void *context);
#if defined(__x86_64__)
__attribute__((naked)) const void *rs_closure_code_address(const void *function,
                                                          const void *context) {
  __asm__("xorl %eax, %eax\n\t"
          "testq %rsi, %rsi\n\t"
          "cmoveq %rdi, %rax\n\t"
          "retq");
}
#elif defined(__aarch64__)
__attribute__((naked)) const void *rs_closure_code_address(const void *function,
                                                          const void *context) {
  __asm__("cmp x1, #0\n\t"
          "csel x0, x0, xzr, eq\n\t"
          "ret");
}
#else
const void *rs_closure_code_address(const void *function, const void *context) {
  return context == NULL ? function : NULL;
}
#endif

static inline void rs_cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  __asm__ __volatile__("yield");
#endif
}

void rs_thread_yield(void) { sched_yield(); }

static void rs_lock_wait(_Atomic(uint32_t) *word) {
#if defined(__linux__)
  syscall(SYS_futex, (uint32_t *)word, FUTEX_WAIT_PRIVATE, 2, NULL, NULL, 0);
#else
  sched_yield();
#endif
}

int rs_lock_acquire_or_wait(rs_lock *lock, uint32_t milliseconds) {
  _Atomic(uint32_t) *word = rs_lock_word(lock);
  if (atomic_exchange_explicit(word, 2, memory_order_seq_cst) == 0) {
    return 1;
  }
#if defined(__linux__)
  struct timespec timeout = {(time_t)(milliseconds / 1000), (long)(milliseconds % 1000) * 1000000};
  syscall(SYS_futex, (uint32_t *)word, FUTEX_WAIT_PRIVATE, 2, &timeout, NULL, 0);
#else
  (void)milliseconds;
  sched_yield();
#endif
  return atomic_exchange_explicit(word, 2, memory_order_seq_cst) == 0;
}

void rs_lock_wake_one(rs_lock *lock) {
#if defined(__linux__)
  syscall(SYS_futex, (uint32_t *)rs_lock_word(lock), FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
#else
  (void)lock;
#endif
}

void rs_lock_acquire_contended(rs_lock *lock) {
  _Atomic(uint32_t) *word = rs_lock_word(lock);
  // Critical sections are short: spinning a little usually beats sleeping.
  for (int spin = 0; spin < 64; spin++) {
    rs_cpu_relax();
    uint32_t expected = 0;
    if (atomic_load_explicit(word, memory_order_relaxed) == 0 &&
        atomic_compare_exchange_weak_explicit(word, &expected, 1, memory_order_seq_cst,
                                              memory_order_relaxed)) {
      return;
    }
  }
  // Mark the lock contended (2) so the holder wakes someone on release.
  while (atomic_exchange_explicit(word, 2, memory_order_seq_cst) != 0) {
    rs_lock_wait(word);
  }
}
