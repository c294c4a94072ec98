#include "CReactiveState.h"

#include <sched.h>
#include <stdatomic.h>
#if defined(__linux__)
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

_Thread_local rs_thread_state rs_thread __attribute__((tls_model("initial-exec"))) = {0};

rs_lock rs_graph_lock = {0};

static inline void rs_cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  __asm__ __volatile__("yield");
#endif
}

static void rs_lock_wait(_Atomic(uint32_t) *word) {
#if defined(__linux__)
  syscall(SYS_futex, (uint32_t *)word, FUTEX_WAIT_PRIVATE, 2, NULL, NULL, 0);
#else
  sched_yield();
#endif
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
        atomic_compare_exchange_weak_explicit(word, &expected, 1, memory_order_acquire,
                                              memory_order_relaxed)) {
      return;
    }
  }
  // Mark the lock contended (2) so the holder wakes someone on release.
  while (atomic_exchange_explicit(word, 2, memory_order_acquire) != 0) {
    rs_lock_wait(word);
  }
}
