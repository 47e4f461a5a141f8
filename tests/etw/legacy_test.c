/* tests/etw/legacy_test.c — classic providers: RegisterTraceGuidsW / UnregisterTraceGuids
 * errors, WMI_ENABLE_EVENTS / WMI_DISABLE_EVENTS with the logger handle read through
 * GetTraceEnableLevel / GetTraceEnableFlags (32-bit flags), one session at a time with
 * the last enabler winning (also for sessions that enabled before registration), no
 * 8-session cap, and TraceEvent delivery. */
#include <string.h>

#include "etw_test.h"
#include "etw_util.h"

typedef struct {
  int count;
  WMIDPREQUESTCODE codes[32];
  TRACEHANDLE loggers[32];
} ControlLog;

static ULONG control_callback(WMIDPREQUESTCODE code, PVOID context, ULONG* size, PVOID buffer) {
  ControlLog* log = (ControlLog*)context;
  (void)size;
  if (log->count < 32) {
    log->codes[log->count] = code;
    log->loggers[log->count] = GetTraceLoggerHandle(buffer);
    ++log->count;
  }
  return ERROR_SUCCESS;
}

static ULONG dummy_callback(WMIDPREQUESTCODE code, PVOID context, ULONG* size, PVOID buffer) {
  (void)code, (void)context, (void)size, (void)buffer;
  return ERROR_SUCCESS;
}

TEST(register_trace_guids_errors) {
  GUID g = test_guid(0x400, 1);
  TRACEHANDLE h = 5;
  TRACE_GUID_REGISTRATION reg = {&g, NULL};
  CHECK_EQ(RegisterTraceGuidsW(dummy_callback, NULL, &g, 0, NULL, NULL, NULL, NULL),
           ERROR_INVALID_PARAMETER);
  CHECK_EQ(RegisterTraceGuidsW(NULL, NULL, &g, 0, NULL, NULL, NULL, &h), ERROR_INVALID_PARAMETER);
  CHECK_EQ(h, 0);
  CHECK_EQ(RegisterTraceGuidsW(dummy_callback, NULL, NULL, 0, NULL, NULL, NULL, &h),
           ERROR_INVALID_PARAMETER);
  CHECK_EQ(RegisterTraceGuidsW(dummy_callback, NULL, &g, 1, NULL, NULL, NULL, &h),
           ERROR_INVALID_PARAMETER);
  CHECK_EQ(UnregisterTraceGuids(0), ERROR_INVALID_HANDLE);
  CHECK_EQ(RegisterTraceGuidsW(dummy_callback, NULL, &g, 1, &reg, NULL, NULL, &h), ERROR_SUCCESS);
  CHECK(h != 0);
  CHECK(reg.RegHandle != NULL);
  CHECK_EQ(EventUnregister(h), ERROR_INVALID_HANDLE); /* not a modern registration */
  EVENT_DESCRIPTOR d;
  EventDescCreate(&d, 1, 0, 0, 0, 0, 0, 0);
  CHECK_EQ(EventWrite(h, &d, 0, NULL), ERROR_INVALID_HANDLE);
  CHECK(!EventEnabled(h, &d));
  REGHANDLE modern;
  CHECK_EQ(EventRegister(&g, NULL, NULL, &modern), 0);
  CHECK_EQ(UnregisterTraceGuids(modern), ERROR_INVALID_HANDLE);
  CHECK_EQ(EventUnregister(modern), 0);
  CHECK_EQ(UnregisterTraceGuids(h), ERROR_SUCCESS);
  CHECK_EQ(UnregisterTraceGuids(h), ERROR_INVALID_HANDLE);
}

/* A classic event with a 4-byte MOF payload after the header. */
typedef struct {
  EVENT_TRACE_HEADER header;
  ULONG value;
} ClassicEvent;

static ULONG trace_value(TRACEHANDLE logger, const GUID* g, ULONG value) {
  ClassicEvent e;
  memset(&e, 0, sizeof e);
  e.header.Size = sizeof e;
  e.header.Flags = WNODE_FLAG_TRACED_GUID;
  e.header.Guid = *g;
  e.header.Class.Type = EVENT_TRACE_TYPE_INFO;
  e.header.Class.Level = TRACE_LEVEL_INFORMATION;
  e.value = value;
  return TraceEvent(logger, &e.header);
}

