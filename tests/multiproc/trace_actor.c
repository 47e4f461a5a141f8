/* tests/multiproc/trace_actor.c — one role of a multi-process ETW scenario, driven by the
 * test over stdin/stdout (one command or report per line). Uses only the public C API.
 *   trace_actor start NAME [BUFFER_KB BUFFERS]      StartTraceW (real time), exits
 *   trace_actor enable NAME TAG LEVEL ANY [IDS]     EnableTraceEx2 (Timeout 10 s), IDS = 1,2,3
 *   trace_actor disable NAME TAG                     EnableTraceEx2(DISABLE)
 *   trace_actor stop NAME                            ControlTraceW(STOP): prints "stop RC
 *                                                    lost N rtlost R" (EventsLost,
 *                                                    RealTimeBuffersLost)
 *   trace_actor toggle NAME TAG ROUNDS               enables ids {2}, ids {3}, disables, in turn
 *   trace_actor provider TAG                         EventRegister; prints "callback E L ANY";
 *                                                    reads "write N THREADS" / "quit"; prints
 *                                                    "wrote C1 C2 C3 C4" (events per id);
 *                                                    "named N" writes N events id 5 with
 *                                                    payload {wstring Name, uint32 Seq}:
 *                                                    Name = named_text(Seq), Seq = 0..N-1;
 *                                                    prints "named C"
 *   trace_actor consume NAME                         prints "open", then "event PID ID SEQ"
 *                                                    per event, then "done" when it stopped
 *   trace_actor startfile NAME PATH MODE MB KB       StartTraceW with LogFileName; MODE seq,
 *                                                    circ or seqrt (sequential + real time)
 *   trace_actor stopfile NAME                        STOP: "stop RC lost N written B loglost L
 *                                                    rtlost R"
 *   trace_actor querylost NAME                       QUERY: "lost N" (EventsLost)
 *   trace_actor flush NAME                           ControlTraceW(FLUSH): "flush RC"
 *   trace_actor readfile PATH                        OpenTraceW(LogFileName): prints "header
 *                                                    NAME W L START END", events as consume,
 *                                                    then "done RC"
 *   trace_actor consume-file PATH                    OpenTraceW(LogFileName): prints
 *                                                    "event PID ID HEX" (payload in hex) per
 *                                                    event, then "done RC"
 *   trace_actor example PART                         Example-Provider (the EnableTraceEx2
 *                                                    sample's): once enabled, writes its
 *                                                    events of part 1 (Example_Event_1) or 2
 *                                                    (Example_Event_2), prints "example N",
 *                                                    then waits for "quit"
 * Provider GUIDs are {TAG-0000-4000-8000-000000000001}. Exit status 0 on success. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pfc/etw/evntcons.h"
#include "pfc/etw/evntprov.h"
#include "pfc/etw/evntrace.h"

typedef struct {
  EVENT_TRACE_PROPERTIES props;
  WCHAR name[256];
  WCHAR file[1024];
} Properties;

static GUID guid_of(const char* tag) {
  GUID g = {(ULONG)strtoul(tag, NULL, 0), 0, 0x4000, {0x80, 0, 0, 0, 0, 0, 0, 1}};
  return g;
}

static void widen(const char* s, WCHAR* out, size_t cap) {
  size_t i = 0;
  for (; s[i] != 0 && i + 1 < cap; ++i) out[i] = (WCHAR)(unsigned char)s[i];
  out[i] = 0;
}

static void init_properties(Properties* p) {
  memset(p, 0, sizeof *p);
  p->props.Wnode.BufferSize = sizeof *p;
  p->props.Wnode.Flags = WNODE_FLAG_TRACED_GUID;
  p->props.LogFileMode = EVENT_TRACE_REAL_TIME_MODE;
  p->props.LoggerNameOffset = offsetof(Properties, name);
}

static TRACEHANDLE handle_of(const char* name) {
  WCHAR w[256];
  widen(name, w, 256);
  Properties p;
  init_properties(&p);
  ULONG rc = ControlTraceW(0, w, &p.props, EVENT_TRACE_CONTROL_QUERY);
  if (rc != 0) {
    fprintf(stderr, "query %s: %lu\n", name, (unsigned long)rc);
    exit(3);
  }
  return p.props.Wnode.HistoricalContext;
}

/* StartTraceW(name, p); prints "start RC". */
static int start_session(const char* name, Properties* p) {
  WCHAR w[256];
  widen(name, w, 256);
  TRACEHANDLE h;
  ULONG rc = StartTraceW(&h, w, &p->props);
  printf("start %lu\n", (unsigned long)rc);
  return rc == 0 ? 0 : 1;
}

