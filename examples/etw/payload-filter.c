/* examples/etw/payload-filter.c — the payload filter sample of the EnableTraceEx2
 * documentation, complete: load the provider's manifest (Example.man), build one payload
 * filter per event with TdhCreatePayloadFilter, aggregate them into one
 * EVENT_FILTER_DESCRIPTOR, enable a real-time session with it, write a mix of events as
 * the provider, and print what the consumer receives.
 *
 *   Example_Event_1: Initiator IS "User" AND Level BETWEEN 7,16
 *   Example_Event_2: Title CONTAINS "UNI" OR InstanceId IS {0E95CFBC-…} OR ErrorCode NE 0
 *
 * (The documentation passes EventMatchANY = FALSE for the second filter although it means
 * OR; this sample passes TRUE.) Usage: payload-filter [path/to/Example.man]. Exit code 0
 * when every step succeeded. tests/tdh_api checks the exact output. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "pfc/etw/evntcons.h"
#include "pfc/etw/evntrace.h"
#include "pfc/etw/tdh.h"

/* {37a59b93-bb25-4cee-97aa-8b6acd0c4df8} */
static const GUID kProvider = {
    0x37a59b93, 0xbb25, 0x4cee, {0x97, 0xaa, 0x8b, 0x6a, 0xcd, 0x0c, 0x4d, 0xf8}};
/* {0E95CFBC-58D4-44BA-BE40-E63A853536DF} */
static const GUID kInstance = {
    0x0e95cfbc, 0x58d4, 0x44ba, {0xbe, 0x40, 0xe6, 0x3a, 0x85, 0x35, 0x36, 0xdf}};
static const GUID kOtherInstance = {
    0x12345678, 0x58d4, 0x44ba, {0xbe, 0x40, 0xe6, 0x3a, 0x85, 0x35, 0x36, 0xdf}};

typedef struct {
  EVENT_TRACE_PROPERTIES props;
  WCHAR name[64];
} Properties;

static int check(const char* what, ULONG rc) {
  if (rc != ERROR_SUCCESS) {
    fprintf(stderr, "%s failed: %lu %s\n", what, (unsigned long)rc, PfcTdhGetLastErrorMessage());
  }
  return rc == ERROR_SUCCESS;
}

/* Prints a UTF-16 string field at *p (ASCII only in this sample) and moves past it. */
static void print_wstring(const UCHAR** p, const UCHAR* end) {
  putchar('"');
  while (*p + 2 <= end) {
    WCHAR c;
    memcpy(&c, *p, 2);
    *p += 2;
    if (c == 0) break;
    putchar(c < 128 ? (char)c : '?');
  }
  putchar('"');
}

static ULONG read_u32(const UCHAR* p, const UCHAR* end) {
  ULONG v = 0;
  if (p + 4 <= end) memcpy(&v, p, 4);
  return v;
}

static VOID WINAPI on_event(PEVENT_RECORD r) {
  const UCHAR* p = (const UCHAR*)r->UserData;
  const UCHAR* end = p + r->UserDataLength;
  switch (r->EventHeader.EventDescriptor.Id) {
    case 1:
      printf("received Example_Event_1 Initiator=");
      print_wstring(&p, end);
      printf(" Level=%lu\n", (unsigned long)read_u32(p, end));
      break;
    case 2: {
      printf("received Example_Event_2 Title=");
      print_wstring(&p, end);
      GUID g = {0};
      if (p + 16 <= end) memcpy(&g, p, 16);
      printf(" InstanceId=%s ErrorCode=%lu\n",
             IsEqualGUID(&g, &kInstance) ? "{0E95CFBC-...}" : "other",
             (unsigned long)read_u32(p + 16, end));
      break;
    }
    default: printf("received event %u\n", r->EventHeader.EventDescriptor.Id);
  }
}

static void* consume(void* handle) {
  TRACEHANDLE h = *(TRACEHANDLE*)handle;
  ProcessTrace(&h, 1, NULL, NULL);
  return NULL;
}

