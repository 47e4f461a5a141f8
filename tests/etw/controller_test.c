/* tests/etw/controller_test.c — StartTraceW, ControlTraceW (QUERY / UPDATE / STOP),
 * StopTraceW, QueryTraceW and EnableTraceEx2: every error code, filter-descriptor limits,
 * the 8-session cap, ENABLE_TRACE_PARAMETERS v1, and filters applied to routing (level /
 * keyword, event ID, PID, executable name, stacks). */
#define _GNU_SOURCE
#include <string.h>
#include <unistd.h>

#include "etw_test.h"
#include "etw_util.h"

TEST(start_trace_errors_and_outputs) {
  Properties p;
  TRACEHANDLE h = 99;
  init_properties(&p);
  CHECK_EQ(StartTraceW(NULL, u"ct_start", &p.props), ERROR_INVALID_PARAMETER);
  CHECK_EQ(StartTraceW(&h, NULL, &p.props), ERROR_INVALID_PARAMETER);
  CHECK_EQ(StartTraceW(&h, u"ct_start", NULL), ERROR_INVALID_PARAMETER);
  CHECK_EQ(h, 0);
  p.props.Wnode.BufferSize = sizeof(EVENT_TRACE_PROPERTIES) - 1;
  CHECK_EQ(StartTraceW(&h, u"ct_start", &p.props), ERROR_BAD_LENGTH);
  init_properties(&p);
  p.props.Wnode.Flags = 0;
  CHECK_EQ(StartTraceW(&h, u"ct_start", &p.props), ERROR_INVALID_PARAMETER);
  init_properties(&p);
  p.props.LogFileMode = EVENT_TRACE_FILE_MODE_SEQUENTIAL; /* no LogFileName */
  CHECK_EQ(StartTraceW(&h, u"ct_start", &p.props), ERROR_BAD_PATHNAME);
  init_properties(&p);
  p.props.LogFileMode = 0; /* neither real time nor a file */
  CHECK_EQ(StartTraceW(&h, u"ct_start", &p.props), ERROR_NOT_SUPPORTED);
  init_properties(&p);
  p.props.LogFileNameOffset = offsetof(Properties, name);
  p.props.LoggerNameOffset = 0;
  memcpy(p.name, u"x.etl", sizeof u"x.etl");
  p.props.LogFileMode = EVENT_TRACE_FILE_MODE_SEQUENTIAL | EVENT_TRACE_FILE_MODE_CIRCULAR;
  CHECK_EQ(StartTraceW(&h, u"ct_start", &p.props), ERROR_INVALID_PARAMETER);
  p.props.LogFileMode = EVENT_TRACE_FILE_MODE_CIRCULAR; /* needs MaximumFileSize */
  CHECK_EQ(StartTraceW(&h, u"ct_start", &p.props), ERROR_INVALID_PARAMETER);
  p.props.LogFileMode = EVENT_TRACE_FILE_MODE_SEQUENTIAL | EVENT_TRACE_FILE_MODE_APPEND;
  CHECK_EQ(StartTraceW(&h, u"ct_start", &p.props), ERROR_NOT_SUPPORTED);
  memcpy(p.name, u"/no/such/dir/x.etl", sizeof u"/no/such/dir/x.etl");
  p.props.LogFileMode = EVENT_TRACE_FILE_MODE_SEQUENTIAL;
  CHECK_EQ(StartTraceW(&h, u"ct_start", &p.props), ERROR_PATH_NOT_FOUND);
  init_properties(&p);
  p.props.LoggerNameOffset = 8; /* inside the struct */
  CHECK_EQ(StartTraceW(&h, u"ct_start", &p.props), ERROR_INVALID_PARAMETER);
  init_properties(&p);
  CHECK_EQ(StartTraceW(&h, u"", &p.props), ERROR_INVALID_PARAMETER);

  init_properties(&p);
  p.props.BufferSize = 16;
  p.props.MaximumBuffers = 80;
  CHECK_EQ(StartTraceW(&h, u"ct_start", &p.props), ERROR_SUCCESS);
  CHECK(h != 0);
  CHECK_EQ(p.props.Wnode.HistoricalContext, h);
  CHECK(!IsEqualGUID(&p.props.Wnode.Guid, &GUID_NULL)); /* generated */
  CHECK(memcmp(p.name, u"ct_start", sizeof u"ct_start") == 0);
  CHECK_EQ(p.props.BufferSize, 16);
  CHECK_EQ(p.props.MaximumBuffers, 80);
  TRACEHANDLE h2;
  Properties p2;
  init_properties(&p2);
  CHECK_EQ(StartTraceW(&h2, u"CT_START", &p2.props), ERROR_ALREADY_EXISTS); /* names: any case */
  init_properties(&p2);
  p2.props.Wnode.Guid = p.props.Wnode.Guid;
  CHECK_EQ(StartTraceW(&h2, u"ct_start_2", &p2.props), ERROR_ALREADY_EXISTS); /* same GUID */
  stop_session(h);
}

