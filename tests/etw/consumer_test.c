/* tests/etw/consumer_test.c — OpenTraceW, ProcessTrace and CloseTrace: errors, events
 * written before the consumer opened, ProcessTrace blocking until the session stops,
 * CloseTrace while processing, several handles in timestamp order, lost events, a burst
 * past the front ring of a large session (kept, in order, in the main ring); the pfc
 * extension PfcGetTraceProblem. */
#define _POSIX_C_SOURCE 200809L /* mkstemp */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "etw_test.h"
#include "etw_util.h"
#include "pfc/etw/pfc_etw_ext.h"

TEST(open_trace_errors) {
  SetLastError(0);
  CHECK_EQ(OpenTraceW(NULL), INVALID_PROCESSTRACE_HANDLE);
  CHECK_EQ(GetLastError(), ERROR_INVALID_PARAMETER);
  EVENT_TRACE_LOGFILEW f;
  memset(&f, 0, sizeof f);
  f.ProcessTraceMode = PROCESS_TRACE_MODE_REAL_TIME | PROCESS_TRACE_MODE_EVENT_RECORD;
  CHECK_EQ(OpenTraceW(&f), INVALID_PROCESSTRACE_HANDLE); /* no LoggerName */
  CHECK_EQ(GetLastError(), ERROR_INVALID_PARAMETER);
  f.LoggerName = (LPWSTR)u"cs_no_such_session";
  CHECK_EQ(OpenTraceW(&f), INVALID_PROCESSTRACE_HANDLE);
  CHECK_EQ(GetLastError(), ERROR_WMI_INSTANCE_NOT_FOUND);
  TRACEHANDLE s = start_session(u"cs_open_errors");
  f.LoggerName = (LPWSTR)u"cs_open_errors";
  f.ProcessTraceMode = PROCESS_TRACE_MODE_EVENT_RECORD; /* not real time */
  CHECK_EQ(OpenTraceW(&f), INVALID_PROCESSTRACE_HANDLE);
  CHECK_EQ(GetLastError(), ERROR_NOT_SUPPORTED);
  f.ProcessTraceMode = PROCESS_TRACE_MODE_REAL_TIME; /* EVENT_TRACE callbacks */
  CHECK_EQ(OpenTraceW(&f), INVALID_PROCESSTRACE_HANDLE);
  CHECK_EQ(GetLastError(), ERROR_NOT_SUPPORTED);
  f.ProcessTraceMode = PROCESS_TRACE_MODE_REAL_TIME | PROCESS_TRACE_MODE_EVENT_RECORD;
  f.LogFileName = (LPWSTR)u"no-such-trace.etl"; /* a log file: docs/logfile.md */
  CHECK_EQ(OpenTraceW(&f), INVALID_PROCESSTRACE_HANDLE);
  CHECK_EQ(GetLastError(), ERROR_FILE_NOT_FOUND);
  f.LogFileName = NULL;
  TRACEHANDLE c = OpenTraceW(&f);
  CHECK(c != INVALID_PROCESSTRACE_HANDLE);
  CHECK_EQ(f.LogfileHeader.PointerSize, 8);
  CHECK(f.LogfileHeader.StartTime.QuadPart > 0);
  CHECK_EQ(f.LogfileHeader.PerfFreq.QuadPart, 10000000);
  stop_session(s);
  CHECK_EQ(CloseTrace(c), 0);
}

/* PfcGetTraceProblem (docs/etw.md "pfc extensions"): the text of a refused log-file open,
 * its sizes, its argument errors, and no problem for a consumer that reads no file. */