static int cmd_start(int argc, char** argv) {
  Properties p;
  init_properties(&p);
  if (argc > 4) {
    p.props.BufferSize = (ULONG)atoi(argv[3]);
    p.props.MaximumBuffers = (ULONG)atoi(argv[4]);
  }
  return start_session(argv[2], &p);
}

static ULONG enable_ids(TRACEHANDLE h, const GUID* g, UCHAR level, ULONGLONG any, const char* ids) {
  struct {
    EVENT_FILTER_EVENT_ID f;
    USHORT more[63];
  } filter;
  memset(&filter, 0, sizeof filter);
  filter.f.FilterIn = TRUE;
  USHORT* out = filter.f.Events;
  USHORT n = 0;
  for (const char* p = ids; p != NULL && *p != 0 && n < 64;) {
    out[n++] = (USHORT)strtoul(p, (char**)&p, 10);
    if (*p == ',') ++p;
  }
  filter.f.Count = n;
  EVENT_FILTER_DESCRIPTOR d = {(ULONGLONG)(uintptr_t)&filter, (ULONG)(4 + 2 * n),
                               EVENT_FILTER_TYPE_EVENT_ID};
  ENABLE_TRACE_PARAMETERS p;
  memset(&p, 0, sizeof p);
  p.Version = ENABLE_TRACE_PARAMETERS_VERSION_2;
  p.EnableFilterDesc = n != 0 ? &d : NULL;
  p.FilterDescCount = n != 0 ? 1 : 0;
  return EnableTraceEx2(h, g, EVENT_CONTROL_CODE_ENABLE_PROVIDER, level, any, 0, 10000, &p);
}

static int cmd_enable(int argc, char** argv) {
  GUID g = guid_of(argv[3]);
  ULONG rc = enable_ids(handle_of(argv[2]), &g, (UCHAR)atoi(argv[4]), strtoull(argv[5], NULL, 0),
                        argc > 6 ? argv[6] : NULL);
  printf("enable %lu\n", (unsigned long)rc);
  return rc == 0 ? 0 : 1;
}

static int cmd_disable(char** argv) {
  GUID g = guid_of(argv[3]);
  ULONG rc = EnableTraceEx2(handle_of(argv[2]), &g, EVENT_CONTROL_CODE_DISABLE_PROVIDER, 0, 0, 0,
                            10000, NULL);
  printf("disable %lu\n", (unsigned long)rc);
  return rc == 0 ? 0 : 1;
}

static int cmd_toggle(char** argv) {
  GUID g = guid_of(argv[3]);
  TRACEHANDLE h = handle_of(argv[2]);
  int rounds = atoi(argv[4]);
  for (int i = 0; i < rounds; ++i) {
    ULONG rc = i % 3 == 2 ? EnableTraceEx2(h, &g, EVENT_CONTROL_CODE_DISABLE_PROVIDER, 0, 0, 0,
                                           10000, NULL)
                          : enable_ids(h, &g, 5, 0, i % 3 == 0 ? "2" : "3");
    if (rc != 0) return 1;
  }
  printf("toggled %d\n", rounds);
  return 0;
}

/* ControlTraceW(STOP) of the session named `name`; its final properties in *p. */
static ULONG stop_named(const char* name, Properties* p) {
  WCHAR w[256];
  widen(name, w, 256);
  init_properties(p);
  return ControlTraceW(0, w, &p->props, EVENT_TRACE_CONTROL_STOP);
}