TEST(control_trace_query_update_stop) {
  Properties p;
  init_properties(&p);
  CHECK_EQ(ControlTraceW(1, NULL, NULL, EVENT_TRACE_CONTROL_QUERY), ERROR_INVALID_PARAMETER);
  CHECK_EQ(ControlTraceW(0, NULL, &p.props, EVENT_TRACE_CONTROL_QUERY), ERROR_INVALID_PARAMETER);
  CHECK_EQ(ControlTraceW(0x7777, NULL, &p.props, EVENT_TRACE_CONTROL_QUERY),
           ERROR_WMI_INSTANCE_NOT_FOUND);
  TRACEHANDLE h = start_session(u"ct_control");
  CHECK_EQ(ControlTraceW(h, NULL, &p.props, 9), ERROR_INVALID_PARAMETER);
  CHECK_EQ(ControlTraceW(h, NULL, &p.props, EVENT_TRACE_CONTROL_INCREMENT_FILE),
           ERROR_NOT_SUPPORTED);
  p.props.Wnode.BufferSize = 10;
  CHECK_EQ(ControlTraceW(h, NULL, &p.props, EVENT_TRACE_CONTROL_QUERY), ERROR_BAD_LENGTH);
  init_properties(&p);
  CHECK_EQ(ControlTraceW(0, u"CT_Control", &p.props, EVENT_TRACE_CONTROL_QUERY), 0); /* by name */
  CHECK_EQ(p.props.Wnode.HistoricalContext, h);
  CHECK(memcmp(p.name, u"ct_control", sizeof u"ct_control") == 0);
  CHECK_EQ(p.props.LogFileMode & EVENT_TRACE_REAL_TIME_MODE, EVENT_TRACE_REAL_TIME_MODE);
  init_properties(&p);
  p.props.FlushTimer = 7;
  p.props.EnableFlags = 0x55;
  CHECK_EQ(ControlTraceW(h, NULL, &p.props, EVENT_TRACE_CONTROL_UPDATE), 0);
  init_properties(&p);
  CHECK_EQ(QueryTraceW(h, NULL, &p.props), 0);
  CHECK_EQ(p.props.FlushTimer, 7);
  CHECK_EQ(p.props.EnableFlags, 0x55);
  CHECK_EQ(p.props.EventsLost, 0);
  CHECK_EQ(ControlTraceW(h, NULL, &p.props, EVENT_TRACE_CONTROL_FLUSH), 0);
  CHECK_EQ(StopTraceW(h, NULL, &p.props), 0);
  CHECK_EQ(QueryTraceW(h, NULL, &p.props), ERROR_WMI_INSTANCE_NOT_FOUND);
  CHECK_EQ(StopTraceW(h, NULL, &p.props), ERROR_WMI_INSTANCE_NOT_FOUND);
  TRACEHANDLE again = start_session(u"ct_control"); /* the name is free again */
  CHECK(again != h);
  CHECK_EQ(QueryTraceW(h, NULL, &p.props), ERROR_WMI_INSTANCE_NOT_FOUND); /* stale handle */
  stop_session(again);
}

