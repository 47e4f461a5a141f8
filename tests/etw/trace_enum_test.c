/* tests/etw/trace_enum_test.c — QueryAllTracesW, EnumerateTraceGuidsEx and the pfc
 * extension PfcQueryTraceEventCount (docs/etw.md): sizes, ERROR_MORE_DATA /
 * ERROR_INSUFFICIENT_BUFFER, bad arguments, and live sessions with enables. The checks of
 * arguments follow Microsoft's pages:
 * https://learn.microsoft.com/en-us/windows/win32/api/evntrace/nf-evntrace-queryalltracesw
 * (ERROR_INVALID_PARAMETER: PropertyArrayCount 0 or above the 64 sessions, PropertyArray
 * NULL; ERROR_MORE_DATA: more sessions than entries, the entries given are filled) and
 * https://learn.microsoft.com/en-us/windows/win32/api/evntrace/nf-evntrace-enumeratetraceguidsex
 * (ERROR_INSUFFICIENT_BUFFER with the size needed in ReturnLength, also for an OutBufferSize
 * of 0). Tests stop their sessions, so the namespace may hold only what other tests of the
 * same process (etw.all_in_one_process) left: counts are taken relative to it. */
#include <string.h>

#include "etw_test.h"
#include "etw_util.h"
#include "pfc/etw/pfc_etw_ext.h"

#define ENUM_TAG 0x5e55a91u

typedef struct {
  Properties p[64];
  PEVENT_TRACE_PROPERTIES array[64];
} AllProperties;

static void init_all(AllProperties* a) {
  for (int i = 0; i < 64; ++i) {
    init_properties(&a->p[i]);
    a->array[i] = &a->p[i].props;
  }
}

/* The number of live sessions. */
static ULONG session_count(void) {
  static AllProperties a;
  init_all(&a);
  ULONG n = 0;
  CHECK_EQ(QueryAllTracesW(a.array, 64, &n), ERROR_SUCCESS);
  return n;
}

TEST(query_all_traces_bad_arguments) {
  static AllProperties a;
  init_all(&a);
  ULONG n = 77;
  CHECK_EQ(QueryAllTracesW(NULL, 1, &n), ERROR_INVALID_PARAMETER);
  CHECK_EQ(QueryAllTracesW(a.array, 0, &n), ERROR_INVALID_PARAMETER);
  CHECK_EQ(QueryAllTracesW(a.array, 65, &n), ERROR_INVALID_PARAMETER);
  CHECK_EQ(QueryAllTracesW(a.array, 1, NULL), ERROR_INVALID_PARAMETER);
  a.array[1] = NULL;
  CHECK_EQ(QueryAllTracesW(a.array, 2, &n), ERROR_INVALID_PARAMETER);
  a.array[1] = &a.p[1].props;
  a.p[1].props.Wnode.BufferSize = sizeof(EVENT_TRACE_PROPERTIES) - 1; /* as ControlTraceW */
  CHECK_EQ(QueryAllTracesW(a.array, 2, &n), ERROR_BAD_LENGTH);
  CHECK_EQ(n, 77); /* untouched on failure */
}

TEST(query_all_traces_fills_every_session) {
  const ULONG before = session_count();
  TRACEHANDLE one = start_session(u"qa_one");
  TRACEHANDLE two = start_session(u"qa_two");
  static AllProperties a;
  init_all(&a);
  ULONG n = 0;
  CHECK_EQ(QueryAllTracesW(a.array, 64, &n), ERROR_SUCCESS);
  CHECK_EQ(n, before + 2);
  int seen = 0;
  for (ULONG i = 0; i < n; ++i) {
    const EVENT_TRACE_PROPERTIES* p = &a.p[i].props;
    CHECK(p->Wnode.HistoricalContext != 0);
    if (memcmp(a.p[i].name, u"qa_one", sizeof u"qa_one") == 0) {
      CHECK_EQ(p->Wnode.HistoricalContext, one);
      CHECK(p->LogFileMode & EVENT_TRACE_REAL_TIME_MODE);
      seen |= 1;
    }
    if (memcmp(a.p[i].name, u"qa_two", sizeof u"qa_two") == 0) {
      CHECK_EQ(p->Wnode.HistoricalContext, two);
      seen |= 2;
    }
  }
  CHECK_EQ(seen, 3);
  /* One entry for two or more sessions: the first is filled, the count says how many. */
  init_all(&a);
  n = 0;
  CHECK_EQ(QueryAllTracesW(a.array, 1, &n), ERROR_MORE_DATA);
  CHECK_EQ(n, before + 2);
  CHECK(a.p[0].props.Wnode.HistoricalContext != 0);
  CHECK_EQ(a.p[1].props.Wnode.HistoricalContext, 0);
  stop_session(two);
  stop_session(one);
  CHECK_EQ(session_count(), before);
}