static int cmd_stop(char** argv) {
  Properties p;
  ULONG rc = stop_named(argv[2], &p);
  printf("stop %lu lost %lu rtlost %lu\n", (unsigned long)rc, (unsigned long)p.props.EventsLost,
         (unsigned long)p.props.RealTimeBuffersLost);
  return rc == 0 ? 0 : 1;
}

static int cmd_startfile(char** argv) {
  Properties p;
  init_properties(&p);
  const char* mode = argv[4];
  /* seq, circ, and with real-time: seqrt, circrt */
  p.props.LogFileMode = strncmp(mode, "circ", 4) == 0 ? EVENT_TRACE_FILE_MODE_CIRCULAR
                                                      : EVENT_TRACE_FILE_MODE_SEQUENTIAL;
  if (strcmp(mode + strlen(mode) - 2, "rt") == 0) p.props.LogFileMode |= EVENT_TRACE_REAL_TIME_MODE;
  p.props.MaximumFileSize = (ULONG)atoi(argv[5]);
  p.props.BufferSize = (ULONG)atoi(argv[6]);
  p.props.MaximumBuffers = 128; /* rings of 128 buffers: tests' bursts never overflow them */
  p.props.LogFileNameOffset = offsetof(Properties, file);
  widen(argv[3], p.file, 1024);
  return start_session(argv[2], &p);
}

static int cmd_flush(char** argv) {
  WCHAR w[256];
  widen(argv[2], w, 256);
  Properties p;
  init_properties(&p);
  ULONG rc = ControlTraceW(0, w, &p.props, EVENT_TRACE_CONTROL_FLUSH);
  printf("flush %lu\n", (unsigned long)rc);
  return rc == 0 ? 0 : 1;
}

/* ControlTraceW(QUERY): prints "lost N" (EventsLost). */
static int cmd_querylost(char** argv) {
  WCHAR w[256];
  widen(argv[2], w, 256);
  Properties p;
  init_properties(&p);
  ULONG rc = ControlTraceW(0, w, &p.props, EVENT_TRACE_CONTROL_QUERY);
  printf("lost %lu\n", (unsigned long)p.props.EventsLost);
  return rc == 0 ? 0 : 1;
}

static int cmd_stopfile(char** argv) {
  Properties p;
  ULONG rc = stop_named(argv[2], &p);
  printf("stop %lu lost %lu written %lu loglost %lu rtlost %lu\n", (unsigned long)rc,
         (unsigned long)p.props.EventsLost, (unsigned long)p.props.BuffersWritten,
         (unsigned long)p.props.LogBuffersLost, (unsigned long)p.props.RealTimeBuffersLost);
  return rc == 0 ? 0 : 1;
}

/* ---- provider ---- */

static REGHANDLE g_reg;
static pthread_mutex_t g_out = PTHREAD_MUTEX_INITIALIZER;

static void NTAPI on_enable(LPCGUID source, ULONG is_enabled, UCHAR level, ULONGLONG any,
                            ULONGLONG all, PEVENT_FILTER_DESCRIPTOR filter, PVOID context) {
  (void)source, (void)all, (void)filter, (void)context;
  pthread_mutex_lock(&g_out);
  printf("callback %lu %u 0x%llx\n", (unsigned long)is_enabled, level, (unsigned long long)any);
  fflush(stdout);
  pthread_mutex_unlock(&g_out);
}

typedef struct {
  int count;
  unsigned per_id[5];
} WriterArgs;

static void* writer(void* arg) {
  WriterArgs* a = (WriterArgs*)arg;
  for (int i = 0; i < a->count; ++i) {
    USHORT id = (USHORT)(1 + i % 4);
    EVENT_DESCRIPTOR d;
    EventDescCreate(&d, id, 0, 0, 4, 0, 0, 0);
    ULONG seq = (ULONG)i;
    EVENT_DATA_DESCRIPTOR data;
    EventDataDescCreate(&data, &seq, sizeof seq);
    if (EventWrite(g_reg, &d, 1, &data) == 0) a->per_id[id]++;
  }
  return NULL;
}

/* Event 5's Name for `seq`: "item-K", "ITEM-K" or "Item-K" with K = seq % 5. Event 5 is
   (Name, Seq, Mod = Seq % 7). */