TEST(legacy_provider_last_enabler_wins_with_32_bit_flags) {
  GUID g = test_guid(0x401, 1);
  ControlLog log = {0};
  TRACEHANDLE reg;
  CHECK_EQ(RegisterTraceGuidsW(control_callback, &log, &g, 0, NULL, NULL, NULL, &reg), 0);
  TRACEHANDLE a = start_session(u"lg_steal_a");
  TRACEHANDLE b = start_session(u"lg_steal_b");
  Collector ca = {0}, cb = {0};
  TRACEHANDLE ra = open_consumer(u"lg_steal_a", &ca);
  TRACEHANDLE rb = open_consumer(u"lg_steal_b", &cb);
  CHECK_EQ(EnableTraceEx2(a, &g, 1, TRACE_LEVEL_WARNING, 0x100000003ull, 0, INFINITE, NULL), 0);
  CHECK_EQ(log.count, 1);
  CHECK_EQ(log.codes[0], WMI_ENABLE_EVENTS);
  TRACEHANDLE la = log.loggers[0];
  CHECK_EQ(la & 0xFFFF, a & 0xFFFF);
  CHECK_EQ(GetTraceEnableLevel(la), TRACE_LEVEL_WARNING);
  CHECK_EQ(GetTraceEnableFlags(la), 0x3); /* truncated to 32 bits */
  CHECK_EQ(trace_value(la, &g, 1), 0);
  CHECK_EQ(EnableTraceEx2(b, &g, 1, TRACE_LEVEL_VERBOSE, 0x10, 0, INFINITE, NULL), 0);
  CHECK_EQ(log.count, 2);
  CHECK_EQ(log.codes[1], WMI_ENABLE_EVENTS);
  TRACEHANDLE lb = log.loggers[1];
  CHECK_EQ(lb & 0xFFFF, b & 0xFFFF);
  CHECK_EQ(GetTraceEnableLevel(lb), TRACE_LEVEL_VERBOSE);
  CHECK_EQ(GetTraceEnableFlags(lb), 0x10);
  CHECK_EQ(trace_value(la, &g, 2), 0); /* a lost the provider: dropped */
  CHECK_EQ(trace_value(lb, &g, 3), 0);
  CHECK_EQ(EnableTraceEx2(a, &g, 0, 0, 0, 0, INFINITE, NULL), 0); /* not the owner: no-op */
  CHECK_EQ(log.count, 2);
  CHECK_EQ(EnableTraceEx2(b, &g, 0, 0, 0, 0, INFINITE, NULL), 0);
  CHECK_EQ(log.count, 3);
  CHECK_EQ(log.codes[2], WMI_DISABLE_EVENTS);
  CHECK_EQ(log.loggers[2] & 0xFFFF, b & 0xFFFF);
  stop_session(a);
  stop_session(b);
  drain(ra);
  drain(rb);
  CHECK_EQ(ca.count, 1);
  CHECK_EQ(cb.count, 1);
  ULONG v;
  memcpy(&v, ca.events[0].data, 4);
  CHECK_EQ(v, 1);
  memcpy(&v, cb.events[0].data, 4);
  CHECK_EQ(v, 3);
  const Got* e = &cb.events[0];
  CHECK(e->header.Flags & EVENT_HEADER_FLAG_CLASSIC_HEADER);
  CHECK(IsEqualGUID(&e->header.ProviderId, &g));
  CHECK_EQ(e->header.EventDescriptor.Opcode, EVENT_TRACE_TYPE_INFO);
  CHECK_EQ(e->header.EventDescriptor.Level, TRACE_LEVEL_INFORMATION);
  CHECK_EQ(UnregisterTraceGuids(reg), 0);
}