static ULONG guid_query(TRACE_QUERY_INFO_CLASS cls, GUID* in, UCHAR* out, ULONG size,
                        ULONG* needed) {
  return EnumerateTraceGuidsEx(cls, in, in == NULL ? 0 : sizeof *in, out, size, needed);
}

/* Whether the TraceGuidQueryList answer `list` (`size` bytes) holds `g`, and where. */
static int index_of(const UCHAR* list, ULONG size, const GUID* g) {
  for (ULONG i = 0; i + sizeof(GUID) <= size; i += sizeof(GUID))
    if (memcmp(list + i, g, sizeof *g) == 0) return (int)(i / sizeof(GUID));
  return -1;
}

TEST(enumerate_trace_guids_bad_arguments) {
  GUID g = test_guid(ENUM_TAG, 9);
  UCHAR out[64];
  ULONG needed = 0;
  CHECK_EQ(guid_query(TraceGuidQueryList, NULL, out, sizeof out, NULL), ERROR_INVALID_PARAMETER);
  CHECK_EQ(guid_query(TraceGuidQueryList, NULL, NULL, 4, &needed), ERROR_INVALID_PARAMETER);
  CHECK_EQ(guid_query(TraceGuidQueryInfo, NULL, out, sizeof out, &needed), ERROR_INVALID_PARAMETER);
  CHECK_EQ(EnumerateTraceGuidsEx(TraceGuidQueryInfo, &g, sizeof g - 1, out, sizeof out, &needed),
           ERROR_INVALID_PARAMETER);
  CHECK_EQ(guid_query(TraceGroupQueryList, NULL, out, sizeof out, &needed), ERROR_NOT_SUPPORTED);
  CHECK_EQ(guid_query(TraceGuidQueryProcess, NULL, out, sizeof out, &needed), ERROR_NOT_SUPPORTED);
  CHECK_EQ(guid_query((TRACE_QUERY_INFO_CLASS)999, NULL, out, sizeof out, &needed),
           ERROR_INVALID_PARAMETER);
  CHECK_EQ(guid_query(TraceGuidQueryInfo, &g, out, sizeof out, &needed),
           ERROR_WMI_GUID_NOT_FOUND); /* nobody enables it */
}

