/* tests/etw/growth_test.c — memory stays flat over control operations (issue B8): with the
 * default (jit) engine every enable, disable, EventRegister and EventUnregister compiles
 * or frees a routing program, and each compile used to leave ~70 bytes behind (the JIT
 * session's string pool kept every pfc_route_N name). Usage: growth_test MODE CYCLES
 * MAX_KB — after a warm-up of 1,000 cycles (5,000 for register_unregister: the ETW layer
 * keeps the 4,096 most recently unregistered records for racing readers), RSS may grow by
 * at most MAX_KB over CYCLES.
 * Modes: enable_disable, register_unregister, payload_enable. No events are written (a
 * session without a consumer keeps them, by design, up to its buffer budget). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pfc/etw/evntcons.h"
#include "pfc/etw/evntprov.h"
#include "pfc/etw/evntrace.h"
#include "pfc/etw/tdh.h"

/* The provider; Data1 becomes this process's id (sessions and enables are shared between
 * processes, so concurrent runs must not see each other's). */
static GUID kProv = {0x6B0D5E3C, 0x8F1A, 0x4B6E, {0x9C, 0x2D, 0x3A, 0x4F, 0x5B, 0x6C, 0x7D, 0x8E}};

static long rss_kb(void) {
  FILE* f = fopen("/proc/self/status", "r");
  char line[256];
  long v = -1;
  while (f && fgets(line, sizeof line, f))
    if (strncmp(line, "VmRSS:", 6) == 0) v = strtol(line + 6, NULL, 10);
  if (f) fclose(f);
  return v;
}

typedef struct {
  EVENT_TRACE_PROPERTIES props;
  WCHAR name[64];
} Props;

/* A session name of this process alone (session names are shared between processes). */
static TRACEHANDLE start(void) {
  Props p;
  memset(&p, 0, sizeof p);
  p.props.Wnode.BufferSize = sizeof p;
  p.props.Wnode.Flags = WNODE_FLAG_TRACED_GUID;
  p.props.LogFileMode = EVENT_TRACE_REAL_TIME_MODE;
  p.props.LoggerNameOffset = offsetof(Props, name);
  char text[64];
  WCHAR name[64];
  snprintf(text, sizeof text, "pfc_growth_%ld", (long)getpid());
  for (size_t i = 0; i < sizeof text; ++i) name[i] = (WCHAR)(unsigned char)text[i];
  TRACEHANDLE h = 0;
  return StartTraceW(&h, name, &p.props) == ERROR_SUCCESS ? h : 0;
}

static ULONG enable(TRACEHANDLE s, ULONG level, ULONG count, EVENT_FILTER_DESCRIPTOR* f) {
  ENABLE_TRACE_PARAMETERS p;
  memset(&p, 0, sizeof p);
  p.Version = ENABLE_TRACE_PARAMETERS_VERSION_2;
  p.EnableFilterDesc = f;
  p.FilterDescCount = count;
  return EnableTraceEx2(s, &kProv, EVENT_CONTROL_CODE_ENABLE_PROVIDER, (UCHAR)level, 0, 0, 0, &p);
}

/* One control cycle of `mode`; returns the number of failed calls. */
static int cycle(const char* mode, TRACEHANDLE s, EVENT_FILTER_DESCRIPTOR* blob) {
  int errors = 0;
  if (strcmp(mode, "enable_disable") == 0) {
    errors += enable(s, 5, 0, NULL) != 0;
    errors += EnableTraceEx2(s, &kProv, EVENT_CONTROL_CODE_DISABLE_PROVIDER, 0, 0, 0, 0, NULL) != 0;
  } else if (strcmp(mode, "register_unregister") == 0) {
    REGHANDLE r = 0;
    errors += EventRegister(&kProv, NULL, NULL, &r) != 0;
    errors += EventUnregister(r) != 0;
  } else {
    errors += enable(s, 5, 1, blob) != 0;
    errors += EnableTraceEx2(s, &kProv, EVENT_CONTROL_CODE_DISABLE_PROVIDER, 0, 0, 0, 0, NULL) != 0;
  }
  return errors;
}

int main(int argc, char** argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: growth_test MODE CYCLES MAX_KB\n");
    return 2;
  }
  const char* mode = argv[1];
  kProv.Data1 = (ULONG)getpid();
  const long cycles = strtol(argv[2], NULL, 10), max_kb = strtol(argv[3], NULL, 10);
  TRACEHANDLE s = start();
  REGHANDLE reg = 0;
  if (s == 0 || EventRegister(&kProv, NULL, NULL, &reg) != 0)
    return fprintf(stderr, "setup failed\n"), 1;
  EVENT_FILTER_DESCRIPTOR blob = {0, 0, 0};
  if (strcmp(mode, "payload_enable") == 0) {
    /* A schema for kProv, so that a payload filter compiles into the program. */
    char man[1024];
    snprintf(man, sizeof man,
             "<instrumentationManifest xmlns=\"http://schemas.microsoft.com/win/2004/08/events\" "
             "xmlns:win=\"http://manifests.microsoft.com/win/2004/08/windows/"
             "events\"><instrumentation><events>"
             "<provider name=\"Growth\" guid=\"{%08lX-8F1A-4B6E-9C2D-3A4F5B6C7D8E}\"><templates>"
             "<template tid=\"T\"><data name=\"S\" inType=\"win:UnicodeString\"/><data name=\"N\" "
             "inType=\"win:UInt32\"/>"
             "</template></templates><events><event value=\"1\" symbol=\"E\" "
             "template=\"T\"/></events></provider>"
             "</events></instrumentation></instrumentationManifest>",
             (unsigned long)kProv.Data1);
    if (TdhLoadManifestFromMemory(man, (ULONG)strlen(man)) != 0)
      return fprintf(stderr, "manifest\n"), 1;
    EventUnregister(reg); /* re-register so the registration picks the schema up */
    if (EventRegister(&kProv, NULL, NULL, &reg) != 0) return fprintf(stderr, "register\n"), 1;
    PAYLOAD_FILTER_PREDICATE p[2] = {{(LPWSTR)u"S", PAYLOADFIELD_CONTAINS, (LPWSTR)u"abc"},
                                     {(LPWSTR)u"N", PAYLOADFIELD_BETWEEN, (LPWSTR)u"7,16"}};
    EVENT_DESCRIPTOR e;
    EventDescCreate(&e, 1, 0, 0, 0, 0, 0, 0);
    PVOID f = NULL;
    if (TdhCreatePayloadFilter(&kProv, &e, TRUE, 2, p, &f) != 0 ||
        TdhAggregatePayloadFilters(1, &f, NULL, &blob) != 0)
      return fprintf(stderr, "payload filter\n"), 1;
  }
  if (strcmp(mode, "register_unregister") == 0 && enable(s, 5, 0, NULL) != 0) return 1;
  int errors = 0;
  const long warm_up = strcmp(mode, "register_unregister") == 0 ? 5000 : 1000;
  for (long i = 0; i < warm_up; ++i) errors += cycle(mode, s, &blob);
  const long r0 = rss_kb();
  for (long i = 0; i < cycles; ++i) errors += cycle(mode, s, &blob);
  const long growth = rss_kb() - r0;
  printf("%s: %ld cycles, RSS %ld KB -> %+ld KB (%.1f bytes per cycle), %d errors\n", mode, cycles,
         r0, growth, growth * 1024.0 / (double)cycles, errors);
  return errors == 0 && growth <= max_kb ? 0 : 1;
}