/* EnableTraceEx2 with one descriptor; the provider must stay disabled when it fails. */
static ULONG enable_with(TRACEHANDLE s, const GUID* g, ULONG type, const void* data, ULONG size) {
  EVENT_FILTER_DESCRIPTOR d = {(ULONGLONG)(uintptr_t)data, size, type};
  ENABLE_TRACE_PARAMETERS p = params_v2(0, &d, 1);
  return EnableTraceEx2(s, g, 1, 0, 0, 0, INFINITE, &p);
}

TEST(enable_trace_ex2_argument_errors) {
  GUID g = test_guid(0x200, 1);
  TRACEHANDLE s = start_session(u"ct_enable_errors");
  CHECK_EQ(EnableTraceEx2(0, &g, 1, 0, 0, 0, 0, NULL), ERROR_INVALID_PARAMETER);
  CHECK_EQ(EnableTraceEx2(s, NULL, 1, 0, 0, 0, 0, NULL), ERROR_INVALID_PARAMETER);
  CHECK_EQ(EnableTraceEx2(s, &g, 3, 0, 0, 0, 0, NULL), ERROR_INVALID_PARAMETER);
  CHECK_EQ(EnableTraceEx2(0x999999, &g, 1, 0, 0, 0, 0, NULL), ERROR_WMI_INSTANCE_NOT_FOUND);
  ENABLE_TRACE_PARAMETERS p = params_v2(0, NULL, 0);
  p.Version = 3;
  CHECK_EQ(EnableTraceEx2(s, &g, 1, 0, 0, 0, 0, &p), ERROR_INVALID_PARAMETER);
  EVENT_FILTER_DESCRIPTOR many[MAX_EVENT_FILTERS_COUNT + 1];
  memset(many, 0, sizeof many);
  p = params_v2(0, many, MAX_EVENT_FILTERS_COUNT + 1);
  CHECK_EQ(EnableTraceEx2(s, &g, 1, 0, 0, 0, 0, &p), ERROR_INVALID_PARAMETER);
  p = params_v2(0, NULL, 1);
  CHECK_EQ(EnableTraceEx2(s, &g, 1, 0, 0, 0, 0, &p), ERROR_INVALID_PARAMETER);
  p = params_v2(EVENT_ENABLE_PROPERTY_PROVIDER_GROUP, NULL, 0);
  CHECK_EQ(EnableTraceEx2(s, &g, 1, 0, 0, 0, 0, &p), ERROR_NOT_SUPPORTED);
  /* each type at most once */
  ULONG pid = (ULONG)getpid();
  EVENT_FILTER_DESCRIPTOR two[2] = {{(ULONGLONG)(uintptr_t)&pid, 4, EVENT_FILTER_TYPE_PID},
                                    {(ULONGLONG)(uintptr_t)&pid, 4, EVENT_FILTER_TYPE_PID}};
  p = params_v2(0, two, 2);
  CHECK_EQ(EnableTraceEx2(s, &g, 1, 0, 0, 0, 0, &p), ERROR_INVALID_PARAMETER);
  /* 13 descriptors of type NONE are fine */
  memset(many, 0, sizeof many);
  p = params_v2(0, many, MAX_EVENT_FILTERS_COUNT);
  CHECK_EQ(EnableTraceEx2(s, &g, 1, 0, 0, 0, 0, &p), ERROR_SUCCESS);
  CHECK_EQ(EnableTraceEx2(s, &g, 0, 0, 0, 0, INFINITE, NULL), ERROR_SUCCESS);
  stop_session(s);
}