TEST(trace_problem) {
  char path[] = "/tmp/pfc-problem-XXXXXX";
  const int fd = mkstemp(path);
  CHECK(fd >= 0);
  CHECK_EQ(write(fd, "not a log file", 14), 14);
  close(fd);
  WCHAR wpath[32];
  size_t i = 0;
  for (; path[i] != 0; ++i) wpath[i] = (WCHAR)path[i];
  wpath[i] = 0;
  EVENT_TRACE_LOGFILEW f;
  memset(&f, 0, sizeof f);
  f.LogFileName = wpath;
  f.ProcessTraceMode = PROCESS_TRACE_MODE_EVENT_RECORD;
  CHECK_EQ(OpenTraceW(&f), INVALID_PROCESSTRACE_HANDLE);
  CHECK_EQ(GetLastError(), ERROR_BAD_FORMAT);
  unlink(path);
  ULONG size = 0;
  BOOLEAN damaged = TRUE;
  char text[512];
  CHECK_EQ(PfcGetTraceProblem(INVALID_PROCESSTRACE_HANDLE, NULL, 0, &size, &damaged),
           ERROR_MORE_DATA);
  CHECK(size > 1 && size <= sizeof text);
  CHECK_EQ(damaged, FALSE);
  CHECK_EQ(PfcGetTraceProblem(INVALID_PROCESSTRACE_HANDLE, text, size - 1, &size, NULL),
           ERROR_MORE_DATA);
  CHECK_EQ(PfcGetTraceProblem(INVALID_PROCESSTRACE_HANDLE, text, sizeof text, &size, NULL), 0);
  CHECK_EQ(strlen(text) + 1, size);
  CHECK(strstr(text, path) != NULL);
  CHECK(strstr(text, "not a pfc trace log file") != NULL);
  CHECK_EQ(PfcGetTraceProblem(INVALID_PROCESSTRACE_HANDLE, text, sizeof text, NULL, NULL),
           ERROR_INVALID_PARAMETER);
  CHECK_EQ(PfcGetTraceProblem(INVALID_PROCESSTRACE_HANDLE, NULL, 4, &size, NULL),
           ERROR_INVALID_PARAMETER);
  CHECK_EQ(PfcGetTraceProblem((TRACEHANDLE)0x4242, text, sizeof text, &size, NULL),
           ERROR_INVALID_HANDLE);
  f.LogFileName = (LPWSTR)u"no-such-trace.etl"; /* another outcome: no problem text */
  CHECK_EQ(OpenTraceW(&f), INVALID_PROCESSTRACE_HANDLE);
  CHECK_EQ(GetLastError(), ERROR_FILE_NOT_FOUND);
  CHECK_EQ(PfcGetTraceProblem(INVALID_PROCESSTRACE_HANDLE, text, sizeof text, &size, NULL), 0);
  CHECK_EQ(size, 1);
  CHECK_EQ(text[0], 0);
  TRACEHANDLE s = start_session(u"cs_trace_problem");
  Collector col = {0};
  TRACEHANDLE c = open_consumer(u"cs_trace_problem", &col);
  damaged = TRUE;
  CHECK_EQ(PfcGetTraceProblem(c, text, sizeof text, &size, &damaged), 0);
  CHECK_EQ(size, 1);
  CHECK_EQ(damaged, FALSE);
  CHECK_EQ(CloseTrace(c), 0);
  CHECK_EQ(PfcGetTraceProblem(c, text, sizeof text, &size, NULL), ERROR_INVALID_HANDLE);
  stop_session(s);
}

TEST(process_and_close_trace_errors) {
  TRACEHANDLE bogus = 0x4242;
  CHECK_EQ(ProcessTrace(NULL, 1, NULL, NULL), ERROR_INVALID_PARAMETER);
  CHECK_EQ(ProcessTrace(&bogus, 0, NULL, NULL), ERROR_INVALID_PARAMETER);
  TRACEHANDLE many[65] = {0};
  CHECK_EQ(ProcessTrace(many, 65, NULL, NULL), ERROR_INVALID_PARAMETER);
  CHECK_EQ(ProcessTrace(&bogus, 1, NULL, NULL), ERROR_INVALID_HANDLE);
  CHECK_EQ(CloseTrace(bogus), ERROR_INVALID_HANDLE);
  TRACEHANDLE s = start_session(u"cs_process_errors");
  Collector col = {0};
  TRACEHANDLE c = open_consumer(u"cs_process_errors", &col);
  CHECK_EQ(CloseTrace(c), 0);
  CHECK_EQ(CloseTrace(c), ERROR_INVALID_HANDLE);
  CHECK_EQ(ProcessTrace(&c, 1, NULL, NULL), ERROR_INVALID_HANDLE);
  stop_session(s);
}

