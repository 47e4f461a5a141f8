/* bench/peer/peer_lttng_tp.c — the probes of peer_lttng_tp.h, linked into peer_lttng. */
#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#define LTTNG_UST_TRACEPOINT_DEFINE
#include "peer_lttng_tp.h"
