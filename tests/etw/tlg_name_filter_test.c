/* tests/etw/tlg_name_filter_test.c — EVENT_FILTER_TYPE_EVENT_NAME on TraceLogging events
 * (docs/semantics.md §1.7, docs/etw.md "TraceLogging"), following Microsoft's
 * EVENT_FILTER_EVENT_NAME page: the filter applies to the events its Level /
 * MatchAnyKeyword / MatchAllKeyword select and keeps (FilterIn) or drops the listed names;
 * other events, and events without a name (written with EventWrite for the same GUID),
 * pass. Each event carries its number as a UInt32 payload; the consumer lists them.
 * EVENT_FILTER_TYPE_STACKWALK_NAME, the same structure, selects stacks by the same rule. */
#include <stdio.h>
#include <string.h>

#include "etw_test.h"
#include "etw_util.h"
#include "pfc/etw/TraceLoggingProvider.h"

/* {00000500-0000-4000-8000-000000000001}, test_guid(0x500, 1). */
TRACELOGGING_DEFINE_PROVIDER(g_named, "Pfc.Test.NameFilter",
                             (0x00000500, 0, 0x4000, 0x80, 0, 0, 0, 0, 0, 0, 0x01));

/* EVENT_FILTER_EVENT_NAME with `names` ("A\0B\0"): NameCount `count`. */
typedef struct {
  EVENT_FILTER_EVENT_NAME head;
  UCHAR more[64];
} NameFilter;
static ULONG name_filter(NameFilter* f, UCHAR level, ULONGLONG any, BOOLEAN in, USHORT count,
                         const char* names, size_t size) {
  memset(f, 0, sizeof *f);
  f->head.MatchAnyKeyword = any;
  f->head.Level = level;
  f->head.FilterIn = in;
  f->head.NameCount = count;
  memcpy(f->head.Names, names, size);
  return (ULONG)(offsetof(EVENT_FILTER_EVENT_NAME, Names) + size);
}

/* The payload numbers of the collected events, as "1,3" ("1s": event 1 has a stack). */
static const char* numbers(const Collector* c, char* buf, size_t size) {
  size_t n = 0;
  buf[0] = 0;
  for (int i = 0; i < c->count && n + 12 < size; ++i) {
    ULONG v = 0;
    memcpy(&v, c->events[i].data, 4);
    n += (size_t)snprintf(buf + n, size - n, i == 0 ? "%lu%s" : ",%lu%s", (unsigned long)v,
                          c->events[i].stack_frames >= 0 ? "s" : "");
  }
  return buf;
}

/* Enables g_named on a new session with `filter` of `type` and EnableProperty `property`,
 * writes: 1 "Keep" (level 4), 2 "Drop" (level 4), 3 unnamed (EventWrite, level 4), 4 "Drop"
 * (level 1, keyword 0x8), 5 "Keep" (level 1, keyword 0x8); returns the numbers the session
 * received. */
static const char* run_with(LPCWSTR session, NameFilter* filter, ULONG size, ULONG type,
                            ULONG property, char* buf) {
  CHECK_EQ(TraceLoggingRegister(g_named), S_OK);
  REGHANDLE plain = 0;
  const GUID id = TraceLoggingProviderId(g_named);
  CHECK_EQ(EventRegister(&id, NULL, NULL, &plain), 0);
  TRACEHANDLE s = start_session(session);
  EVENT_FILTER_DESCRIPTOR d = {(ULONGLONG)(ULONG_PTR)filter, size, type};
  ENABLE_TRACE_PARAMETERS p = params_v2(property, &d, 1);
  CHECK_EQ(EnableTraceEx2(s, &id, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5, 0, 0, INFINITE, &p), 0);
  Collector col = {0};
  TRACEHANDLE c = open_consumer(session, &col);
  TraceLoggingWrite(g_named, "Keep", TraceLoggingLevel(4), TraceLoggingUInt32(1, "N"));
  TraceLoggingWrite(g_named, "Drop", TraceLoggingLevel(4), TraceLoggingUInt32(2, "N"));
  CHECK_EQ(write_event(plain, 7, 4, 0, 3), 0);
  TraceLoggingWrite(g_named, "Drop", TraceLoggingLevel(1), TraceLoggingKeyword(0x8),
                    TraceLoggingUInt32(4, "N"));
  TraceLoggingWrite(g_named, "Keep", TraceLoggingLevel(1), TraceLoggingKeyword(0x8),
                    TraceLoggingUInt32(5, "N"));
  stop_session(s);
  drain(c);
  CHECK_EQ(EventUnregister(plain), 0);
  TraceLoggingUnregister(g_named);
  return numbers(&col, buf, 128);
}

static const char* run(LPCWSTR session, NameFilter* filter, ULONG size, char* buf) {
  return run_with(session, filter, size, EVENT_FILTER_TYPE_EVENT_NAME, 0, buf);
}

