// etw/private_enable.h — EnableTraceEx2 for pfc's own controllers (the pfc command): the
// same call, also accepting the pfc-private descriptor types (the enable extension,
// etw/enable_ext.h). Not part of the C API (not exported from libpfc_etw.so); the public
// EnableTraceEx2 refuses those types with ERROR_INVALID_PARAMETER (docs/etw.md "The pfc
// enable extension" says why).
#pragma once

#include "pfc/etw/evntrace.h"

namespace pfc::etw {

ULONG enable_trace(TRACEHANDLE TraceId, LPCGUID ProviderId, ULONG ControlCode, UCHAR Level,
                   ULONGLONG MatchAnyKeyword, ULONGLONG MatchAllKeyword, ULONG Timeout,
                   PENABLE_TRACE_PARAMETERS EnableParameters, bool allow_private);

}  // namespace pfc::etw