static void named_text(unsigned seq, char* out, size_t cap) {
  static const char* const kSpell[3] = {"item-", "ITEM-", "Item-"};
  snprintf(out, cap, "%s%u", kSpell[seq % 3], seq % 5);
}

static unsigned write_named(int n) {
  unsigned written = 0;
  for (int i = 0; i < n; ++i) {
    char text[32];
    named_text((unsigned)i, text, sizeof text);
    WCHAR name[32];
    widen(text, name, 32);
    size_t units = 0;
    while (name[units] != 0) ++units;
    ULONG seq = (ULONG)i;
    ULONG mod = seq % 7;
    EVENT_DESCRIPTOR d;
    EventDescCreate(&d, 5, 0, 0, 4, 0, 0, 0);
    EVENT_DATA_DESCRIPTOR data[3];
    EventDataDescCreate(&data[0], name, (ULONG)((units + 1) * sizeof(WCHAR)));
    EventDataDescCreate(&data[1], &seq, sizeof seq);
    EventDataDescCreate(&data[2], &mod, sizeof mod);
    if (EventWrite(g_reg, &d, 3, data) == 0) ++written;
  }
  return written;
}

static int cmd_provider(char** argv) {
  GUID g = guid_of(argv[2]);
  if (EventRegister(&g, on_enable, NULL, &g_reg) != 0) return 1;
  pthread_mutex_lock(&g_out);
  printf("registered\n");
  fflush(stdout);
  pthread_mutex_unlock(&g_out);
  char line[128];
  while (fgets(line, sizeof line, stdin) != NULL) {
    int n = 0, threads = 1;
    if (sscanf(line, "write %d %d", &n, &threads) >= 1) {
      if (threads < 1 || threads > 8) threads = 1;
      WriterArgs args[8];
      pthread_t t[8];
      memset(args, 0, sizeof args);
      for (int i = 0; i < threads; ++i) {
        args[i].count = n;
        pthread_create(&t[i], NULL, writer, &args[i]);
      }
      unsigned total[5] = {0};
      for (int i = 0; i < threads; ++i) {
        pthread_join(t[i], NULL);
        for (int k = 1; k <= 4; ++k) total[k] += args[i].per_id[k];
      }
      pthread_mutex_lock(&g_out);
      printf("wrote %u %u %u %u\n", total[1], total[2], total[3], total[4]);
      fflush(stdout);
      pthread_mutex_unlock(&g_out);
    } else if (sscanf(line, "named %d", &n) == 1) {
      const unsigned written = write_named(n);
      pthread_mutex_lock(&g_out);
      printf("named %u\n", written);
      fflush(stdout);
      pthread_mutex_unlock(&g_out);
    } else if (strncmp(line, "quit", 4) == 0) {
      break;
    }
  }
  EventUnregister(g_reg);
  return 0;
}

/* ---- consumer ---- */

static void WINAPI on_event(PEVENT_RECORD r) {
  ULONG seq = 0;
  if (r->UserDataLength >= 4) memcpy(&seq, r->UserData, 4);
  printf("event %lu %u %lu\n", (unsigned long)r->EventHeader.ProcessId,
         r->EventHeader.EventDescriptor.Id, (unsigned long)seq);
}

/* ProcessTrace to the end, CloseTrace, "done RC"; returns RC. */
static ULONG process_and_close(TRACEHANDLE h) {
  ULONG rc = ProcessTrace(&h, 1, NULL, NULL);
  CloseTrace(h);
  printf("done %lu\n", (unsigned long)rc);
  return rc;
}

static int cmd_consume(char** argv) {
  WCHAR w[256];
  widen(argv[2], w, 256);
  EVENT_TRACE_LOGFILEW f;
  memset(&f, 0, sizeof f);
  f.LoggerName = w;
  f.ProcessTraceMode = PROCESS_TRACE_MODE_REAL_TIME | PROCESS_TRACE_MODE_EVENT_RECORD;
  f.EventRecordCallback = on_event;
  TRACEHANDLE h = OpenTraceW(&f);
  if (h == INVALID_PROCESSTRACE_HANDLE) {
    printf("open-failed %lu\n", (unsigned long)GetLastError());
    return 1;
  }
  printf("open\n");
  fflush(stdout);
  return process_and_close(h) == 0 ? 0 : 1;
}

