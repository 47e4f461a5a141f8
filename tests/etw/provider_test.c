/* tests/etw/provider_test.c — EventRegister / EventUnregister, EventEnabled /
 * EventProviderEnabled, the EventWrite* family, EventActivityIdControl and the enable
 * callback contract (composite state, IsEnabled 0/1/2, SourceId, FilterData chain). */
#define _GNU_SOURCE
#include <string.h>
#include <unistd.h>

#include "etw_test.h"
#include "etw_util.h"

static const GUID kSourceA = {0xA, 0, 0, {1, 2, 3, 4, 5, 6, 7, 8}};
static const GUID kSourceB = {0xB, 0, 0, {1, 2, 3, 4, 5, 6, 7, 8}};

TEST(event_register_errors) {
  GUID g = test_guid(0x100, 1);
  REGHANDLE h = 123;
  CHECK_EQ(EventRegister(NULL, NULL, NULL, &h), ERROR_INVALID_PARAMETER);
  CHECK_EQ(h, 0);
  CHECK_EQ(EventRegister(&g, NULL, NULL, NULL), ERROR_INVALID_PARAMETER);
  CHECK_EQ(EventUnregister(0), ERROR_INVALID_HANDLE);
  CHECK_EQ(EventUnregister(0x12345), ERROR_INVALID_HANDLE);
  CHECK_EQ(EventRegister(&g, NULL, NULL, &h), ERROR_SUCCESS);
  CHECK(h != 0);
  REGHANDLE h2 = 0;
  CHECK_EQ(EventRegister(&g, NULL, NULL, &h2), ERROR_SUCCESS); /* a GUID may register twice */
  CHECK(h2 != h);
  CHECK_EQ(EventUnregister(h), ERROR_SUCCESS);
  CHECK_EQ(EventUnregister(h), ERROR_INVALID_HANDLE);
  CHECK_EQ(EventUnregister(h2), ERROR_SUCCESS);
}

TEST(event_enabled_follows_the_composite) {
  GUID g = test_guid(0x101, 1);
  REGHANDLE h;
  EVENT_DESCRIPTOR d;
  EventDescCreate(&d, 1, 0, 0, 3, 0, 0, 0x1);
  CHECK(!EventEnabled(0, &d));
  CHECK_EQ(EventRegister(&g, NULL, NULL, &h), ERROR_SUCCESS);
  CHECK(!EventEnabled(h, &d));
  CHECK(!EventEnabled(h, NULL));
  CHECK(!EventProviderEnabled(h, 0, 0));
  TRACEHANDLE s = start_session(u"pv_enabled");
  CHECK_EQ(EnableTraceEx2(s, &g, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 3, 0x1, 0, INFINITE, NULL), 0);
  CHECK(EventEnabled(h, &d));
  d.Level = 4;
  CHECK(!EventEnabled(h, &d));
  d.Level = 0; /* level 0 events pass every level */
  CHECK(EventEnabled(h, &d));
  CHECK(EventProviderEnabled(h, 3, 0x1));
  CHECK(EventProviderEnabled(h, 1, 0)); /* keyword 0 passes */
  CHECK(!EventProviderEnabled(h, 3, 0x2));
  CHECK(!EventProviderEnabled(h, 5, 0x1));
  CHECK(!EventProviderEnabled(0, 1, 0));
  stop_session(s);
  CHECK(!EventProviderEnabled(h, 1, 0));
  CHECK_EQ(EventUnregister(h), 0);
  CHECK(!EventProviderEnabled(h, 1, 0));
}

TEST(event_write_errors) {
  GUID g = test_guid(0x102, 1);
  REGHANDLE h;
  EVENT_DESCRIPTOR d;
  EventDescCreate(&d, 1, 0, 0, 4, 0, 0, 0);
  EVENT_DATA_DESCRIPTOR data[MAX_EVENT_DATA_DESCRIPTORS + 1];
  memset(data, 0, sizeof data);
  CHECK_EQ(EventWrite(0, &d, 0, NULL), ERROR_INVALID_HANDLE);
  CHECK_EQ(EventRegister(&g, NULL, NULL, &h), 0);
  CHECK_EQ(EventWrite(h, &d, 0, NULL), ERROR_SUCCESS); /* nobody listens */
  CHECK_EQ(EventWrite(h, NULL, 0, NULL), ERROR_INVALID_PARAMETER);
  CHECK_EQ(EventWrite(h, &d, MAX_EVENT_DATA_DESCRIPTORS + 1, data), ERROR_INVALID_PARAMETER);
  CHECK_EQ(EventWrite(h, &d, 1, NULL), ERROR_INVALID_PARAMETER);
  /* The quiet return (no session enables h) keeps ETW's errors: a handle of another
   * generation of h's slot, of no registration or of no slot is ERROR_INVALID_HANDLE. */
  const REGHANDLE bad[] = {h ^ PFC_ETW_REGISTRATION_SLOTS, h + 1,
                           h & (PFC_ETW_REGISTRATION_SLOTS - 1), ~(REGHANDLE)0};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
    CHECK_EQ(EventWrite(bad[i], &d, 0, NULL), ERROR_INVALID_HANDLE);
    CHECK_EQ(EventWriteTransfer(bad[i], &d, NULL, NULL, 0, NULL), ERROR_INVALID_HANDLE);
    CHECK_EQ(EventWriteEx(bad[i], &d, 0, 0, NULL, NULL, 0, NULL), ERROR_INVALID_HANDLE);
  }
  CHECK_EQ(EventWrite(h, &d, 0, data), ERROR_SUCCESS);
  CHECK_EQ(EventWrite(h, &d, MAX_EVENT_DATA_DESCRIPTORS, data), ERROR_SUCCESS);
  CHECK_EQ(EventWriteTransfer(h, &d, NULL, NULL, 1, data), ERROR_SUCCESS);
  CHECK_EQ(EventWriteEx(h, &d, 0, EVENT_WRITE_FLAG_INPRIVATE, NULL, NULL, 1, data), 0);
  CHECK_EQ(EventWriteTransfer(h, NULL, NULL, NULL, 0, NULL), ERROR_INVALID_PARAMETER);
  CHECK_EQ(EventWriteEx(h, &d, 0, 0, NULL, NULL, 2, NULL), ERROR_INVALID_PARAMETER);
  TRACEHANDLE s = start_session(u"pv_write_errors");
  CHECK_EQ(EnableTraceEx2(s, &g, 1, 0, 0, 0, INFINITE, NULL), 0);
  data[0].Ptr = 0;
  data[0].Size = 4;
  CHECK_EQ(EventWrite(h, &d, 1, data), ERROR_INVALID_PARAMETER);
  static UCHAR big[40000];
  EventDataDescCreate(&data[0], big, sizeof big);
  EventDataDescCreate(&data[1], big, sizeof big);
  CHECK_EQ(EventWrite(h, &d, 2, data), ERROR_ARITHMETIC_OVERFLOW);
  /* A piece with a size but no bytes is named first, also after pieces that overflow. */
  EventDataDescCreate(&data[2], NULL, 4);
  CHECK_EQ(EventWrite(h, &d, 3, data), ERROR_INVALID_PARAMETER);
  static UCHAR huge[70000]; /* one piece over the limit: the caller's bytes, still refused */
  EventDataDescCreate(&data[0], huge, sizeof huge);
  CHECK_EQ(EventWrite(h, &d, 1, data), ERROR_ARITHMETIC_OVERFLOW);
  memset(data, 0, sizeof data); /* 128 empty pieces are fine */
  CHECK_EQ(EventWrite(h, &d, MAX_EVENT_DATA_DESCRIPTORS, data), ERROR_SUCCESS);
  stop_session(s);
  CHECK_EQ(EventUnregister(h), 0);
  CHECK_EQ(EventWrite(h, &d, 0, NULL), ERROR_INVALID_HANDLE);
  CHECK_EQ(EventWriteEx(h, &d, 0, 0, NULL, NULL, 0, NULL), ERROR_INVALID_HANDLE);
}