static ULONG write_event1(REGHANDLE reg, const WCHAR* initiator, ULONG level) {
  EVENT_DESCRIPTOR d;
  EventDescCreate(&d, 1, 0, 16, 1, 1, 1, 0x1);
  EVENT_DATA_DESCRIPTOR data[2];
  size_t n = 0;
  while (initiator[n] != 0) ++n;
  EventDataDescCreate(&data[0], initiator, (ULONG)((n + 1) * sizeof(WCHAR)));
  EventDataDescCreate(&data[1], &level, sizeof level);
  return EventWrite(reg, &d, 2, data);
}

static ULONG write_event2(REGHANDLE reg, const WCHAR* title, const GUID* id, ULONG error) {
  EVENT_DESCRIPTOR d;
  EventDescCreate(&d, 2, 0, 16, 1, 2, 10, 0x6);
  EVENT_DATA_DESCRIPTOR data[3];
  size_t n = 0;
  while (title[n] != 0) ++n;
  EventDataDescCreate(&data[0], title, (ULONG)((n + 1) * sizeof(WCHAR)));
  EventDataDescCreate(&data[1], id, sizeof *id);
  EventDataDescCreate(&data[2], &error, sizeof error);
  return EventWrite(reg, &d, 3, data);
}

static ULONG write_plain(REGHANDLE reg, USHORT id, UCHAR level) {
  EVENT_DESCRIPTOR d;
  EventDescCreate(&d, id, 0, 0, level, 0, 0, id == 4 ? 0x1 : 0x2);
  return EventWrite(reg, &d, 0, NULL);
}

/* The documentation's filters, aggregated into *desc. */
static int build_filters(EVENT_FILTER_DESCRIPTOR* desc) {
  PAYLOAD_FILTER_PREDICATE p1[2] = {{(LPWSTR)u"Initiator", PAYLOADFIELD_IS, (LPWSTR)u"User"},
                                    {(LPWSTR)u"Level", PAYLOADFIELD_BETWEEN, (LPWSTR)u"7,16"}};
  PAYLOAD_FILTER_PREDICATE p2[3] = {
      {(LPWSTR)u"Title", PAYLOADFIELD_CONTAINS, (LPWSTR)u"UNI"},
      {(LPWSTR)u"InstanceId", PAYLOADFIELD_IS, (LPWSTR)u" {0E95CFBC-58D4-44BA-BE40-E63A853536DF}"},
      {(LPWSTR)u"ErrorCode", PAYLOADFIELD_NE, (LPWSTR)u"0"}};
  EVENT_DESCRIPTOR e1, e2;
  EventDescCreate(&e1, 1, 0, 0, 0, 0, 0, 0);
  EventDescCreate(&e2, 2, 0, 0, 0, 0, 0, 0);
  PVOID filters[2] = {NULL, NULL};
  int ok = check("TdhCreatePayloadFilter(Example_Event_1)",
                 TdhCreatePayloadFilter(&kProvider, &e1, FALSE, 2, p1, &filters[0])) &&
           check("TdhCreatePayloadFilter(Example_Event_2)",
                 TdhCreatePayloadFilter(&kProvider, &e2, TRUE, 3, p2, &filters[1])) &&
           check("TdhAggregatePayloadFilters", TdhAggregatePayloadFilters(2, filters, NULL, desc));
  for (int i = 0; i < 2; ++i) {
    if (filters[i] != NULL) TdhDeletePayloadFilter(&filters[i]);
  }
  return ok;
}

