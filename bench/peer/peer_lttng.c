/* bench/peer/peer_lttng.c — LTTng-UST's side of scripts/bench-lttng: the sample event as
 * the tracepoint pfcpeer:Example_Event_1 (bench/peer/peer_lttng_tp.h). Registration with
 * the session daemon happens in liblttng-ust's constructor, before main. Modes:
 * bench/peer/peer_main.h. */
#include "peer_lttng_tp.h"

static int peer_init(void) { return 0; }

static inline void peer_write(uint32_t level) {
  lttng_ust_tracepoint(pfcpeer, Example_Event_1, "User", level);
}

static int peer_enabled(void) { return lttng_ust_tracepoint_enabled(pfcpeer, Example_Event_1); }

static void peer_fini(void) {}

static inline void peer_loop(char kind, uint64_t n) {
  if (kind == 'g') {
    for (uint64_t i = 0; i < n; ++i)
      if (lttng_ust_tracepoint_enabled(pfcpeer, Example_Event_1)) peer_write((uint32_t)(i % 20));
  } else {
    for (uint64_t i = 0; i < n; ++i) peer_write((uint32_t)(i % 20));
  }
}

#include "peer_main.h"