TEST(enumerate_trace_guids_lists_enables) {
  GUID p1 = test_guid(ENUM_TAG, 1), p2 = test_guid(ENUM_TAG, 2);
  TRACEHANDLE s1 = start_session(u"eg_one");
  TRACEHANDLE s2 = start_session(u"eg_two");
  ENABLE_TRACE_PARAMETERS params = params_v2(EVENT_ENABLE_PROPERTY_SID, NULL, 0);
  CHECK_EQ(EnableTraceEx2(s1, &p1, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 4, 0x10, 0x1, 0, &params),
           ERROR_SUCCESS);
  CHECK_EQ(EnableTraceEx2(s1, &p2, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 2, 0, 0, 0, NULL),
           ERROR_SUCCESS);
  CHECK_EQ(EnableTraceEx2(s2, &p1, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5, 0xF0, 0, 0, NULL),
           ERROR_SUCCESS);

  /* The list: OutBufferSize 0 gives the size; too small writes nothing. */
  ULONG needed = 0;
  CHECK_EQ(guid_query(TraceGuidQueryList, NULL, NULL, 0, &needed), ERROR_INSUFFICIENT_BUFFER);
  CHECK(needed >= 2 * sizeof(GUID));
  CHECK_EQ(needed % sizeof(GUID), 0);
  static UCHAR list[64 * 1024];
  CHECK(needed <= sizeof list);
  memset(list, 0xAB, sizeof list);
  ULONG again = 0;
  CHECK_EQ(guid_query(TraceGuidQueryList, NULL, list, needed - 1, &again),
           ERROR_INSUFFICIENT_BUFFER);
  CHECK_EQ(again, needed);
  CHECK_EQ(list[0], 0xAB);
  CHECK_EQ(guid_query(TraceGuidQueryList, NULL, list, sizeof list, &again), ERROR_SUCCESS);
  CHECK_EQ(again, needed);
  const int i1 = index_of(list, needed, &p1), i2 = index_of(list, needed, &p2);
  CHECK(i1 >= 0 && i2 > i1); /* in the order of their oldest enable */

  /* One GUID: the header, one instance (no registration known), an enable per session. */
  const ULONG info_size = sizeof(TRACE_GUID_INFO) + sizeof(TRACE_PROVIDER_INSTANCE_INFO) +
                          2 * sizeof(TRACE_ENABLE_INFO);
  static UCHAR info[1024];
  CHECK_EQ(guid_query(TraceGuidQueryInfo, &p1, info, info_size - 1, &needed),
           ERROR_INSUFFICIENT_BUFFER);
  CHECK_EQ(needed, info_size);
  CHECK_EQ(guid_query(TraceGuidQueryInfo, &p1, info, sizeof info, &needed), ERROR_SUCCESS);
  CHECK_EQ(needed, info_size);
  TRACE_GUID_INFO head;
  TRACE_PROVIDER_INSTANCE_INFO inst;
  TRACE_ENABLE_INFO e[2];
  memcpy(&head, info, sizeof head);
  memcpy(&inst, info + sizeof head, sizeof inst);
  memcpy(e, info + sizeof head + sizeof inst, sizeof e);
  CHECK_EQ(head.InstanceCount, 1);
  CHECK_EQ(inst.NextOffset, 0);
  CHECK_EQ(inst.EnableCount, 2);
  CHECK_EQ(inst.Pid, 0);
  CHECK_EQ(inst.Flags, TRACE_PROVIDER_FLAG_PRE_ENABLE);
  int a = e[0].LoggerId == (s1 & 0xFFFF) ? 0 : 1; /* in logger-id order */
  CHECK_EQ(e[a].LoggerId, s1 & 0xFFFF);
  CHECK_EQ(e[1 - a].LoggerId, s2 & 0xFFFF);
  CHECK(e[0].LoggerId < e[1].LoggerId);
  CHECK_EQ(e[a].IsEnabled, 1);
  CHECK_EQ(e[a].Level, 4);
  CHECK_EQ(e[a].EnableProperty, EVENT_ENABLE_PROPERTY_SID);
  CHECK_EQ(e[a].MatchAnyKeyword, 0x10);
  CHECK_EQ(e[a].MatchAllKeyword, 0x1);
  CHECK_EQ(e[1 - a].Level, 5);
  CHECK_EQ(e[1 - a].EnableProperty, 0);
  CHECK_EQ(e[1 - a].MatchAnyKeyword, 0xF0);

  /* Disabled: gone from the list and unknown to the query. */
  CHECK_EQ(EnableTraceEx2(s1, &p2, EVENT_CONTROL_CODE_DISABLE_PROVIDER, 0, 0, 0, 0, NULL),
           ERROR_SUCCESS);
  CHECK_EQ(guid_query(TraceGuidQueryList, NULL, list, sizeof list, &needed), ERROR_SUCCESS);
  CHECK_EQ(index_of(list, needed, &p2), -1);
  CHECK_EQ(guid_query(TraceGuidQueryInfo, &p2, info, sizeof info, &needed),
           ERROR_WMI_GUID_NOT_FOUND);
  stop_session(s2);
  CHECK_EQ(guid_query(TraceGuidQueryInfo, &p1, info, sizeof info, &needed), ERROR_SUCCESS);
  CHECK_EQ(needed, sizeof(TRACE_GUID_INFO) + sizeof(TRACE_PROVIDER_INSTANCE_INFO) +
                       sizeof(TRACE_ENABLE_INFO));
  stop_session(s1);
  CHECK_EQ(guid_query(TraceGuidQueryInfo, &p1, info, sizeof info, &needed),
           ERROR_WMI_GUID_NOT_FOUND);
}

TEST(query_trace_event_count) {
  ULONGLONG events = 77;
  CHECK_EQ(PfcQueryTraceEventCount(0x7777, NULL), ERROR_INVALID_PARAMETER);
  CHECK_EQ(PfcQueryTraceEventCount(0x7777, &events), ERROR_WMI_INSTANCE_NOT_FOUND);
  CHECK_EQ(events, 77);
  GUID g = test_guid(ENUM_TAG, 3);
  TRACEHANDLE s = start_session(u"ec_session");
  CHECK_EQ(PfcQueryTraceEventCount(s, &events), ERROR_SUCCESS);
  CHECK_EQ(events, 0);
  REGHANDLE reg = 0;
  CHECK_EQ(EventRegister(&g, NULL, NULL, &reg), ERROR_SUCCESS);
  CHECK_EQ(EnableTraceEx2(s, &g, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5, 0, 0, INFINITE, NULL),
           ERROR_SUCCESS);
  for (ULONG i = 0; i < 3; ++i) CHECK_EQ(write_event(reg, 1, 4, 0, i), ERROR_SUCCESS);
  CHECK_EQ(PfcQueryTraceEventCount(s, &events), ERROR_SUCCESS);
  CHECK_EQ(events, 3);
  CHECK_EQ(EventUnregister(reg), ERROR_SUCCESS);
  stop_session(s);
  CHECK_EQ(PfcQueryTraceEventCount(s, &events), ERROR_WMI_INSTANCE_NOT_FOUND);
}
