/* examples/etw/etw_example.c — the ETW-compatible C API end to end, in one process:
 *   controller: starts two real-time sessions and enables one provider on both, with
 *               different levels and filters (event-ID filter, stack walks, a provider-side
 *               schematized filter);
 *   provider:   registers with an enable callback, learns each session's InstanceId from
 *               the FilterData chain, writes events with EventWriteEx and uses the Filter
 *               mask to apply the schematized filter itself;
 *   consumer:   one thread runs ProcessTrace on both sessions until they stop.
 * Build and run: `make etw-example` (or build the etw_example target). */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "pfc/etw/evntcons.h"
#include "pfc/etw/evntprov.h"
#include "pfc/etw/evntrace.h"

/* {6B0D5E3C-8F1A-4B6E-9C2D-3A4F5B6C7D8E} */
static const GUID kProvider = {
    0x6B0D5E3C, 0x8F1A, 0x4B6E, {0x9C, 0x2D, 0x3A, 0x4F, 0x5B, 0x6C, 0x7D, 0x8E}};

/* ---- provider ------------------------------------------------------------------------ */

/* The provider's own filter format (what a manifest <filter> would describe): sessions
 * passing it only want events whose counter is a multiple of `divisor`. */
typedef struct {
  EVENT_FILTER_HEADER header;
  ULONG divisor;
} DivisorFilter;

static struct {
  pthread_mutex_t mu;
  int sessions;
  ULONGLONG instance[8];
  ULONG divisor[8];
} g_filters = {PTHREAD_MUTEX_INITIALIZER, 0, {0}, {0}};

static void NTAPI on_enable(LPCGUID source, ULONG is_enabled, UCHAR level, ULONGLONG any,
                            ULONGLONG all, PEVENT_FILTER_DESCRIPTOR filter, PVOID context) {
  (void)source;
  (void)context;
  printf("provider: callback IsEnabled=%lu Level=%u MatchAny=0x%" PRIx64 " MatchAll=0x%" PRIx64
         "\n",
         (unsigned long)is_enabled, level, (uint64_t)any, (uint64_t)all);
  pthread_mutex_lock(&g_filters.mu);
  g_filters.sessions = 0;
  if (filter != NULL && filter->Type == EVENT_FILTER_TYPE_SCHEMATIZED) {
    const UCHAR* base = (const UCHAR*)(uintptr_t)filter->Ptr;
    for (ULONG off = 0; off + sizeof(DivisorFilter) <= filter->Size && g_filters.sessions < 8;) {
      DivisorFilter f;
      memcpy(&f, base + off, sizeof f);
      g_filters.instance[g_filters.sessions] = f.header.InstanceId;
      g_filters.divisor[g_filters.sessions] = f.divisor;
      printf("provider:   session InstanceId=0x%" PRIx64 " wants multiples of %lu\n",
             (uint64_t)f.header.InstanceId, (unsigned long)f.divisor);
      ++g_filters.sessions;
      if (f.header.NextOffset == 0) break;
      off += f.header.NextOffset;
    }
  }
  pthread_mutex_unlock(&g_filters.mu);
}

/* EventWriteEx's Filter: the InstanceIds of the sessions whose filter rejects `counter`. */
static ULONG64 excluded_sessions(ULONG counter) {
  ULONG64 mask = 0;
  pthread_mutex_lock(&g_filters.mu);
  for (int i = 0; i < g_filters.sessions; ++i)
    if (g_filters.divisor[i] != 0 && counter % g_filters.divisor[i] != 0)
      mask |= g_filters.instance[i];
  pthread_mutex_unlock(&g_filters.mu);
  return mask;
}

static void write_tick(REGHANDLE provider, USHORT id, UCHAR level, ULONG counter) {
  EVENT_DESCRIPTOR d;
  EventDescCreate(&d, id, 1, 0, level, 0, EVENT_TRACE_TYPE_INFO, 0x1);
  if (!EventEnabled(provider, &d)) return; /* nobody listening: a few instructions */
  static const WCHAR message[] = u"tick";
  EVENT_DATA_DESCRIPTOR data[2];
  EventDataDescCreate(&data[0], &counter, sizeof counter);
  EventDataDescCreate(&data[1], message, sizeof message);
  EventWriteEx(provider, &d, excluded_sessions(counter), 0, NULL, NULL, 2, data);
}

/* ---- consumer ------------------------------------------------------------------------ */

static void NTAPI on_event(PEVENT_RECORD r) {
  ULONG counter = 0;
  if (r->UserDataLength >= sizeof counter) memcpy(&counter, r->UserData, sizeof counter);
  int frames = 0;
  for (USHORT i = 0; i < r->ExtendedDataCount; ++i)
    if (r->ExtendedData[i].ExtType == EVENT_HEADER_EXT_TYPE_STACK_TRACE64)
      frames = (int)((r->ExtendedData[i].DataSize - sizeof(ULONG64)) / sizeof(ULONG64));
  printf("consumer: logger %u  event %u  level %u  counter %lu  payload %u bytes%s",
         r->BufferContext.LoggerId, r->EventHeader.EventDescriptor.Id,
         r->EventHeader.EventDescriptor.Level, (unsigned long)counter, r->UserDataLength,
         frames ? "" : "\n");
  if (frames) printf("  stack %d frames\n", frames);
}

static void* consume(void* arg) {
  TRACEHANDLE* handles = (TRACEHANDLE*)arg;
  ULONG rc = ProcessTrace(handles, 2, NULL, NULL);
  printf("consumer: ProcessTrace returned %lu\n", (unsigned long)rc);
  return NULL;
}