TEST(tlg_event_name_filter_in_keeps_listed_names_and_unnamed_events) {
  NameFilter f;
  char buf[128];
  const ULONG size = name_filter(&f, 0, 0, TRUE, 1, "Keep", 5);
  CHECK(strcmp(run(u"tlg_name_in", &f, size, buf), "1,3,5") == 0);
}

TEST(tlg_event_name_filter_out_drops_listed_names) {
  NameFilter f;
  char buf[128];
  const ULONG size = name_filter(&f, 0, 0, FALSE, 2, "Drop\0Other", 11);
  CHECK(strcmp(run(u"tlg_name_out", &f, size, buf), "1,3,5") == 0);
}

TEST(tlg_event_name_filter_applies_to_its_level_and_keywords_only) {
  NameFilter f;
  char buf[128];
  /* Level 2 and keyword 0x8: only events 4 and 5 are subject to it; 4 is not listed. */
  const ULONG size = name_filter(&f, 2, 0x8, TRUE, 1, "Keep", 5);
  CHECK(strcmp(run(u"tlg_name_level", &f, size, buf), "1,2,3,5") == 0);
  /* FilterIn FALSE with the same scope drops the listed 5 only. */
  const ULONG out = name_filter(&f, 2, 0x8, FALSE, 1, "Keep", 5);
  CHECK(strcmp(run(u"tlg_name_level_out", &f, out, buf), "1,2,3,4") == 0);
}

/* STACKWALK_NAME: every event is delivered; among the named ones its level and keywords
 * select (here all) the listed get a stack, the others none, and the unnamed event 3 is not
 * affected: it keeps the stack STACK_TRACE gives it, as EVENT_NAME leaves it alone. */
TEST(tlg_stackwalk_name_filter_leaves_unnamed_events_alone) {
  NameFilter f;
  char buf[128];
  const ULONG size = name_filter(&f, 0, 0, TRUE, 1, "Keep", 5);
  CHECK(strcmp(run_with(u"tlg_stack_in", &f, size, EVENT_FILTER_TYPE_STACKWALK_NAME,
                        EVENT_ENABLE_PROPERTY_STACK_TRACE, buf),
               "1s,2,3s,4,5s") == 0);
  const ULONG out = name_filter(&f, 0, 0, FALSE, 1, "Keep", 5);
  CHECK(strcmp(run_with(u"tlg_stack_out", &f, out, EVENT_FILTER_TYPE_STACKWALK_NAME,
                        EVENT_ENABLE_PROPERTY_STACK_TRACE, buf),
               "1,2s,3s,4s,5") == 0);
}

/* TraceLoggingRegisterEx hands its callback and context to EventRegister: the enable and
 * disable reach it; TraceLoggingProviderEnabled follows the session's level and keywords,
 * and writes nothing before TraceLoggingRegister or after TraceLoggingUnregister. */
TEST(tlg_register_ex_callback_and_provider_enabled) {
  CallbackLog log;
  init_log(&log);
  CHECK(!TraceLoggingProviderEnabled(g_named, 1, 0)); /* not registered */
  CHECK_EQ(TraceLoggingRegisterEx(g_named, record_callback, &log), S_OK);
  TRACEHANDLE s = start_session(u"tlg_register_ex");
  const GUID id = TraceLoggingProviderId(g_named);
  CHECK_EQ(EnableTraceEx2(s, &id, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 3, 0x4, 0, INFINITE, NULL),
           0);
  CHECK(TraceLoggingProviderEnabled(g_named, 3, 0x4));
  CHECK(!TraceLoggingProviderEnabled(g_named, 4, 0x4)); /* above the session's level */
  CHECK(!TraceLoggingProviderEnabled(g_named, 3, 0x8)); /* another keyword */
  CHECK_EQ(EnableTraceEx2(s, &id, EVENT_CONTROL_CODE_DISABLE_PROVIDER, 0, 0, 0, INFINITE, NULL), 0);
  CHECK(!TraceLoggingProviderEnabled(g_named, 3, 0x4));
  CHECK_EQ(log_count(&log), 2);
  CHECK_EQ(log.calls[0].is_enabled, EVENT_CONTROL_CODE_ENABLE_PROVIDER);
  CHECK_EQ(log.calls[0].level, 3);
  CHECK_EQ(log.calls[0].any, 0x4);
  CHECK_EQ(log.calls[1].is_enabled, EVENT_CONTROL_CODE_DISABLE_PROVIDER);
  stop_session(s);
  TraceLoggingUnregister(g_named);
  CHECK(!TraceLoggingProviderEnabled(g_named, 1, 0));
  TraceLoggingWrite(g_named, "AfterUnregister", TraceLoggingUInt32(9, "N")); /* a no-op */
}