/* One word of the enable table, read as the library writes it: atomically. */
static ULONGLONG table_word(const ULONGLONG* words, size_t slot) {
  return __atomic_load_n(&words[slot], __ATOMIC_RELAXED);
}

/* The inline EventEnabled / EventProviderEnabled (pfc/etw/evntprov.h) answer what the
 * exported functions answer, for live, stale and foreign handles, and the enable table's
 * slot a handle leads to says whether a session enables its registration. */
static void check_inline_agrees(REGHANDLE h, const EVENT_DESCRIPTOR* d) {
  CHECK_EQ(EventEnabled(h, d), (EventEnabled)(h, d));
  CHECK_EQ(EventProviderEnabled(h, d->Level, d->Keyword),
           (EventProviderEnabled)(h, d->Level, d->Keyword));
}

TEST(inline_enabled_checks_agree_with_the_functions) {
  GUID g = test_guid(0x10A, 1);
  REGHANDLE h;
  EVENT_DESCRIPTOR on, off_level, off_keyword;
  EventDescCreate(&on, 1, 0, 0, 3, 0, 0, 0x1);
  EventDescCreate(&off_level, 1, 0, 0, 5, 0, 0, 0x1);
  EventDescCreate(&off_keyword, 1, 0, 0, 3, 0, 0, 0x2);
  CHECK_EQ(EventRegister(&g, NULL, NULL, &h), 0);
  const size_t slot = h & (PFC_ETW_REGISTRATION_SLOTS - 1);
  CHECK_EQ(slot, (USHORT)h);
  const ULONGLONG enabled_slots = table_word(&PfcEtwEnableTable->EnabledSlots, 0);
  CHECK_EQ(table_word(PfcEtwEnableTable->Enabled, slot), 0);
  const REGHANDLE stale = h ^ PFC_ETW_REGISTRATION_SLOTS; /* a slot no registration has */
  const REGHANDLE others[] = {0, stale, h + 1, 0x12345, ~(REGHANDLE)0};
  check_inline_agrees(h, &on);
  CHECK(!EventEnabled(h, &on));
  TRACEHANDLE s = start_session(u"pv_inline_checks");
  CHECK_EQ(EnableTraceEx2(s, &g, 1, 3, 0x1, 0, INFINITE, NULL), 0);
  CHECK(table_word(PfcEtwEnableTable->Enabled, slot) != 0);
  CHECK_EQ(table_word(&PfcEtwEnableTable->EnabledSlots, 0), enabled_slots + 1);
  CHECK(EventEnabled(h, &on));
  CHECK(!EventEnabled(h, NULL));
  CHECK(!EventEnabled(h, &off_level));
  CHECK(!EventEnabled(h, &off_keyword));
  check_inline_agrees(h, &on);
  check_inline_agrees(h, &off_level);
  check_inline_agrees(h, &off_keyword);
  for (size_t i = 0; i < sizeof others / sizeof others[0]; ++i) {
    CHECK(!EventEnabled(others[i], &on));
    check_inline_agrees(others[i], &on);
  }
  CHECK_EQ(EnableTraceEx2(s, &g, 0, 0, 0, 0, INFINITE, NULL), 0);
  CHECK_EQ(table_word(PfcEtwEnableTable->Enabled, slot), 0);
  CHECK(!EventEnabled(h, &on));
  CHECK_EQ(EnableTraceEx2(s, &g, 1, 3, 0x1, 0, INFINITE, NULL), 0);
  CHECK(EventEnabled(h, &on));
  CHECK_EQ(EventUnregister(h), 0);
  CHECK_EQ(table_word(PfcEtwEnableTable->Enabled, slot), 0);
  CHECK_EQ(table_word(&PfcEtwEnableTable->EnabledSlots, 0), enabled_slots);
  check_inline_agrees(h, &on);
  CHECK(!EventEnabled(h, &on));
  stop_session(s);
}

