#include "CReactiveState.h"

#include <sched.h>
#include <stddef.h>
#include <stdatomic.h>
#if defined(__linux__)
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

_Thread_local rs_thread_state rs_thread __attribute__((tls_model("initial-exec"))) = {0};

rs_lock rs_graph_lock = {0};

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
