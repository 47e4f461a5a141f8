/* bench/peer/peer_pfc.c — pfc's side of scripts/bench-lttng: the sample event through the
 * ETW-compatible API (EventRegister / EventWrite with two data descriptors / EventEnabled).
 * Modes: bench/peer/peer_main.h. */
#include <pfc/etw/evntprov.h>
#include <stdio.h>

/* {7c1f4a52-3e0b-4d7a-9a51-5fc0de11aa01}: the provider the scripts of scripts/bench-lttng enable */
static const GUID kProvider = {
    0x7c1f4a52, 0x3e0b, 0x4d7a, {0x9a, 0x51, 0x5f, 0xc0, 0xde, 0x11, 0xaa, 0x01}};
static const EVENT_DESCRIPTOR kEvent1 = {1, 0, 0, 1, 0, 0, 0}; /* id 1, level 1 */
static const WCHAR kUser[] = u"User";
static REGHANDLE handle;

static int peer_init(void) {
  const ULONG rc = EventRegister(&kProvider, NULL, NULL, &handle);
  if (rc != ERROR_SUCCESS) fprintf(stderr, "peer_pfc: EventRegister failed: %u\n", (unsigned)rc);
  return rc != ERROR_SUCCESS;
}

static inline void peer_write(uint32_t level) {
  EVENT_DATA_DESCRIPTOR data[2];
  EventDataDescCreate(&data[0], kUser, sizeof kUser);
  EventDataDescCreate(&data[1], &level, sizeof level);
  EventWrite(handle, &kEvent1, 2, data);
}

static int peer_enabled(void) { return EventEnabled(handle, &kEvent1); }

static void peer_fini(void) { EventUnregister(handle); }

static inline void peer_loop(char kind, uint64_t n) {
  if (kind == 'g') {
    for (uint64_t i = 0; i < n; ++i)
      if (EventEnabled(handle, &kEvent1)) peer_write((uint32_t)(i % 20));
  } else {
    for (uint64_t i = 0; i < n; ++i) peer_write((uint32_t)(i % 20));
  }
}

#include "peer_main.h"