TEST(two_sessions_enable_then_disable_recomputes_the_composite) {
  GUID g = test_guid(0x103, 1);
  CallbackLog log;
  init_log(&log);
  REGHANDLE h;
  CHECK_EQ(EventRegister(&g, record_callback, &log, &h), 0);
  CHECK_EQ(log_count(&log), 0);
  TRACEHANDLE a = start_session(u"pv_seq_a");
  TRACEHANDLE b = start_session(u"pv_seq_b");
  ENABLE_TRACE_PARAMETERS pa = params_v2(0, NULL, 0);
  pa.SourceId = kSourceA;
  ENABLE_TRACE_PARAMETERS pb = params_v2(0, NULL, 0);
  pb.SourceId = kSourceB;
  CHECK_EQ(EnableTraceEx2(a, &g, 1, 3, 0x3, 0x1, INFINITE, &pa), 0);
  CHECK_EQ(EnableTraceEx2(b, &g, 1, 5, 0x6, 0x2, INFINITE, &pb), 0);
  CHECK_EQ(EnableTraceEx2(a, &g, 0, 0, 0, 0, INFINITE, NULL), 0);
  CHECK_EQ(EnableTraceEx2(b, &g, 0, 0, 0, 0, INFINITE, NULL), 0);
  CHECK_EQ(log_count(&log), 4);
  CallbackCall* c = log.calls;
  CHECK_EQ(c[0].is_enabled, EVENT_CONTROL_CODE_ENABLE_PROVIDER);
  CHECK_EQ(c[0].level, 3);
  CHECK_EQ(c[0].any, 0x3);
  CHECK_EQ(c[0].all, 0x1);
  CHECK(IsEqualGUID(&c[0].source, &kSourceA));
  CHECK_EQ(c[0].filter_size, 0);
  CHECK_EQ(c[1].is_enabled, 1);
  CHECK_EQ(c[1].level, 5); /* max */
  CHECK_EQ(c[1].any, 0x7); /* OR */
  CHECK_EQ(c[1].all, 0x0); /* AND */
  CHECK(IsEqualGUID(&c[1].source, &kSourceB));
  CHECK_EQ(c[2].is_enabled, 1); /* B still enables it */
  CHECK_EQ(c[2].level, 5);
  CHECK_EQ(c[2].any, 0x6);
  CHECK_EQ(c[2].all, 0x2);
  CHECK_EQ(c[3].is_enabled, EVENT_CONTROL_CODE_DISABLE_PROVIDER);
  stop_session(a);
  stop_session(b);
  CHECK_EQ(log_count(&log), 4); /* nothing enabled: stopping notifies no one */
  CHECK_EQ(EventUnregister(h), 0);
}

TEST(composite_normalises_level_0_and_match_any_0) {
  GUID g = test_guid(0x104, 1);
  CallbackLog log;
  init_log(&log);
  REGHANDLE h;
  CHECK_EQ(EventRegister(&g, record_callback, &log, &h), 0);
  TRACEHANDLE a = start_session(u"pv_norm_a");
  TRACEHANDLE b = start_session(u"pv_norm_b");
  CHECK_EQ(EnableTraceEx2(a, &g, 1, 0, 0, 0, INFINITE, NULL), 0);
  CHECK_EQ(EnableTraceEx2(b, &g, 1, 2, 0x10, 0x10, INFINITE, NULL), 0);
  CHECK_EQ(log_count(&log), 2);
  CHECK_EQ(log.calls[0].level, 255);
  CHECK_EQ(log.calls[0].any, ~0ull);
  CHECK_EQ(log.calls[1].level, 255);
  CHECK_EQ(log.calls[1].any, ~0ull);
  CHECK_EQ(log.calls[1].all, 0); /* MatchAll is ignored for a MatchAny-0 session */
  CHECK(IsEqualGUID(&log.calls[0].source, &GUID_NULL)); /* no parameters: no SourceId */
  stop_session(a); /* a stop notifies with SourceId GUID_NULL */
  CHECK_EQ(log_count(&log), 3);
  CHECK_EQ(log.calls[2].is_enabled, 1);
  CHECK_EQ(log.calls[2].level, 2);
  CHECK_EQ(log.calls[2].any, 0x10);
  CHECK_EQ(log.calls[2].all, 0x10);
  CHECK(IsEqualGUID(&log.calls[2].source, &GUID_NULL));
  stop_session(b);
  CHECK_EQ(log_count(&log), 4);
  CHECK_EQ(log.calls[3].is_enabled, 0);
  CHECK_EQ(EventUnregister(h), 0);
}

TEST(capture_state_notifies_without_changing_state) {
  GUID g = test_guid(0x105, 1);
  CallbackLog log;
  init_log(&log);
  REGHANDLE h;
  CHECK_EQ(EventRegister(&g, record_callback, &log, &h), 0);
  TRACEHANDLE s = start_session(u"pv_capture");
  TRACEHANDLE other = start_session(u"pv_capture_other");
  ENABLE_TRACE_PARAMETERS p = params_v2(0, NULL, 0);
  p.SourceId = kSourceA;
  CHECK_EQ(EnableTraceEx2(s, &g, 1, 4, 0xF0, 0, INFINITE, &p), 0);
  CHECK_EQ(EnableTraceEx2(s, &g, EVENT_CONTROL_CODE_CAPTURE_STATE, 0, 0, 0, INFINITE, NULL), 0);
  CHECK_EQ(log_count(&log), 2);
  CHECK_EQ(log.calls[1].is_enabled, EVENT_CONTROL_CODE_CAPTURE_STATE);
  CHECK_EQ(log.calls[1].level, 4);
  CHECK_EQ(log.calls[1].any, 0xF0);
  CHECK(EventProviderEnabled(h, 4, 0x10));
  CHECK(!EventProviderEnabled(h, 5, 0x10));
  /* a session that has not enabled the provider: nothing happens */
  CHECK_EQ(EnableTraceEx2(other, &g, EVENT_CONTROL_CODE_CAPTURE_STATE, 0, 0, 0, INFINITE, NULL), 0);
  CHECK_EQ(log_count(&log), 2);
  stop_session(s);
  stop_session(other);
  CHECK_EQ(EventUnregister(h), 0);
}