TEST(events_written_before_the_consumer_opened_are_delivered) {
  GUID g = test_guid(0x300, 1);
  REGHANDLE h;
  CHECK_EQ(EventRegister(&g, NULL, NULL, &h), 0);
  TRACEHANDLE s = start_session(u"cs_before_open");
  CHECK_EQ(EnableTraceEx2(s, &g, 1, 0, 0, 0, INFINITE, NULL), 0);
  CHECK_EQ(write_event(h, 1, 4, 0, 11), 0);
  CHECK_EQ(write_event(h, 2, 4, 0, 22), 0);
  Collector col = {0};
  TRACEHANDLE c = open_consumer(u"cs_before_open", &col);
  CHECK_EQ(write_event(h, 3, 4, 0, 33), 0);
  stop_session(s);
  drain(c);
  char buf[64];
  CHECK(strcmp(ids_of(&col, buf, sizeof buf), "1,2,3") == 0);
  ULONG v;
  memcpy(&v, col.events[1].data, 4);
  CHECK_EQ(v, 22);
  CHECK_EQ(EventUnregister(h), 0);
}

typedef struct {
  TRACEHANDLE consumer;
  ULONG result;
} Processor;

static void* run_process_trace(void* arg) {
  Processor* p = (Processor*)arg;
  p->result = ProcessTrace(&p->consumer, 1, NULL, NULL);
  return NULL;
}

TEST(process_trace_delivers_until_the_session_stops) {
  GUID g = test_guid(0x301, 1);
  REGHANDLE h;
  CHECK_EQ(EventRegister(&g, NULL, NULL, &h), 0);
  TRACEHANDLE s = start_session(u"cs_live");
  Collector col = {0};
  Processor p = {open_consumer(u"cs_live", &col), 99};
  pthread_t t;
  CHECK_EQ(pthread_create(&t, NULL, run_process_trace, &p), 0);
  CHECK_EQ(EnableTraceEx2(s, &g, 1, 0, 0, 0, INFINITE, NULL), 0);
  for (USHORT id = 1; id <= 100; ++id) CHECK_EQ(write_event(h, id, 4, 0, id), 0);
  stop_session(s);
  CHECK_EQ(pthread_join(t, NULL), 0);
  CHECK_EQ(p.result, ERROR_SUCCESS);
  CHECK_EQ(col.count, 100);
  for (int i = 0; i < 100; ++i) CHECK_EQ(col.events[i].header.EventDescriptor.Id, i + 1);
  CHECK_EQ(CloseTrace(p.consumer), 0);
  CHECK_EQ(EventUnregister(h), 0);
}

/* Signals the test when the first event has been delivered. */
static pthread_mutex_t seen_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t seen_cv = PTHREAD_COND_INITIALIZER;
static int seen;

static void note_event(PEVENT_RECORD r) {
  (void)r;
  pthread_mutex_lock(&seen_mu);
  ++seen;
  pthread_cond_broadcast(&seen_cv);
  pthread_mutex_unlock(&seen_mu);
}

