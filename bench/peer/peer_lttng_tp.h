/* bench/peer/peer_lttng_tp.h — the LTTng-UST tracepoint provider of scripts/bench-lttng:
 * the sample event Example_Event_1 { Initiator: string; Level: uint32 }. */
#undef LTTNG_UST_TRACEPOINT_PROVIDER
#define LTTNG_UST_TRACEPOINT_PROVIDER pfcpeer

#undef LTTNG_UST_TRACEPOINT_INCLUDE
#define LTTNG_UST_TRACEPOINT_INCLUDE "peer_lttng_tp.h"

#if !defined(PFC_BENCH_PEER_LTTNG_TP_H) || defined(LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ)
#define PFC_BENCH_PEER_LTTNG_TP_H

#include <lttng/tracepoint.h>
#include <stdint.h>

LTTNG_UST_TRACEPOINT_EVENT(pfcpeer, Example_Event_1,
                           LTTNG_UST_TP_ARGS(const char*, initiator, uint32_t, level),
                           LTTNG_UST_TP_FIELDS(lttng_ust_field_string(Initiator, initiator)
                                                   lttng_ust_field_integer(uint32_t, Level, level)))

#endif

#include <lttng/tracepoint-event.h>