TEST(legacy_provider_registering_late_gets_the_last_enabler_and_has_no_session_cap) {
  GUID g = test_guid(0x402, 1);
  TRACEHANDLE s[9];
  WCHAR name[] = u"lg_late_0";
  for (int i = 0; i < 9; ++i) {
    name[8] = (WCHAR)(u'0' + i);
    s[i] = start_session(name);
  }
  for (int i = 0; i < 3; ++i)
    CHECK_EQ(EnableTraceEx2(s[i], &g, 1, (UCHAR)(i + 1), 0, 0, INFINITE, NULL), 0);
  ControlLog log = {0};
  TRACEHANDLE reg;
  CHECK_EQ(RegisterTraceGuidsW(control_callback, &log, &g, 0, NULL, NULL, NULL, &reg), 0);
  CHECK_EQ(log.count, 1); /* before RegisterTraceGuidsW returned */
  CHECK_EQ(log.codes[0], WMI_ENABLE_EVENTS);
  CHECK_EQ(log.loggers[0] & 0xFFFF, s[2] & 0xFFFF);
  CHECK_EQ(GetTraceEnableLevel(log.loggers[0]), 3);
  for (int i = 0; i < 9; ++i) /* no 8-session cap: each one takes the provider over */
    CHECK_EQ(EnableTraceEx2(s[i], &g, 1, 1, 0, 0, INFINITE, NULL), 0);
  CHECK_EQ(log.count, 10);
  CHECK_EQ(log.loggers[9] & 0xFFFF, s[8] & 0xFFFF);
  for (int i = 0; i < 9; ++i) stop_session(s[i]);
  CHECK_EQ(log.count, 11); /* only the owner's stop disables it */
  CHECK_EQ(log.codes[10], WMI_DISABLE_EVENTS);
  CHECK_EQ(UnregisterTraceGuids(reg), 0);
}

TEST(trace_event_errors_and_mof_pointers) {
  GUID g = test_guid(0x403, 1);
  ControlLog log = {0};
  TRACEHANDLE reg;
  CHECK_EQ(RegisterTraceGuidsW(control_callback, &log, &g, 0, NULL, NULL, NULL, &reg), 0);
  TRACEHANDLE s = start_session(u"lg_trace_event");
  Collector col = {0};
  TRACEHANDLE r = open_consumer(u"lg_trace_event", &col);
  CHECK_EQ(EnableTraceEx2(s, &g, 1, 5, 0, 0, INFINITE, NULL), 0);
  TRACEHANDLE logger = log.loggers[0];
  CHECK_EQ(TraceEvent(logger, NULL), ERROR_INVALID_PARAMETER);
  EVENT_TRACE_HEADER small;
  memset(&small, 0, sizeof small);
  small.Size = 10;
  CHECK_EQ(TraceEvent(logger, &small), ERROR_INVALID_PARAMETER);
  CHECK_EQ(trace_value(0x3F, &g, 1), ERROR_INVALID_HANDLE); /* no such logger */
  struct {
    EVENT_TRACE_HEADER header;
    MOF_FIELD mof[2];
  } e;
  memset(&e, 0, sizeof e);
  const char part1[] = "ab", part2[] = "cd";
  e.header.Size = sizeof e;
  e.header.Flags = WNODE_FLAG_TRACED_GUID | WNODE_FLAG_USE_MOF_PTR | WNODE_FLAG_USE_GUID_PTR;
  e.header.GuidPtr = (ULONGLONG)(uintptr_t)&g;
  e.header.Class.Type = 12;
  e.mof[0].DataPtr = (ULONG64)(uintptr_t)part1;
  e.mof[0].Length = 2;
  e.mof[1].DataPtr = (ULONG64)(uintptr_t)part2;
  e.mof[1].Length = 3;
  CHECK_EQ(TraceEvent(logger, &e.header), 0);
  stop_session(s);
  drain(r);
  CHECK_EQ(col.count, 1);
  CHECK_EQ(col.events[0].size, 5);
  CHECK(memcmp(col.events[0].data, "abcd", 5) == 0);
  CHECK_EQ(col.events[0].header.EventDescriptor.Opcode, 12);
  CHECK(IsEqualGUID(&col.events[0].header.ProviderId, &g));
  CHECK_EQ(UnregisterTraceGuids(reg), 0);
}