TEST(enabled_before_registration_calls_back_at_registration_with_guid_null) {
  GUID g = test_guid(0x106, 1);
  TRACEHANDLE s = start_session(u"pv_preenable");
  ENABLE_TRACE_PARAMETERS p = params_v2(0, NULL, 0);
  p.SourceId = kSourceA;
  CHECK_EQ(EnableTraceEx2(s, &g, 1, 2, 0x5, 0, INFINITE, &p), 0);
  CallbackLog log;
  init_log(&log);
  REGHANDLE h;
  CHECK_EQ(EventRegister(&g, record_callback, &log, &h), 0);
  CHECK_EQ(log_count(&log), 1); /* before EventRegister returned */
  CHECK_EQ(log.calls[0].is_enabled, 1);
  CHECK_EQ(log.calls[0].level, 2);
  CHECK_EQ(log.calls[0].any, 0x5);
  CHECK(IsEqualGUID(&log.calls[0].source, &GUID_NULL));
  CHECK(EventProviderEnabled(h, 2, 0x1));
  stop_session(s);
  CHECK_EQ(log_count(&log), 2);
  CHECK_EQ(log.calls[1].is_enabled, 0);
  CHECK_EQ(EventUnregister(h), 0);
}

/* A schematized filter: EVENT_FILTER_HEADER + 4 bytes of provider data. */
typedef struct {
  EVENT_FILTER_HEADER header;
  ULONG value;
} Schematized;

static EVENT_FILTER_DESCRIPTOR schematized(Schematized* f, USHORT id, ULONG value) {
  memset(f, 0, sizeof *f);
  f->header.Id = id;
  f->header.Version = 1;
  f->header.Size = sizeof *f;
  f->value = value;
  EVENT_FILTER_DESCRIPTOR d = {(ULONGLONG)(uintptr_t)f, sizeof *f, EVENT_FILTER_TYPE_SCHEMATIZED};
  return d;
}

/* The InstanceId the provider saw for the session whose filter carries `value`. */
static ULONGLONG instance_of(const CallbackCall* c, ULONG value) {
  ULONG off = 0;
  for (;;) {
    CHECK(off + sizeof(Schematized) <= c->filter_size);
    Schematized block;
    memcpy(&block, c->filter + off, sizeof block);
    CHECK_EQ(block.header.Size, sizeof(Schematized));
    if (block.value == value) return block.header.InstanceId;
    if (block.header.NextOffset == 0) return 0;
    off += block.header.NextOffset;
  }
}

TEST(filter_data_chains_schematized_filters_and_event_write_ex_excludes_sessions) {
  GUID g = test_guid(0x107, 1);
  CallbackLog log;
  init_log(&log);
  REGHANDLE h;
  CHECK_EQ(EventRegister(&g, record_callback, &log, &h), 0);
  TRACEHANDLE a = start_session(u"pv_chain_a");
  TRACEHANDLE b = start_session(u"pv_chain_b");
  Collector ca = {0}, cb = {0};
  TRACEHANDLE ra = open_consumer(u"pv_chain_a", &ca);
  TRACEHANDLE rb = open_consumer(u"pv_chain_b", &cb);
  Schematized fa, fb;
  EVENT_FILTER_DESCRIPTOR da = schematized(&fa, 7, 0xAAAA);
  EVENT_FILTER_DESCRIPTOR db = schematized(&fb, 7, 0xBBBB);
  ENABLE_TRACE_PARAMETERS pa = params_v2(0, &da, 1);
  ENABLE_TRACE_PARAMETERS pb = params_v2(0, &db, 1);
  CHECK_EQ(EnableTraceEx2(a, &g, 1, 0, 0, 0, INFINITE, &pa), 0);
  CHECK_EQ(EnableTraceEx2(b, &g, 1, 0, 0, 0, INFINITE, &pb), 0);
  CHECK_EQ(log_count(&log), 2);
  CHECK_EQ(log.calls[0].filter_type, EVENT_FILTER_TYPE_SCHEMATIZED);
  CHECK_EQ(log.calls[0].filter_size, sizeof(Schematized));
  const CallbackCall* last = &log.calls[1];
  CHECK_EQ(last->filter_type, EVENT_FILTER_TYPE_SCHEMATIZED);
  ULONGLONG ia = instance_of(last, 0xAAAA);
  ULONGLONG ib = instance_of(last, 0xBBBB);
  CHECK(ia != 0 && ib != 0 && ia != ib);
  CHECK_EQ(ia & (ia - 1), 0); /* one bit each */
  CHECK_EQ(ib & (ib - 1), 0);
  CHECK_EQ(ia, 1ull << ((a & 0xFFFF) - 1)); /* the session's slot bit */
  CHECK_EQ(instance_of(&log.calls[0], 0xAAAA), ia);
  EVENT_DESCRIPTOR d;
  EventDescCreate(&d, 1, 0, 0, 4, 0, 0, 0);
  CHECK_EQ(EventWriteEx(h, &d, 0, 0, NULL, NULL, 0, NULL), 0);
  d.Id = 2;
  CHECK_EQ(EventWriteEx(h, &d, ia, 0, NULL, NULL, 0, NULL), 0);
  d.Id = 3;
  CHECK_EQ(EventWriteEx(h, &d, ib, 0, NULL, NULL, 0, NULL), 0);
  d.Id = 4;
  CHECK_EQ(EventWriteEx(h, &d, ia | ib, 0, NULL, NULL, 0, NULL), 0);
  stop_session(a);
  stop_session(b);
  drain(ra);
  drain(rb);
  char buf[64];
  CHECK(strcmp(ids_of(&ca, buf, sizeof buf), "1,3") == 0);
  CHECK(strcmp(ids_of(&cb, buf, sizeof buf), "1,2") == 0);
  CHECK_EQ(EventUnregister(h), 0);
}