/* OpenTraceW(LogFileName = path) with `callback` into *f; prints "open-failed ERR" on failure. */
static TRACEHANDLE open_file_trace(const char* path, PEVENT_RECORD_CALLBACK callback,
                                   EVENT_TRACE_LOGFILEW* f, WCHAR* name, size_t cap) {
  widen(path, name, cap);
  memset(f, 0, sizeof *f);
  f->LogFileName = name;
  f->ProcessTraceMode = PROCESS_TRACE_MODE_EVENT_RECORD;
  f->EventRecordCallback = callback;
  TRACEHANDLE h = OpenTraceW(f);
  if (h == INVALID_PROCESSTRACE_HANDLE) printf("open-failed %lu\n", (unsigned long)GetLastError());
  return h;
}

static int cmd_readfile(char** argv) {
  WCHAR w[1024];
  EVENT_TRACE_LOGFILEW f;
  TRACEHANDLE h = open_file_trace(argv[2], on_event, &f, w, 1024);
  if (h == INVALID_PROCESSTRACE_HANDLE) return 1;
  char name[256] = {0};
  for (int i = 0; i < 255 && f.LogfileHeader.LoggerName && f.LogfileHeader.LoggerName[i]; ++i)
    name[i] = (char)f.LogfileHeader.LoggerName[i];
  printf("header %s %lu %lu %lld %lld\n", name, (unsigned long)f.LogfileHeader.BuffersWritten,
         (unsigned long)f.LogfileHeader.EventsLost, (long long)f.LogfileHeader.StartTime.QuadPart,
         (long long)f.LogfileHeader.EndTime.QuadPart);
  (void)process_and_close(h);
  return 0;
}

static void WINAPI on_file_event(PEVENT_RECORD r) {
  printf("event %lu %u ", (unsigned long)r->EventHeader.ProcessId,
         r->EventHeader.EventDescriptor.Id);
  const UCHAR* p = (const UCHAR*)r->UserData;
  for (USHORT i = 0; i < r->UserDataLength; ++i) printf("%02x", p[i]);
  printf("\n");
}

static int cmd_consume_file(char** argv) {
  WCHAR w[1024];
  EVENT_TRACE_LOGFILEW f;
  TRACEHANDLE h = open_file_trace(argv[2], on_file_event, &f, w, 1024);
  if (h == INVALID_PROCESSTRACE_HANDLE) return 1;
  ULONG rc = ProcessTrace(&h, 1, NULL, NULL);
  CloseTrace(h);
  printf("done %lu\n", (unsigned long)rc);
  return rc == 0 ? 0 : 1;
}

/* ---- Example-Provider (the EnableTraceEx2 documentation's sample) ---- */

static volatile int g_example_enabled;

static void NTAPI on_example(LPCGUID source, ULONG is_enabled, UCHAR level, ULONGLONG any,
                             ULONGLONG all, PEVENT_FILTER_DESCRIPTOR filter, PVOID context) {
  (void)source, (void)level, (void)any, (void)all, (void)filter, (void)context;
  __atomic_store_n(&g_example_enabled, is_enabled != 0, __ATOMIC_SEQ_CST);
}

static ULONG write_example(REGHANDLE reg, USHORT id, const char* text, const GUID* g, ULONG value) {
  WCHAR w[64];
  widen(text, w, 64);
  size_t n = 0;
  while (w[n] != 0) ++n;
  EVENT_DESCRIPTOR d;
  EventDescCreate(&d, id, 0, 0, 1, 0, 0, 0);
  EVENT_DATA_DESCRIPTOR data[3];
  ULONG count = 0;
  EventDataDescCreate(&data[count++], w, (ULONG)((n + 1) * sizeof(WCHAR)));
  if (g != NULL) EventDataDescCreate(&data[count++], g, sizeof *g);
  EventDataDescCreate(&data[count++], &value, sizeof value);
  return EventWrite(reg, &d, count, data);
}