static int write_events(REGHANDLE reg) {
  static const struct {
    const WCHAR* initiator;
    ULONG level;
  } e1[] = {{u"User", 8}, {u"user", 10}, {u"User", 6}, {u"Admin", 8}, {u"User", 16}, {u"User", 17}};
  static const struct {
    const WCHAR* title;
    const GUID* id;
    ULONG error;
  } e2[] = {{u"UNIX", &kOtherInstance, 0},
            {u"Backup", &kInstance, 0},
            {u"Backup", &kOtherInstance, 5},
            {u"Backup", &kOtherInstance, 0},
            {u"community", &kOtherInstance, 0}};
  int ok = 1;
  for (size_t i = 0; i < sizeof e1 / sizeof e1[0]; ++i) {
    ok &= check("EventWrite", write_event1(reg, e1[i].initiator, e1[i].level));
  }
  for (size_t i = 0; i < sizeof e2 / sizeof e2[0]; ++i) {
    ok &= check("EventWrite", write_event2(reg, e2[i].title, e2[i].id, e2[i].error));
  }
  ok &= check("EventWrite", write_plain(reg, 3, 16)); /* Example_Heartbeat: level 16 > 5 */
  ok &= check("EventWrite", write_plain(reg, 4, 4));  /* Example_Notice: no payload filter */
  return ok;
}

int main(int argc, char** argv) {
  const char* man = argc > 1 ? argv[1] : "Example.man";
  WCHAR path[260];
  size_t n = strlen(man);
  if (n >= 260) return 2;
  for (size_t i = 0; i <= n; ++i) path[i] = (WCHAR)(unsigned char)man[i];
  if (!check("TdhLoadManifest", TdhLoadManifest(path))) return 1;

  REGHANDLE reg = 0; /* registered after the manifest is loaded: routes with its layouts */
  Properties props;
  memset(&props, 0, sizeof props);
  props.props.Wnode.BufferSize = sizeof props;
  props.props.Wnode.Flags = WNODE_FLAG_TRACED_GUID;
  props.props.Wnode.ClientContext = 1;
  props.props.LogFileMode = EVENT_TRACE_REAL_TIME_MODE;
  props.props.LoggerNameOffset = offsetof(Properties, name);
  TRACEHANDLE session = 0;
  EVENT_FILTER_DESCRIPTOR desc;
  memset(&desc, 0, sizeof desc);
  if (!check("EventRegister", EventRegister(&kProvider, NULL, NULL, &reg)) ||
      !check("StartTraceW", StartTraceW(&session, (LPWSTR)u"PayloadFilterSample", &props.props)) ||
      !build_filters(&desc))
    return 1;
  printf("aggregated payload filter: %lu bytes\n", (unsigned long)desc.Size);

  ENABLE_TRACE_PARAMETERS params;
  memset(&params, 0, sizeof params);
  params.Version = ENABLE_TRACE_PARAMETERS_VERSION_2;
  params.EnableFilterDesc = &desc;
  params.FilterDescCount = 1;
  int ok = check("EnableTraceEx2",
                 EnableTraceEx2(session, &kProvider, EVENT_CONTROL_CODE_ENABLE_PROVIDER,
                                TRACE_LEVEL_VERBOSE, 0, 0, 0, &params));
  TdhCleanupPayloadEventFilterDescriptor(&desc);

  EVENT_TRACE_LOGFILEW log;
  memset(&log, 0, sizeof log);
  log.LoggerName = (LPWSTR)u"PayloadFilterSample";
  log.ProcessTraceMode = PROCESS_TRACE_MODE_REAL_TIME | PROCESS_TRACE_MODE_EVENT_RECORD;
  log.EventRecordCallback = on_event;
  TRACEHANDLE consumer = OpenTraceW(&log);
  pthread_t thread;
  ok = ok && consumer != INVALID_PROCESSTRACE_HANDLE &&
       pthread_create(&thread, NULL, consume, &consumer) == 0;
  if (ok) {
    ok = write_events(reg);
    ok &= check("ControlTraceW(STOP)",
                ControlTraceW(session, NULL, &props.props, EVENT_TRACE_CONTROL_STOP));
    pthread_join(thread, NULL);
    CloseTrace(consumer);
  }
  EventUnregister(reg);
  TdhUnloadManifest(path);
  return ok ? 0 : 1;
}