TEST(close_trace_while_processing_is_pending_and_ends_process_trace) {
  GUID g = test_guid(0x302, 1);
  REGHANDLE h;
  CHECK_EQ(EventRegister(&g, NULL, NULL, &h), 0);
  TRACEHANDLE s = start_session(u"cs_close_pending");
  EVENT_TRACE_LOGFILEW f;
  memset(&f, 0, sizeof f);
  f.LoggerName = (LPWSTR)u"cs_close_pending";
  f.ProcessTraceMode = PROCESS_TRACE_MODE_REAL_TIME | PROCESS_TRACE_MODE_EVENT_RECORD;
  f.EventRecordCallback = note_event;
  Processor p = {OpenTraceW(&f), 99};
  CHECK(p.consumer != INVALID_PROCESSTRACE_HANDLE);
  pthread_t t;
  CHECK_EQ(pthread_create(&t, NULL, run_process_trace, &p), 0);
  CHECK_EQ(EnableTraceEx2(s, &g, 1, 0, 0, 0, INFINITE, NULL), 0);
  CHECK_EQ(write_event(h, 1, 4, 0, 0), 0);
  pthread_mutex_lock(&seen_mu);
  while (seen == 0) pthread_cond_wait(&seen_cv, &seen_mu);
  pthread_mutex_unlock(&seen_mu);
  CHECK_EQ(CloseTrace(p.consumer), ERROR_CTX_CLOSE_PENDING);
  CHECK_EQ(pthread_join(t, NULL), 0);
  CHECK_EQ(p.result, ERROR_SUCCESS);
  CHECK_EQ(CloseTrace(p.consumer), ERROR_INVALID_HANDLE); /* freed by ProcessTrace */
  stop_session(s);
  CHECK_EQ(EventUnregister(h), 0);
}

TEST(process_trace_merges_several_sessions_in_timestamp_order) {
  GUID g = test_guid(0x303, 1);
  REGHANDLE h;
  CHECK_EQ(EventRegister(&g, NULL, NULL, &h), 0);
  TRACEHANDLE a = start_session(u"cs_merge_a");
  TRACEHANDLE b = start_session(u"cs_merge_b");
  Collector col = {0};
  TRACEHANDLE c[2] = {open_consumer(u"cs_merge_a", &col), open_consumer(u"cs_merge_b", &col)};
  EVENT_FILTER_EVENT_ID odd = {TRUE, 0, 1, {1}};
  EVENT_FILTER_EVENT_ID even = {TRUE, 0, 1, {2}};
  EVENT_FILTER_DESCRIPTOR da = {(ULONGLONG)(uintptr_t)&odd, 6, EVENT_FILTER_TYPE_EVENT_ID};
  EVENT_FILTER_DESCRIPTOR db = {(ULONGLONG)(uintptr_t)&even, 6, EVENT_FILTER_TYPE_EVENT_ID};
  ENABLE_TRACE_PARAMETERS pa = params_v2(0, &da, 1), pb = params_v2(0, &db, 1);
  CHECK_EQ(EnableTraceEx2(a, &g, 1, 0, 0, 0, INFINITE, &pa), 0);
  CHECK_EQ(EnableTraceEx2(b, &g, 1, 0, 0, 0, INFINITE, &pb), 0);
  for (ULONG i = 0; i < 20; ++i) CHECK_EQ(write_event(h, (USHORT)(1 + i % 2), 4, 0, i), 0);
  stop_session(a);
  stop_session(b);
  CHECK_EQ(ProcessTrace(c, 2, NULL, NULL), 0);
  CHECK_EQ(col.count, 20);
  for (int i = 1; i < 20; ++i)
    CHECK(col.events[i].header.TimeStamp.QuadPart >= col.events[i - 1].header.TimeStamp.QuadPart);
  int from_a = 0;
  for (int i = 0; i < 20; ++i) {
    const Got* e = &col.events[i];
    CHECK_EQ(e->logger_id, e->header.EventDescriptor.Id == 1 ? (a & 0xFFFF) : (b & 0xFFFF));
    from_a += e->logger_id == (a & 0xFFFF);
  }
  CHECK_EQ(from_a, 10);
  CHECK_EQ(CloseTrace(c[0]), 0);
  CHECK_EQ(CloseTrace(c[1]), 0);
  CHECK_EQ(EventUnregister(h), 0);
}

/* Counts delivered events and checks that their sequence numbers (the first 4 payload
 * bytes) increase. */