/* ---- controller ---------------------------------------------------------------------- */

typedef struct {
  EVENT_TRACE_PROPERTIES props;
  WCHAR name[64];
} Properties;

static TRACEHANDLE start(LPCWSTR name) {
  Properties p;
  memset(&p, 0, sizeof p);
  p.props.Wnode.BufferSize = sizeof p;
  p.props.Wnode.Flags = WNODE_FLAG_TRACED_GUID;
  p.props.LogFileMode = EVENT_TRACE_REAL_TIME_MODE;
  p.props.LoggerNameOffset = offsetof(Properties, name);
  TRACEHANDLE h = 0;
  ULONG rc = StartTraceW(&h, name, &p.props);
  if (rc != ERROR_SUCCESS) {
    fprintf(stderr, "StartTraceW failed: %lu\n", (unsigned long)rc);
    return 0;
  }
  return h;
}

static TRACEHANDLE open_realtime(LPCWSTR name) {
  EVENT_TRACE_LOGFILEW f;
  memset(&f, 0, sizeof f);
  f.LoggerName = (LPWSTR)name;
  f.ProcessTraceMode = PROCESS_TRACE_MODE_REAL_TIME | PROCESS_TRACE_MODE_EVENT_RECORD;
  f.EventRecordCallback = on_event;
  return OpenTraceW(&f);
}

static ULONG enable_verbose_with_stacks(TRACEHANDLE session) {
  EVENT_FILTER_EVENT_ID stack_ids = {TRUE, 0, 1, {2}}; /* stacks for event 2 only */
  DivisorFilter every = {{1, 1, {0}, 0, sizeof(DivisorFilter), 0}, 1};
  EVENT_FILTER_DESCRIPTOR f[2] = {
      {(ULONGLONG)(uintptr_t)&stack_ids, sizeof stack_ids, EVENT_FILTER_TYPE_STACKWALK},
      {(ULONGLONG)(uintptr_t)&every, sizeof every, EVENT_FILTER_TYPE_SCHEMATIZED}};
  ENABLE_TRACE_PARAMETERS p = {
      ENABLE_TRACE_PARAMETERS_VERSION_2, EVENT_ENABLE_PROPERTY_STACK_TRACE, 0, {0}, f, 2};
  return EnableTraceEx2(session, &kProvider, EVENT_CONTROL_CODE_ENABLE_PROVIDER,
                        TRACE_LEVEL_VERBOSE, 0, 0, INFINITE, &p);
}

static ULONG enable_event1_every_third(TRACEHANDLE session) {
  EVENT_FILTER_EVENT_ID ids = {TRUE, 0, 1, {1}}; /* only event 1 */
  DivisorFilter third = {{1, 1, {0}, 0, sizeof(DivisorFilter), 0}, 3};
  EVENT_FILTER_DESCRIPTOR f[2] = {
      {(ULONGLONG)(uintptr_t)&ids, sizeof ids, EVENT_FILTER_TYPE_EVENT_ID},
      {(ULONGLONG)(uintptr_t)&third, sizeof third, EVENT_FILTER_TYPE_SCHEMATIZED}};
  ENABLE_TRACE_PARAMETERS p = {ENABLE_TRACE_PARAMETERS_VERSION_2, 0, 0, {0}, f, 2};
  return EnableTraceEx2(session, &kProvider, EVENT_CONTROL_CODE_ENABLE_PROVIDER,
                        TRACE_LEVEL_INFORMATION, 0, 0, INFINITE, &p);
}

int main(void) {
  REGHANDLE provider = 0;
  if (EventRegister(&kProvider, on_enable, NULL, &provider) != ERROR_SUCCESS) return 1;

  TRACEHANDLE all = start(u"pfc-example-all");
  TRACEHANDLE some = start(u"pfc-example-filtered");
  if (all == 0 || some == 0) return 1;
  TRACEHANDLE consumers[2] = {open_realtime(u"pfc-example-all"),
                              open_realtime(u"pfc-example-filtered")};
  if (consumers[0] == INVALID_PROCESSTRACE_HANDLE || consumers[1] == INVALID_PROCESSTRACE_HANDLE)
    return 1;
  pthread_t consumer;
  pthread_create(&consumer, NULL, consume, consumers);

  printf(
      "controller: enabling (logger %u: verbose + stacks for event 2; logger %u: event 1, "
      "multiples of 3)\n",
      (unsigned)(all & 0xFFFF), (unsigned)(some & 0xFFFF));
  if (enable_verbose_with_stacks(all) != ERROR_SUCCESS) return 1;
  if (enable_event1_every_third(some) != ERROR_SUCCESS) return 1;

  for (ULONG i = 1; i <= 6; ++i) {
    write_tick(provider, 1, TRACE_LEVEL_INFORMATION, i);
    write_tick(provider, 2, TRACE_LEVEL_VERBOSE, i);
  }

  Properties p;
  memset(&p, 0, sizeof p);
  p.props.Wnode.BufferSize = sizeof p;
  p.props.LoggerNameOffset = offsetof(Properties, name);
  ControlTraceW(all, NULL, &p.props, EVENT_TRACE_CONTROL_STOP);
  printf("controller: stopped logger %u (%lu events lost)\n", (unsigned)(all & 0xFFFF),
         (unsigned long)p.props.EventsLost);
  ControlTraceW(some, NULL, &p.props, EVENT_TRACE_CONTROL_STOP);
  pthread_join(consumer, NULL);
  CloseTrace(consumers[0]);
  CloseTrace(consumers[1]);
  EventUnregister(provider);
  return 0;
}