TEST(event_write_fills_the_header_and_concatenates_the_payload) {
  GUID g = test_guid(0x108, 1);
  REGHANDLE h;
  CHECK_EQ(EventRegister(&g, NULL, NULL, &h), 0);
  TRACEHANDLE s = start_session(u"pv_header");
  Collector col = {0};
  TRACEHANDLE r = open_consumer(u"pv_header", &col);
  CHECK_EQ(EnableTraceEx2(s, &g, 1, TRACE_LEVEL_VERBOSE, 0, 0, INFINITE, NULL), 0);
  EVENT_DESCRIPTOR d;
  EventDescCreate(&d, 42, 3, 16, TRACE_LEVEL_WARNING, 9, EVENT_TRACE_TYPE_STOP, 0x80);
  const char part1[] = "ab";
  const USHORT part2 = 0x0102;
  EVENT_DATA_DESCRIPTOR data[3];
  EventDataDescCreate(&data[0], part1, 2);
  EventDataDescCreate(&data[1], NULL, 0);
  EventDataDescCreate(&data[2], &part2, 2);
  GUID activity;
  CHECK_EQ(EventActivityIdControl(EVENT_ACTIVITY_CTRL_CREATE_SET_ID, &activity), 0);
  CHECK_EQ(EventActivityIdControl(EVENT_ACTIVITY_CTRL_GET_ID, &activity), 0);
  LONGLONG before;
  {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    before = 116444736000000000LL + (LONGLONG)ts.tv_sec * 10000000 + ts.tv_nsec / 100;
  }
  CHECK_EQ(EventWrite(h, &d, 3, data), 0);
  stop_session(s);
  drain(r);
  CHECK_EQ(col.count, 1);
  const Got* e = &col.events[0];
  CHECK(IsEqualGUID(&e->header.ProviderId, &g));
  CHECK_EQ(e->header.EventDescriptor.Id, 42);
  CHECK_EQ(e->header.EventDescriptor.Version, 3);
  CHECK_EQ(e->header.EventDescriptor.Channel, 16);
  CHECK_EQ(e->header.EventDescriptor.Level, 3);
  CHECK_EQ(e->header.EventDescriptor.Task, 9);
  CHECK_EQ(e->header.EventDescriptor.Opcode, 2);
  CHECK_EQ(e->header.EventDescriptor.Keyword, 0x80);
  CHECK_EQ(e->header.ProcessId, (ULONG)getpid());
  CHECK_EQ(e->header.ThreadId, (ULONG)gettid());
  CHECK(e->header.TimeStamp.QuadPart >= before);
  CHECK(e->header.TimeStamp.QuadPart < before + 10 * 10000000LL);
  CHECK(e->header.Flags & EVENT_HEADER_FLAG_64_BIT_HEADER);
  CHECK(!(e->header.Flags & EVENT_HEADER_FLAG_EXTENDED_INFO));
  CHECK(IsEqualGUID(&e->header.ActivityId, &activity));
  CHECK_EQ(e->logger_id, s & 0xFFFF);
  CHECK_EQ(e->size, 4);
  CHECK(memcmp(e->data, "ab\x02\x01", 4) == 0);
  CHECK_EQ(e->ext_count, 0);
  CHECK(e->user_context == &col);
  GUID zero = GUID_NULL;
  CHECK_EQ(EventActivityIdControl(EVENT_ACTIVITY_CTRL_SET_ID, &zero), 0);
  CHECK_EQ(EventUnregister(h), 0);
}

/* Byte i of the test pattern of piece `piece`. */
static UCHAR pattern(int piece, int i) { return (UCHAR)(0x11 * (piece + 1) + 3 * i); }