/* TraceEvent with MOF_FIELD lengths beyond the 64 KB event limit (issue B1): the sizes are
 * checked, overflow-safe, before any DataPtr is read, so a huge Length on a 16-byte buffer
 * answers 87 at once instead of reading past it (or copying gigabytes first). ctest runs
 * this test under a 2 GiB address-space cap. */
TEST(trace_event_checks_mof_lengths_before_reading) {
  GUID g = test_guid(0x404, 1);
  ControlLog log = {0};
  TRACEHANDLE reg;
  CHECK_EQ(RegisterTraceGuidsW(control_callback, &log, &g, 0, NULL, NULL, NULL, &reg), 0);
  TRACEHANDLE s = start_session(u"lg_mof_limits");
  Collector col = {0};
  TRACEHANDLE r = open_consumer(u"lg_mof_limits", &col);
  CHECK_EQ(EnableTraceEx2(s, &g, 1, 5, 0, 0, INFINITE, NULL), 0);
  TRACEHANDLE logger = log.loggers[0];
  static uint8_t small[16];
  static uint8_t limit[0xFFFF - sizeof(EVENT_HEADER) + 1];
  struct {
    EVENT_TRACE_HEADER header;
    MOF_FIELD mof[2];
  } e;
  memset(&e, 0, sizeof e);
  e.header.Size = sizeof(EVENT_TRACE_HEADER) + sizeof(MOF_FIELD);
  e.header.Flags = WNODE_FLAG_TRACED_GUID | WNODE_FLAG_USE_MOF_PTR;
  e.header.Guid = g;
  e.mof[0].DataPtr = (ULONG64)(uintptr_t)small;
  e.mof[0].Length = 0xFFFFFFFF; /* reading it would fault long before the end */
  CHECK_EQ(TraceEvent(logger, &e.header), ERROR_INVALID_PARAMETER);
  e.mof[0].Length = 0x100000;
  CHECK_EQ(TraceEvent(logger, &e.header), ERROR_INVALID_PARAMETER);
  e.header.Size = sizeof e; /* two fields whose 32-bit sum wraps to 1 */
  e.mof[0].Length = 0xFFFFFFFF;
  e.mof[1].DataPtr = (ULONG64)(uintptr_t)small;
  e.mof[1].Length = 2;
  CHECK_EQ(TraceEvent(logger, &e.header), ERROR_INVALID_PARAMETER);
  e.mof[0].Length = 0x7FFFFFFF;
  e.mof[1].Length = 0x7FFFFFFF;
  CHECK_EQ(TraceEvent(logger, &e.header), ERROR_INVALID_PARAMETER);
  /* exactly at the limit: delivered; one byte more: 87 */
  e.mof[0].DataPtr = (ULONG64)(uintptr_t)limit;
  e.mof[0].Length = sizeof limit - 1 - 3;
  e.mof[1].Length = 3;
  CHECK_EQ(TraceEvent(logger, &e.header), 0);
  e.mof[1].Length = 4;
  CHECK_EQ(TraceEvent(logger, &e.header), ERROR_INVALID_PARAMETER);
  /* MOF data after the header: the same limit */
  static struct {
    EVENT_TRACE_HEADER header;
    uint8_t data[0xFFFF - sizeof(EVENT_TRACE_HEADER)];
  } inline_mof;
  inline_mof.header.Size = 0xFFFF;
  inline_mof.header.Flags = WNODE_FLAG_TRACED_GUID;
  inline_mof.header.Guid = g;
  CHECK_EQ(TraceEvent(logger, &inline_mof.header), ERROR_INVALID_PARAMETER);
  inline_mof.header.Size = (USHORT)(sizeof(EVENT_TRACE_HEADER) + sizeof limit - 1);
  CHECK_EQ(TraceEvent(logger, &inline_mof.header), 0);
  stop_session(s);
  drain(r);
  CHECK_EQ(col.count, 2);
  CHECK_EQ(col.events[0].size, sizeof limit - 1);
  CHECK_EQ(col.events[1].size, sizeof limit - 1);
  CHECK_EQ(UnregisterTraceGuids(reg), 0);
}
