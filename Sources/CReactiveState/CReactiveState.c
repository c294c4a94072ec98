#include "CReactiveState.h"

_Thread_local rs_thread_state rs_thread __attribute__((tls_model("initial-exec"))) = {0};