TEST(event_write_concatenates_pieces_of_every_size) {
  /* Pieces of 0..40 bytes (each size the copy treats differently: 0, 1, 2..3, 4..7, 8,
   * 9..16, 17..32 and more), between an empty piece with no pointer, in events of growing
   * and then shrinking totals (the thread's buffer grows once and is reused), and one
   * 300-byte event. The consumer sees exactly the concatenation. */
  GUID g = test_guid(0x10A, 1);
  REGHANDLE h;
  CHECK_EQ(EventRegister(&g, NULL, NULL, &h), 0);
  TRACEHANDLE s = start_session(u"pv_pieces");
  Collector* col = calloc(1, sizeof *col);
  CHECK(col != NULL);
  TRACEHANDLE r = open_consumer(u"pv_pieces", col);
  CHECK_EQ(EnableTraceEx2(s, &g, 1, TRACE_LEVEL_VERBOSE, 0, 0, INFINITE, NULL), 0);
  EVENT_DESCRIPTOR d;
  EventDescCreate(&d, 7, 0, 0, TRACE_LEVEL_INFORMATION, 0, 0, 0);
  static UCHAR bytes[3][300];
  for (int p = 0; p < 3; ++p)
    for (int i = 0; i < 300; ++i) bytes[p][i] = pattern(p, i);
  int sizes[82][2];
  int events = 0;
  for (int n = 0; n <= 40; ++n, ++events) { /* n, then 40 - n: totals of 40 */
    sizes[events][0] = n;
    sizes[events][1] = 40 - n;
  }
  for (int n = 40; n >= 0; n -= 1, ++events) { /* n, then n: totals shrinking from 80 */
    sizes[events][0] = n;
    sizes[events][1] = n;
  }
  for (int e = 0; e < events; ++e) {
    EVENT_DATA_DESCRIPTOR data[3];
    EventDataDescCreate(&data[0], bytes[0], (ULONG)sizes[e][0]);
    EventDataDescCreate(&data[1], NULL, 0);
    EventDataDescCreate(&data[2], bytes[2], (ULONG)sizes[e][1]);
    CHECK_EQ(EventWrite(h, &d, 3, data), 0);
  }
  EVENT_DATA_DESCRIPTOR big[3];
  EventDataDescCreate(&big[0], bytes[0], 7);
  EventDataDescCreate(&big[1], bytes[1], 200);
  EventDataDescCreate(&big[2], bytes[2], 93);
  CHECK_EQ(EventWrite(h, &d, 3, big), 0);
  stop_session(s);
  drain(r);
  CHECK_EQ(col->count, events + 1);
  for (int e = 0; e < events && e < col->count; ++e) {
    const Got* got = &col->events[e];
    CHECK_EQ(got->size, sizes[e][0] + sizes[e][1]);
    for (int i = 0; i < sizes[e][0]; ++i) CHECK_EQ(got->data[i], pattern(0, i));
    for (int i = 0; i < sizes[e][1]; ++i) CHECK_EQ(got->data[sizes[e][0] + i], pattern(2, i));
  }
  if (col->count == events + 1) {
    const Got* got = &col->events[events];
    CHECK_EQ(got->size, 300);
    for (int i = 0; i < 7; ++i) CHECK_EQ(got->data[i], pattern(0, i));
    for (int i = 0; i < 200 && 7 + i < 256; ++i) CHECK_EQ(got->data[7 + i], pattern(1, i));
  }
  free(col);
  CHECK_EQ(EventUnregister(h), 0);
}

TEST(event_write_limit_counts_every_piece) {
  /* The limit is on the total of the pieces (EVENT_HEADER included, a record fits 64 KiB),
   * also when each piece is small enough for the inline copy; size-0 pieces with no
   * pointer count nothing, and a piece with bytes but no pointer is named first. */
  GUID g = test_guid(0x10B, 1);
  REGHANDLE h;
  CHECK_EQ(EventRegister(&g, NULL, NULL, &h), 0);
  TRACEHANDLE s = start_session(u"pv_limit");
  CHECK_EQ(EnableTraceEx2(s, &g, 1, TRACE_LEVEL_VERBOSE, 0, 0, INFINITE, NULL), 0);
  EVENT_DESCRIPTOR d;
  EventDescCreate(&d, 8, 0, 0, TRACE_LEVEL_INFORMATION, 0, 0, 0);
  const ULONG limit = 0xFFFF - (ULONG)sizeof(EVENT_HEADER);
  static UCHAR bytes[0x10000];
  EVENT_DATA_DESCRIPTOR data[MAX_EVENT_DATA_DESCRIPTORS];
  /* 127 pieces of 32 bytes, then the rest of the limit in the last one: exactly fits. */
  for (int i = 0; i < MAX_EVENT_DATA_DESCRIPTORS - 1; ++i)
    EventDataDescCreate(&data[i], bytes + 32 * i, 32);
  const ULONG rest = limit - 32 * (MAX_EVENT_DATA_DESCRIPTORS - 1);
  EventDataDescCreate(&data[MAX_EVENT_DATA_DESCRIPTORS - 1], bytes, rest);
  CHECK_EQ(EventWrite(h, &d, MAX_EVENT_DATA_DESCRIPTORS, data), ERROR_SUCCESS);
  EventDataDescCreate(&data[MAX_EVENT_DATA_DESCRIPTORS - 1], bytes, rest + 1);
  CHECK_EQ(EventWrite(h, &d, MAX_EVENT_DATA_DESCRIPTORS, data), ERROR_ARITHMETIC_OVERFLOW);
  /* Small pieces only: 2 pieces of 8 bytes past a limit-filling piece. */
  EventDataDescCreate(&data[0], bytes, limit - 8);
  EventDataDescCreate(&data[1], bytes, 8);
  EventDataDescCreate(&data[2], NULL, 0);
  CHECK_EQ(EventWrite(h, &d, 3, data), ERROR_SUCCESS);
  EventDataDescCreate(&data[2], bytes, 1);
  CHECK_EQ(EventWrite(h, &d, 3, data), ERROR_ARITHMETIC_OVERFLOW);
  EventDataDescCreate(&data[2], NULL, 1);
  CHECK_EQ(EventWrite(h, &d, 3, data), ERROR_INVALID_PARAMETER);
  /* Only empty pieces, one with a pointer: an empty payload. */
  EventDataDescCreate(&data[0], NULL, 0);
  EventDataDescCreate(&data[1], bytes, 0);
  CHECK_EQ(EventWrite(h, &d, 2, data), ERROR_SUCCESS);
  /* Two small pieces, the second with bytes but no pointer. */
  EventDataDescCreate(&data[0], bytes, 4);
  EventDataDescCreate(&data[1], NULL, 4);
  CHECK_EQ(EventWrite(h, &d, 2, data), ERROR_INVALID_PARAMETER);
  stop_session(s);
  CHECK_EQ(EventUnregister(h), 0);
}