typedef struct {
  ULONG count;
  ULONG next_min;
  int out_of_order;
} Sequence;

static void note_sequence(PEVENT_RECORD r) {
  Sequence* s = (Sequence*)r->UserContext;
  ULONG v = 0;
  if (r->UserDataLength >= sizeof v) memcpy(&v, r->UserData, sizeof v);
  if (v < s->next_min) s->out_of_order = 1;
  s->next_min = v + 1;
  s->count++;
}

/* A session of buffer_kb × max_buffers KB (ring_capacity: at least 128 buffers) and
 * `count` events of `payload` bytes (at most 1000) numbered from 0, written with nobody
 * reading. */
typedef struct {
  ULONG buffer_kb;
  ULONG max_buffers;
  ULONG payload;
  ULONG count;
} Burst;

/* Writes the burst, then reads it all into `seq`; returns the session's EventsLost. */
static ULONG burst(LPCWSTR name, ULONG tag, Burst b, Sequence* seq) {
  GUID g = test_guid(tag, 1);
  REGHANDLE h;
  CHECK_EQ(EventRegister(&g, NULL, NULL, &h), 0);
  Properties p;
  init_properties(&p);
  p.props.BufferSize = b.buffer_kb;
  p.props.MaximumBuffers = b.max_buffers;
  TRACEHANDLE s;
  CHECK_EQ(StartTraceW(&s, name, &p.props), 0);
  CHECK_EQ(EnableTraceEx2(s, &g, 1, 0, 0, 0, INFINITE, NULL), 0);
  static UCHAR payload[1000];
  EVENT_DESCRIPTOR d;
  EventDescCreate(&d, 1, 0, 0, 4, 0, 0, 0);
  EVENT_DATA_DESCRIPTOR data;
  EventDataDescCreate(&data, payload, b.payload);
  for (ULONG i = 0; i < b.count; ++i) {
    memcpy(payload, &i, sizeof i);
    CHECK_EQ(EventWrite(h, &d, 1, &data), 0);
  }
  init_properties(&p);
  CHECK_EQ(QueryTraceW(s, NULL, &p.props), 0);
  const ULONG lost = p.props.EventsLost;
  TRACEHANDLE c = open_consumer_with(name, note_sequence, seq);
  stop_session(s);
  drain(c);
  CHECK_EQ(EventUnregister(h), 0);
  return lost;
}

TEST(a_full_session_buffer_loses_events_and_counts_them) {
  /* 4 KB × 128 = 512 KB, the smallest ring: about 510 of these 1,024-byte records. */
  Sequence seq = {0, 0, 0};
  const Burst b = {4, 1, 1000, 1000};
  const ULONG lost = burst(u"cs_lost", 0x304, b, &seq);
  CHECK(lost > 0 && lost < 1000);
  CHECK_EQ(seq.count + lost, 1000);
  CHECK_EQ(seq.out_of_order, 0);
}

/* 256 KB × 128 = 32 MB, the smallest ring with a front ring (8 MB); 224-byte records: the
 * front ring holds about 37,400 of them, the main ring about 149,800. */
static const Burst kPastTheFront = {256, 64, 200, 60000};

TEST(a_burst_past_the_front_ring_is_kept_in_order_by_the_main_ring) {
  Sequence seq = {0, 0, 0};
  CHECK_EQ(burst(u"cs_front", 0x305, kPastTheFront, &seq), 0);
  CHECK_EQ(seq.count, 60000);
  CHECK_EQ(seq.out_of_order, 0);
}

TEST(a_burst_past_both_rings_loses_only_what_neither_holds) {
  Sequence seq = {0, 0, 0};
  Burst b = kPastTheFront;
  b.count = 240000;
  const ULONG lost = burst(u"cs_front_full", 0x306, b, &seq);
  CHECK(lost > 40000 && lost < 70000); /* the main ring alone would lose about 90,200 */
  CHECK_EQ(seq.count + lost, 240000);
  CHECK_EQ(seq.out_of_order, 0);
}