/* The events of tests/multiproc/seed_sample_test.cc's kMix, part 1 or 2. */
static int write_example_part(REGHANDLE reg, int part) {
  static const GUID kInstance = {
      0x0e95cfbc, 0x58d4, 0x44ba, {0xbe, 0x40, 0xe6, 0x3a, 0x85, 0x35, 0x36, 0xdf}};
  static const GUID kOther = {
      0x12345678, 0x58d4, 0x44ba, {0xbe, 0x40, 0xe6, 0x3a, 0x85, 0x35, 0x36, 0xdf}};
  static const struct {
    const char* text;
    ULONG value;
  } e1[] = {{"User", 8},  {"user", 10}, {"User", 6}, {"Admin", 8},
            {"User", 16}, {"User", 17}, {"USER", 7}};
  static const struct {
    const char* text;
    int other;
    ULONG value;
  } e2[] = {{"UNIX box", 0, 5}, {"unicorn", 0, 1}, {"UNI", 1, 3},
            {"UNI-0", 0, 0},    {"Plain", 0, 9},   {"UNIQUE", 0, 2}};
  int written = 0;
  if (part == 1) {
    for (size_t i = 0; i < sizeof e1 / sizeof e1[0]; ++i)
      written += write_example(reg, 1, e1[i].text, NULL, e1[i].value) == 0;
  } else {
    for (size_t i = 0; i < sizeof e2 / sizeof e2[0]; ++i)
      written +=
          write_example(reg, 2, e2[i].text, e2[i].other ? &kOther : &kInstance, e2[i].value) == 0;
  }
  return written;
}

static int cmd_example(char** argv) {
  static const GUID kExample = {
      0x37a59b93, 0xbb25, 0x4cee, {0x97, 0xaa, 0x8b, 0x6a, 0xcd, 0x0c, 0x4d, 0xf8}};
  REGHANDLE reg;
  if (EventRegister(&kExample, on_example, NULL, &reg) != 0) return 1;
  for (int i = 0; i < 2000 && !__atomic_load_n(&g_example_enabled, __ATOMIC_SEQ_CST); ++i)
    usleep(10000);
  if (!__atomic_load_n(&g_example_enabled, __ATOMIC_SEQ_CST)) {
    printf("never-enabled\n");
    EventUnregister(reg);
    return 1;
  }
  printf("example %d\n", write_example_part(reg, atoi(argv[2])));
  fflush(stdout);
  char line[64];
  while (fgets(line, sizeof line, stdin) != NULL && strncmp(line, "quit", 4) != 0) {
  }
  EventUnregister(reg);
  return 0;
}

int main(int argc, char** argv) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  if (argc < 3) return 2;
  const char* cmd = argv[1];
  if (strcmp(cmd, "start") == 0) return cmd_start(argc, argv);
  if (strcmp(cmd, "enable") == 0 && argc >= 6) return cmd_enable(argc, argv);
  if (strcmp(cmd, "disable") == 0 && argc >= 4) return cmd_disable(argv);
  if (strcmp(cmd, "toggle") == 0 && argc >= 5) return cmd_toggle(argv);
  if (strcmp(cmd, "stop") == 0) return cmd_stop(argv);
  if (strcmp(cmd, "provider") == 0) return cmd_provider(argv);
  if (strcmp(cmd, "consume") == 0) return cmd_consume(argv);
  if (strcmp(cmd, "startfile") == 0 && argc >= 7) return cmd_startfile(argv);
  if (strcmp(cmd, "stopfile") == 0) return cmd_stopfile(argv);
  if (strcmp(cmd, "querylost") == 0) return cmd_querylost(argv);
  if (strcmp(cmd, "flush") == 0) return cmd_flush(argv);
  if (strcmp(cmd, "readfile") == 0) return cmd_readfile(argv);
  if (strcmp(cmd, "consume-file") == 0) return cmd_consume_file(argv);
  if (strcmp(cmd, "example") == 0) return cmd_example(argv);
  return 2;
}