TEST(event_write_transfer_carries_activity_ids) {
  GUID g = test_guid(0x109, 1);
  REGHANDLE h;
  CHECK_EQ(EventRegister(&g, NULL, NULL, &h), 0);
  TRACEHANDLE s = start_session(u"pv_transfer");
  Collector col = {0};
  TRACEHANDLE r = open_consumer(u"pv_transfer", &col);
  CHECK_EQ(EnableTraceEx2(s, &g, 1, 0, 0, 0, INFINITE, NULL), 0);
  EVENT_DESCRIPTOR d;
  EventDescCreate(&d, 5, 0, 0, 4, 0, EVENT_TRACE_TYPE_START, 0);
  GUID act = test_guid(0xAC, 1), rel = test_guid(0xAC, 2);
  CHECK_EQ(EventWriteTransfer(h, &d, &act, &rel, 0, NULL), 0);
  CHECK_EQ(EventWriteTransfer(h, &d, &act, NULL, 0, NULL), 0);
  stop_session(s);
  drain(r);
  CHECK_EQ(col.count, 2);
  CHECK(IsEqualGUID(&col.events[0].header.ActivityId, &act));
  CHECK(col.events[0].header.Flags & EVENT_HEADER_FLAG_EXTENDED_INFO);
  CHECK_EQ(col.events[0].ext_count, 1);
  CHECK(col.events[0].has_related);
  CHECK(IsEqualGUID(&col.events[0].related, &rel));
  CHECK(!col.events[1].has_related);
  CHECK_EQ(EventUnregister(h), 0);
}

TEST(event_activity_id_control_codes) {
  GUID a, b, c;
  CHECK_EQ(EventActivityIdControl(EVENT_ACTIVITY_CTRL_GET_ID, NULL), ERROR_INVALID_PARAMETER);
  CHECK_EQ(EventActivityIdControl(99, &a), ERROR_INVALID_PARAMETER);
  CHECK_EQ(EventActivityIdControl(EVENT_ACTIVITY_CTRL_GET_ID, &a), 0);
  CHECK(IsEqualGUID(&a, &GUID_NULL)); /* a new thread's activity ID is zero */
  CHECK_EQ(EventActivityIdControl(EVENT_ACTIVITY_CTRL_CREATE_ID, &a), 0);
  CHECK(!IsEqualGUID(&a, &GUID_NULL));
  CHECK_EQ(a.Data3 >> 12, 4); /* version 4 */
  CHECK_EQ(EventActivityIdControl(EVENT_ACTIVITY_CTRL_GET_ID, &b), 0);
  CHECK(IsEqualGUID(&b, &GUID_NULL)); /* CREATE_ID does not set it */
  b = a;
  CHECK_EQ(EventActivityIdControl(EVENT_ACTIVITY_CTRL_SET_ID, &b), 0);
  CHECK_EQ(EventActivityIdControl(EVENT_ACTIVITY_CTRL_GET_ID, &c), 0);
  CHECK(IsEqualGUID(&c, &a));
  c = GUID_NULL;
  CHECK_EQ(EventActivityIdControl(EVENT_ACTIVITY_CTRL_GET_SET_ID, &c), 0);
  CHECK(IsEqualGUID(&c, &a)); /* previous returned, zero set */
  CHECK_EQ(EventActivityIdControl(EVENT_ACTIVITY_CTRL_CREATE_SET_ID, &c), 0);
  CHECK(IsEqualGUID(&c, &GUID_NULL));
  CHECK_EQ(EventActivityIdControl(EVENT_ACTIVITY_CTRL_GET_ID, &c), 0);
  CHECK(!IsEqualGUID(&c, &GUID_NULL) && !IsEqualGUID(&c, &a));
  c = GUID_NULL;
  CHECK_EQ(EventActivityIdControl(EVENT_ACTIVITY_CTRL_SET_ID, &c), 0);
}

TEST(event_write_string_is_a_string_only_event) {
  GUID g = test_guid(0x10A, 1);
  REGHANDLE h;
  CHECK_EQ(EventRegister(&g, NULL, NULL, &h), 0);
  TRACEHANDLE s = start_session(u"pv_string");
  Collector col = {0};
  TRACEHANDLE r = open_consumer(u"pv_string", &col);
  CHECK_EQ(EnableTraceEx2(s, &g, 1, 3, 0x1, 0, INFINITE, NULL), 0);
  CHECK_EQ(EventWriteString(h, 3, 0x1, NULL), ERROR_INVALID_PARAMETER);
  CHECK_EQ(EventWriteString(h, 3, 0x1, u"hi"), 0);
  CHECK_EQ(EventWriteString(h, 4, 0x1, u"dropped by level"), 0);
  stop_session(s);
  drain(r);
  CHECK_EQ(col.count, 1);
  CHECK(col.events[0].header.Flags & EVENT_HEADER_FLAG_STRING_ONLY);
  CHECK_EQ(col.events[0].header.EventDescriptor.Level, 3);
  CHECK_EQ(col.events[0].size, 6);
  CHECK(memcmp(col.events[0].data, u"hi", 6) == 0);
  CHECK_EQ(EventUnregister(h), 0);
}