TEST(enable_trace_ex2_filter_limits) {
  GUID g = test_guid(0x201, 1);
  REGHANDLE reg;
  CHECK_EQ(EventRegister(&g, NULL, NULL, &reg), 0);
  TRACEHANDLE s = start_session(u"ct_filter_limits");
  ULONG pids[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  CHECK_EQ(enable_with(s, &g, EVENT_FILTER_TYPE_PID, pids, 9 * 4), ERROR_INVALID_PARAMETER);
  CHECK_EQ(enable_with(s, &g, EVENT_FILTER_TYPE_PID, pids, 6), ERROR_INVALID_PARAMETER);
  CHECK_EQ(enable_with(s, &g, EVENT_FILTER_TYPE_PID, pids, 0), ERROR_INVALID_PARAMETER);
  CHECK_EQ(enable_with(s, &g, EVENT_FILTER_TYPE_PID, NULL, 4), ERROR_INVALID_PARAMETER);

  union {
    EVENT_FILTER_EVENT_ID f;
    UCHAR raw[4 + 2 * 70];
  } ids;
  memset(&ids, 0, sizeof ids);
  ids.f.FilterIn = TRUE;
  ids.f.Count = 65;
  CHECK_EQ(enable_with(s, &g, EVENT_FILTER_TYPE_EVENT_ID, &ids, 4 + 2 * 65),
           ERROR_INVALID_PARAMETER);
  ids.f.Count = 0;
  CHECK_EQ(enable_with(s, &g, EVENT_FILTER_TYPE_EVENT_ID, &ids, 4), ERROR_INVALID_PARAMETER);
  ids.f.Count = 3;
  CHECK_EQ(enable_with(s, &g, EVENT_FILTER_TYPE_EVENT_ID, &ids, 4 + 2 * 2),
           ERROR_INVALID_PARAMETER);
  CHECK_EQ(enable_with(s, &g, EVENT_FILTER_TYPE_STACKWALK, &ids, 3), ERROR_INVALID_PARAMETER);

  static WCHAR exe[600];
  for (int i = 0; i < 599; ++i) exe[i] = u'a';
  CHECK_EQ(enable_with(s, &g, EVENT_FILTER_TYPE_EXECUTABLE_NAME, exe, 1026),
           ERROR_INVALID_PARAMETER);
  CHECK_EQ(enable_with(s, &g, EVENT_FILTER_TYPE_EXECUTABLE_NAME, u"a.exe", 5),
           ERROR_INVALID_PARAMETER);
  CHECK_EQ(enable_with(s, &g, EVENT_FILTER_TYPE_EXECUTABLE_NAME, u";;", 6),
           ERROR_INVALID_PARAMETER);
  const WCHAR lone_surrogate[] = {0xD800, u'x', 0};
  CHECK_EQ(enable_with(s, &g, EVENT_FILTER_TYPE_PACKAGE_ID, lone_surrogate, 6),
           ERROR_INVALID_PARAMETER);
  CHECK_EQ(enable_with(s, &g, EVENT_FILTER_TYPE_PACKAGE_APP_ID, u"", 2), ERROR_INVALID_PARAMETER);

  static UCHAR names[MAX_EVENT_FILTER_EVENT_NAME_SIZE + 8];
  memset(names, 0, sizeof names);
  EVENT_FILTER_EVENT_NAME* en = (EVENT_FILTER_EVENT_NAME*)names;
  en->NameCount = 1;
  memcpy(en->Names, "abc", 4);
  CHECK_EQ(
      enable_with(s, &g, EVENT_FILTER_TYPE_EVENT_NAME, names, MAX_EVENT_FILTER_EVENT_NAME_SIZE + 1),
      ERROR_INVALID_PARAMETER);
  CHECK_EQ(enable_with(s, &g, EVENT_FILTER_TYPE_EVENT_NAME, names, 20 + 3),
           ERROR_INVALID_PARAMETER);
  en->NameCount = 2; /* the second name is missing */
  CHECK_EQ(enable_with(s, &g, EVENT_FILTER_TYPE_STACKWALK_NAME, names, 20 + 4),
           ERROR_INVALID_PARAMETER);
  en->NameCount = 0;
  CHECK_EQ(enable_with(s, &g, EVENT_FILTER_TYPE_EVENT_NAME, names, 20 + 4),
           ERROR_INVALID_PARAMETER);

  EVENT_FILTER_LEVEL_KW lk;
  memset(&lk, 0, sizeof lk);
  CHECK_EQ(enable_with(s, &g, EVENT_FILTER_TYPE_STACKWALK_LEVEL_KW, &lk, 10),
           ERROR_INVALID_PARAMETER);

  static UCHAR schem[MAX_EVENT_FILTER_DATA_SIZE + 8];
  memset(schem, 0, sizeof schem);
  CHECK_EQ(enable_with(s, &g, EVENT_FILTER_TYPE_SCHEMATIZED, schem, MAX_EVENT_FILTER_DATA_SIZE + 1),
           ERROR_INVALID_PARAMETER);
  CHECK_EQ(enable_with(s, &g, EVENT_FILTER_TYPE_SCHEMATIZED, schem, 10), ERROR_INVALID_PARAMETER);
  ((EVENT_FILTER_HEADER*)schem)->Size = 100;
  CHECK_EQ(enable_with(s, &g, EVENT_FILTER_TYPE_SCHEMATIZED, schem, 50), ERROR_INVALID_PARAMETER);

  UCHAR blob[64] = {0};
  CHECK_EQ(enable_with(s, &g, EVENT_FILTER_TYPE_PAYLOAD, blob, sizeof blob),
           ERROR_INVALID_PARAMETER);
  CHECK_EQ(enable_with(s, &g, EVENT_FILTER_TYPE_TRACEHANDLE, blob, 8), ERROR_INVALID_PARAMETER);
  CHECK_EQ(enable_with(s, &g, EVENT_FILTER_TYPE_CONTAINER, u"c", 4), ERROR_INVALID_PARAMETER);
  CHECK_EQ(enable_with(s, &g, 5, blob, 8), ERROR_INVALID_PARAMETER); /* provider-defined */
  CHECK(!EventProviderEnabled(reg, 0, 0)); /* none of them enabled anything */

  /* the limits themselves are accepted */
  CHECK_EQ(enable_with(s, &g, EVENT_FILTER_TYPE_PID, pids, 8 * 4), ERROR_SUCCESS);
  ids.f.Count = 64;
  CHECK_EQ(enable_with(s, &g, EVENT_FILTER_TYPE_EVENT_ID, &ids, 4 + 2 * 64), ERROR_SUCCESS);
  exe[511] = 0;
  CHECK_EQ(enable_with(s, &g, EVENT_FILTER_TYPE_EXECUTABLE_NAME, exe, 1024), ERROR_SUCCESS);
  en->NameCount = 1;
  CHECK_EQ(
      enable_with(s, &g, EVENT_FILTER_TYPE_EVENT_NAME, names, MAX_EVENT_FILTER_EVENT_NAME_SIZE),
      ERROR_SUCCESS);
  CHECK_EQ(enable_with(s, &g, EVENT_FILTER_TYPE_STACKWALK_LEVEL_KW, &lk, sizeof lk), ERROR_SUCCESS);
  ((EVENT_FILTER_HEADER*)schem)->Size = 0; /* 0: the descriptor's size */
  CHECK_EQ(enable_with(s, &g, EVENT_FILTER_TYPE_SCHEMATIZED, schem, MAX_EVENT_FILTER_DATA_SIZE),
           ERROR_SUCCESS);
  CHECK(EventProviderEnabled(reg, 0, 0));
  stop_session(s);
  CHECK_EQ(EventUnregister(reg), 0);
}

TEST(ninth_session_on_a_modern_provider_fails) {
  GUID g = test_guid(0x202, 1), other = test_guid(0x202, 2);
  TRACEHANDLE s[9];
  WCHAR name[] = u"ct_nine_0";
  for (int i = 0; i < 9; ++i) {
    name[8] = (WCHAR)(u'0' + i);
    s[i] = start_session(name);
  }
  for (int i = 0; i < 8; ++i)
    CHECK_EQ(EnableTraceEx2(s[i], &g, 1, 0, 0, 0, 0, NULL), ERROR_SUCCESS);
  CHECK_EQ(EnableTraceEx2(s[8], &g, 1, 0, 0, 0, 0, NULL), ERROR_NO_SYSTEM_RESOURCES);
  CHECK_EQ(EnableTraceEx2(s[3], &g, 1, 4, 0, 0, 0, NULL), ERROR_SUCCESS); /* update: no new slot */
  CHECK_EQ(EnableTraceEx2(s[8], &other, 1, 0, 0, 0, 0, NULL), ERROR_SUCCESS);
  CHECK_EQ(EnableTraceEx2(s[0], &g, 0, 0, 0, 0, 0, NULL), ERROR_SUCCESS);
  CHECK_EQ(EnableTraceEx2(s[8], &g, 1, 0, 0, 0, 0, NULL), ERROR_SUCCESS);
  stop_session(s[1]);
  CHECK_EQ(EnableTraceEx2(s[0], &g, 1, 0, 0, 0, 0, NULL), ERROR_SUCCESS); /* stop freed one */
  for (int i = 0; i < 9; ++i)
    if (i != 1) stop_session(s[i]);
}

/* Session + consumer + registration for routing tests. */
typedef struct {
  TRACEHANDLE session;
  TRACEHANDLE consumer;
  Collector got;
} Sink;

static void open_sink(Sink* k, LPCWSTR name) {
  memset(k, 0, sizeof *k);
  k->session = start_session(name);
  k->consumer = open_consumer(name, &k->got);
}

static void close_sink(Sink* k) {
  stop_session(k->session);
  drain(k->consumer);
}

TEST(level_and_keyword_routing_per_session) {
  GUID g = test_guid(0x203, 1);
  REGHANDLE h;
  CHECK_EQ(EventRegister(&g, NULL, NULL, &h), 0);
  Sink a, b;
  open_sink(&a, u"ct_lk_a");
  open_sink(&b, u"ct_lk_b");
  CHECK_EQ(EnableTraceEx2(a.session, &g, 1, 2, 0x1, 0, INFINITE, NULL), 0);
  ENABLE_TRACE_PARAMETERS p = params_v2(EVENT_ENABLE_PROPERTY_IGNORE_KEYWORD_0, NULL, 0);
  CHECK_EQ(EnableTraceEx2(b.session, &g, 1, 4, 0x6, 0x4, INFINITE, &p), 0);
  CHECK_EQ(write_event(h, 1, 1, 0x1, 0), 0); /* a */
  CHECK_EQ(write_event(h, 2, 3, 0x1, 0), 0); /* nobody: a's level, b's keywords */
  CHECK_EQ(write_event(h, 3, 1, 0x0, 0), 0); /* a (keyword 0); b ignores keyword 0 */
  CHECK_EQ(write_event(h, 4, 4, 0x4, 0), 0); /* b */
  CHECK_EQ(write_event(h, 5, 4, 0x2, 0), 0); /* nobody: b needs 0x4 (MatchAll) */
  CHECK_EQ(write_event(h, 6, 0, 0x5, 0), 0); /* both: level 0 */
  close_sink(&a);
  close_sink(&b);
  char buf[64];
  CHECK(strcmp(ids_of(&a.got, buf, sizeof buf), "1,3,6") == 0);
  CHECK(strcmp(ids_of(&b.got, buf, sizeof buf), "4,6") == 0);
  CHECK_EQ(EventUnregister(h), 0);
}

TEST(event_id_filters_keep_or_drop_ids_and_are_replaced_by_the_next_enable) {
  GUID g = test_guid(0x204, 1);
  REGHANDLE h;
  CHECK_EQ(EventRegister(&g, NULL, NULL, &h), 0);
  Sink in, out;
  open_sink(&in, u"ct_evid_in");
  open_sink(&out, u"ct_evid_out");
  struct {
    EVENT_FILTER_EVENT_ID f;
    USHORT more;
  } keep = {{TRUE, 0, 2, {1}}, 3};
  EVENT_FILTER_EVENT_ID drop = {FALSE, 0, 1, {2}};
  EVENT_FILTER_DESCRIPTOR dk = {(ULONGLONG)(uintptr_t)&keep, 4 + 2 * 2, EVENT_FILTER_TYPE_EVENT_ID};
  EVENT_FILTER_DESCRIPTOR dd = {(ULONGLONG)(uintptr_t)&drop, 4 + 2 * 1, EVENT_FILTER_TYPE_EVENT_ID};
  ENABLE_TRACE_PARAMETERS pk = params_v2(0, &dk, 1);
  /* version 1 parameters: one descriptor, no count */
  ENABLE_TRACE_PARAMETERS_V1 pd;
  memset(&pd, 0, sizeof pd);
  pd.Version = ENABLE_TRACE_PARAMETERS_VERSION;
  pd.EnableFilterDesc = &dd;
  CHECK_EQ(EnableTraceEx2(in.session, &g, 1, 0, 0, 0, INFINITE, &pk), 0);
  CHECK_EQ(EnableTraceEx2(out.session, &g, 1, 0, 0, 0, INFINITE, (PENABLE_TRACE_PARAMETERS)&pd), 0);
  for (USHORT id = 1; id <= 4; ++id) CHECK_EQ(write_event(h, id, 4, 0, id), 0);
  /* a new enable without filters replaces the whole filter set */
  CHECK_EQ(EnableTraceEx2(in.session, &g, 1, 0, 0, 0, INFINITE, NULL), 0);
  CHECK_EQ(write_event(h, 2, 4, 0, 2), 0);
  close_sink(&in);
  close_sink(&out);
  char buf[64];
  CHECK(strcmp(ids_of(&in.got, buf, sizeof buf), "1,3,2") == 0);
  CHECK(strcmp(ids_of(&out.got, buf, sizeof buf), "1,3,4") == 0);
  CHECK_EQ(EventUnregister(h), 0);
}

TEST(scope_filters_pid_and_executable_name) {
  GUID g = test_guid(0x205, 1);
  REGHANDLE h;
  CHECK_EQ(EventRegister(&g, NULL, NULL, &h), 0);
  Sink mine, other, exe, not_exe;
  open_sink(&mine, u"ct_scope_pid");
  open_sink(&other, u"ct_scope_otherpid");
  open_sink(&exe, u"ct_scope_exe");
  open_sink(&not_exe, u"ct_scope_notexe");
  ULONG pids[2] = {1, (ULONG)getpid()};
  ULONG nopid = (ULONG)getpid() + 1;
  CHECK_EQ(enable_with(mine.session, &g, EVENT_FILTER_TYPE_PID, pids, sizeof pids), 0);
  CHECK_EQ(enable_with(other.session, &g, EVENT_FILTER_TYPE_PID, &nopid, 4), 0);
  const WCHAR names[] = u"other.exe;C:\\Tools\\ETW_C_TEST";
  CHECK_EQ(enable_with(exe.session, &g, EVENT_FILTER_TYPE_EXECUTABLE_NAME, names, sizeof names), 0);
  const WCHAR wrong[] = u"cmd.exe;svchost.exe";
  CHECK_EQ(enable_with(not_exe.session, &g, EVENT_FILTER_TYPE_EXECUTABLE_NAME, wrong, sizeof wrong),
           0);
  CHECK_EQ(write_event(h, 1, 4, 0, 0), 0);
  close_sink(&mine);
  close_sink(&other);
  close_sink(&exe);
  close_sink(&not_exe);
  CHECK_EQ(mine.got.count, 1);
  CHECK_EQ(other.got.count, 0);
  CHECK_EQ(exe.got.count, 1);
  CHECK_EQ(not_exe.got.count, 0);
  CHECK_EQ(EventUnregister(h), 0);
}

/* Writes event `id`; its return address is inside this function. */
__attribute__((noinline)) ULONG emit_for_stack(REGHANDLE h, USHORT id, UCHAR level) {
  EVENT_DESCRIPTOR d;
  EventDescCreate(&d, id, 0, 0, level, 0, 0, 0);
  ULONG rc = EventWrite(h, &d, 0, NULL);
  __asm__ volatile("" ::: "memory"); /* keep the call from becoming a tail call */
  return rc + 0;
}

static int in_emit_for_stack(ULONG64 address) {
  const uintptr_t start = (uintptr_t)&emit_for_stack;
  return address > start && address < start + 512;
}

TEST(stack_traces_follow_stack_filters) {
  GUID g = test_guid(0x206, 1);
  REGHANDLE h;
  CHECK_EQ(EventRegister(&g, NULL, NULL, &h), 0);
  Sink all, by_id, by_level, none;
  open_sink(&all, u"ct_stack_all");
  open_sink(&by_id, u"ct_stack_id");
  open_sink(&by_level, u"ct_stack_level");
  open_sink(&none, u"ct_stack_none");
  ENABLE_TRACE_PARAMETERS p = params_v2(EVENT_ENABLE_PROPERTY_STACK_TRACE, NULL, 0);
  CHECK_EQ(EnableTraceEx2(all.session, &g, 1, 0, 0, 0, INFINITE, &p), 0);
  EVENT_FILTER_EVENT_ID ids = {TRUE, 0, 1, {2}};
  EVENT_FILTER_DESCRIPTOR di = {(ULONGLONG)(uintptr_t)&ids, 6, EVENT_FILTER_TYPE_STACKWALK};
  p = params_v2(EVENT_ENABLE_PROPERTY_STACK_TRACE, &di, 1);
  CHECK_EQ(EnableTraceEx2(by_id.session, &g, 1, 0, 0, 0, INFINITE, &p), 0);
  EVENT_FILTER_LEVEL_KW lk = {0, 0, 2, TRUE};
  EVENT_FILTER_DESCRIPTOR dl = {(ULONGLONG)(uintptr_t)&lk, sizeof lk,
                                EVENT_FILTER_TYPE_STACKWALK_LEVEL_KW};
  p = params_v2(EVENT_ENABLE_PROPERTY_STACK_TRACE, &dl, 1);
  CHECK_EQ(EnableTraceEx2(by_level.session, &g, 1, 0, 0, 0, INFINITE, &p), 0);
  p = params_v2(0, &di, 1); /* a stack filter without STACK_TRACE selects nothing */
  CHECK_EQ(EnableTraceEx2(none.session, &g, 1, 0, 0, 0, INFINITE, &p), 0);
  CHECK_EQ(emit_for_stack(h, 1, 4), 0);
  CHECK_EQ(emit_for_stack(h, 2, 4), 0);
  CHECK_EQ(emit_for_stack(h, 3, 2), 0);
  close_sink(&all);
  close_sink(&by_id);
  close_sink(&by_level);
  close_sink(&none);
  CHECK_EQ(all.got.count, 3);
  for (int i = 0; i < 3; ++i) {
    const Got* e = &all.got.events[i];
    CHECK(e->stack_frames >= 2);
    CHECK(in_emit_for_stack(e->stack[0]));
    CHECK(!in_emit_for_stack(e->stack[1]));
    CHECK(e->header.Flags & EVENT_HEADER_FLAG_EXTENDED_INFO);
  }
  CHECK_EQ(by_id.got.count, 3);
  CHECK_EQ(by_id.got.events[0].stack_frames, -1);
  CHECK(in_emit_for_stack(by_id.got.events[1].stack[0]));
  CHECK_EQ(by_id.got.events[2].stack_frames, -1);
  CHECK_EQ(by_level.got.events[0].stack_frames, -1);
  CHECK_EQ(by_level.got.events[1].stack_frames, -1);
  CHECK(in_emit_for_stack(by_level.got.events[2].stack[0]));
  CHECK_EQ(none.got.count, 3);
  for (int i = 0; i < 3; ++i) CHECK_EQ(none.got.events[i].stack_frames, -1);
  CHECK_EQ(EventUnregister(h), 0);
}