TEST(inprivate_events_skip_sessions_that_exclude_them) {
  GUID g = test_guid(0x10B, 1);
  REGHANDLE h;
  CHECK_EQ(EventRegister(&g, NULL, NULL, &h), 0);
  TRACEHANDLE a = start_session(u"pv_inpriv_a");
  TRACEHANDLE b = start_session(u"pv_inpriv_b");
  Collector ca = {0}, cb = {0};
  TRACEHANDLE ra = open_consumer(u"pv_inpriv_a", &ca);
  TRACEHANDLE rb = open_consumer(u"pv_inpriv_b", &cb);
  ENABLE_TRACE_PARAMETERS pa = params_v2(EVENT_ENABLE_PROPERTY_EXCLUDE_INPRIVATE, NULL, 0);
  CHECK_EQ(EnableTraceEx2(a, &g, 1, 0, 0, 0, INFINITE, &pa), 0);
  CHECK_EQ(EnableTraceEx2(b, &g, 1, 0, 0, 0, INFINITE, NULL), 0);
  EVENT_DESCRIPTOR d;
  EventDescCreate(&d, 1, 0, 0, 4, 0, 0, 0);
  CHECK_EQ(EventWriteEx(h, &d, 0, EVENT_WRITE_FLAG_INPRIVATE, NULL, NULL, 0, NULL), 0);
  d.Id = 2;
  CHECK_EQ(EventWriteEx(h, &d, 0, 0, NULL, NULL, 0, NULL), 0);
  stop_session(a);
  stop_session(b);
  drain(ra);
  drain(rb);
  char buf[64];
  CHECK(strcmp(ids_of(&ca, buf, sizeof buf), "2") == 0);
  CHECK(strcmp(ids_of(&cb, buf, sizeof buf), "1,2") == 0);
  CHECK_EQ(EventUnregister(h), 0);
}

TEST(no_callback_after_event_unregister) {
  GUID g = test_guid(0x10C, 1);
  CallbackLog log;
  init_log(&log);
  REGHANDLE h;
  CHECK_EQ(EventRegister(&g, record_callback, &log, &h), 0);
  CHECK_EQ(EventUnregister(h), 0);
  TRACEHANDLE s = start_session(u"pv_unreg");
  CHECK_EQ(EnableTraceEx2(s, &g, 1, 0, 0, 0, INFINITE, NULL), 0);
  stop_session(s);
  CHECK_EQ(log_count(&log), 0);
}

/* A callback that blocks until the test releases it. */
typedef struct {
  pthread_mutex_t mu;
  pthread_cond_t cv;
  int released;
  int calls;
} Gate;

static void gated_callback(LPCGUID source, ULONG is_enabled, UCHAR level, ULONGLONG any,
                           ULONGLONG all, PEVENT_FILTER_DESCRIPTOR filter, PVOID context) {
  (void)source, (void)is_enabled, (void)level, (void)any, (void)all, (void)filter;
  Gate* g = (Gate*)context;
  pthread_mutex_lock(&g->mu);
  while (!g->released) pthread_cond_wait(&g->cv, &g->mu);
  ++g->calls;
  pthread_mutex_unlock(&g->mu);
}

TEST(enable_timeout_zero_is_asynchronous_and_a_short_timeout_expires) {
  GUID g = test_guid(0x10D, 1);
  Gate gate = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0};
  REGHANDLE h;
  CHECK_EQ(EventRegister(&g, gated_callback, &gate, &h), 0);
  TRACEHANDLE s = start_session(u"pv_timeout");
  CHECK_EQ(EnableTraceEx2(s, &g, 1, 1, 0, 0, 0, NULL), ERROR_SUCCESS); /* does not wait */
  CHECK_EQ(EnableTraceEx2(s, &g, 1, 2, 0, 0, 20, NULL), ERROR_TIMEOUT);
  CHECK(EventProviderEnabled(h, 2, 0)); /* the change itself was made */
  pthread_mutex_lock(&gate.mu);
  CHECK_EQ(gate.calls, 0);
  gate.released = 1;
  pthread_cond_broadcast(&gate.cv);
  pthread_mutex_unlock(&gate.mu);
  CHECK_EQ(EnableTraceEx2(s, &g, 1, 3, 0, 0, INFINITE, NULL), ERROR_SUCCESS);
  pthread_mutex_lock(&gate.mu);
  CHECK_EQ(gate.calls, 3);
  pthread_mutex_unlock(&gate.mu);
  stop_session(s);
  CHECK_EQ(EventUnregister(h), 0);
}

typedef struct {
  REGHANDLE reg;
  TRACEHANDLE session;
  GUID other;
  ULONG write_rc;
  ULONG enable_rc;
  int calls;
} Reentrant;

static void reentrant_callback(LPCGUID source, ULONG is_enabled, UCHAR level, ULONGLONG any,
                               ULONGLONG all, PEVENT_FILTER_DESCRIPTOR filter, PVOID context) {
  (void)source, (void)level, (void)any, (void)all, (void)filter;
  Reentrant* r = (Reentrant*)context;
  if (is_enabled != EVENT_CONTROL_CODE_ENABLE_PROVIDER || r->calls++ != 0) return;
  r->write_rc = write_event(r->reg, 77, 4, 0, 7); /* the registering thread set r->reg */
  r->enable_rc = EnableTraceEx2(r->session, &r->other, 1, 0, 0, 0, INFINITE, NULL);
}

TEST(callbacks_may_write_events_and_call_controller_functions) {
  GUID g = test_guid(0x10E, 1);
  Reentrant r = {0, 0, test_guid(0x10E, 2), 99, 99, 0};
  r.session = start_session(u"pv_reentrant");
  Collector col = {0};
  TRACEHANDLE c = open_consumer(u"pv_reentrant", &col);
  CHECK_EQ(EventRegister(&g, reentrant_callback, &r, &r.reg), 0);
  CHECK_EQ(EnableTraceEx2(r.session, &g, 1, 0, 0, 0, INFINITE, NULL), 0);
  CHECK_EQ(r.calls, 1);
  CHECK_EQ(r.write_rc, 0);
  CHECK_EQ(r.enable_rc, 0);
  REGHANDLE other;
  CHECK_EQ(EventRegister(&r.other, NULL, NULL, &other), 0);
  CHECK(EventProviderEnabled(other, 1, 0)); /* the callback's enable took effect */
  stop_session(r.session);
  drain(c);
  CHECK_EQ(col.count, 1);
  CHECK_EQ(col.events[0].header.EventDescriptor.Id, 77);
  CHECK_EQ(EventUnregister(r.reg), 0);
  CHECK_EQ(EventUnregister(other), 0);
}
