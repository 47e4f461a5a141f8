/* tests/etw/session_ext_test.c — the pfc extensions `pfc trace` uses for what ETW lacks
 * (docs/etw.md "pfc extensions"): PfcStopTrace, PfcEnumerateTraceProviders,
 * PfcEnableTraceScript with PfcGetEnableTraceScriptProblem, and PfcEnumerateTraceSchemas of
 * a session and of a log file: their argument errors, buffer sizes and results. */
#define _DEFAULT_SOURCE /* mkstemp, mkdtemp, usleep */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "etw_test.h"
#include "etw_util.h"
#include "pfc/etw/pfc_etw_ext.h"

#define PROVIDER_A "{0000ec51-0000-4000-8000-000000000001}"

/* Provider A with one event of two fields, enabled by session S with a payload filter (the
 * pfc enable extension carries its schema); session B enables nothing. */
static const char kScript[] =
    "provider A " PROVIDER_A
    " {\n"
    "    event E (id=7, version=1, level=4) { Name: wstring; Seq: uint32; }\n"
    "}\n"
    "session S { enable A level=verbose { payload E where Seq gt 2; } }\n"
    "session B { }\n";

static int same_guid(const GUID* a, const GUID* b) { return memcmp(a, b, sizeof *a) == 0; }

/* PfcGetEnableTraceScriptProblem's text into `text` (checks success). */
static void script_problem(char* text, ULONG size) {
  ULONG needed = 0;
  CHECK_EQ(PfcGetEnableTraceScriptProblem(text, size, &needed), ERROR_SUCCESS);
}

TEST(enumerate_trace_providers) {
  const GUID a = test_guid(0xec52, 1), b = test_guid(0xec52, 2);
  TRACEHANDLE h = start_session(u"se_providers");
  GUID out[4];
  ULONG size = sizeof out;
  CHECK_EQ(PfcEnumerateTraceProviders(h, out, NULL), ERROR_INVALID_PARAMETER);
  CHECK_EQ(PfcEnumerateTraceProviders(h, NULL, &size), ERROR_INVALID_PARAMETER);
  CHECK_EQ(PfcEnumerateTraceProviders(0x7777, out, &size), ERROR_WMI_INSTANCE_NOT_FOUND);
  CHECK_EQ(PfcEnumerateTraceProviders(h, out, &size), ERROR_SUCCESS);
  CHECK_EQ(size, 0);
  CHECK_EQ(EnableTraceEx2(h, &b, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5, 0, 0, 0, NULL),
           ERROR_SUCCESS);
  CHECK_EQ(EnableTraceEx2(h, &a, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5, 0, 0, 0, NULL),
           ERROR_SUCCESS);
  size = 0;
  CHECK_EQ(PfcEnumerateTraceProviders(h, NULL, &size), ERROR_INSUFFICIENT_BUFFER);
  CHECK_EQ(size, 2 * sizeof(GUID));
  size = sizeof(GUID) + 1;
  CHECK_EQ(PfcEnumerateTraceProviders(h, out, &size), ERROR_INSUFFICIENT_BUFFER);
  CHECK_EQ(size, 2 * sizeof(GUID));
  size = sizeof out;
  CHECK_EQ(PfcEnumerateTraceProviders(h, out, &size), ERROR_SUCCESS);
  CHECK_EQ(size, 2 * sizeof(GUID));
  CHECK(same_guid(&out[0], &b)); /* enable order */
  CHECK(same_guid(&out[1], &a));
  stop_session(h);
  CHECK_EQ(PfcEnumerateTraceProviders(h, out, &size), ERROR_WMI_INSTANCE_NOT_FOUND);
}

/* The final count is every event the session received; the properties are STOP's. */
TEST(stop_trace) {
  const GUID g = test_guid(0xec53, 1);
  TRACEHANDLE h = start_session(u"se_stop");
  REGHANDLE reg = 0;
  CHECK_EQ(EventRegister(&g, NULL, NULL, &reg), ERROR_SUCCESS);
  CHECK_EQ(EnableTraceEx2(h, &g, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5, 0, 0, INFINITE, NULL),
           ERROR_SUCCESS);
  for (ULONG i = 0; i < 3; ++i) CHECK_EQ(write_event(reg, 1, 4, 0, i), ERROR_SUCCESS);
  Properties p;
  init_properties(&p);
  ULONGLONG events = 77;
  CHECK_EQ(PfcStopTrace(h, NULL, &p.props, NULL), ERROR_INVALID_PARAMETER);
  CHECK_EQ(PfcStopTrace(h, NULL, NULL, &events), ERROR_INVALID_PARAMETER);
  CHECK_EQ(PfcStopTrace(0, NULL, &p.props, &events), ERROR_INVALID_PARAMETER);
  CHECK_EQ(PfcStopTrace(0x7777, NULL, &p.props, &events), ERROR_WMI_INSTANCE_NOT_FOUND);
  CHECK_EQ(events, 77);
  ULONGLONG live = 0;
  CHECK_EQ(PfcQueryTraceEventCount(h, &live), ERROR_SUCCESS); /* still running */
  CHECK_EQ(live, 3);
  CHECK_EQ(PfcStopTrace(0, u"se_stop", &p.props, &events), ERROR_SUCCESS);
  CHECK_EQ(events, 3);
  CHECK_EQ(p.props.EventsLost, 0);
  CHECK(p.props.Wnode.HistoricalContext == h);
  CHECK(memcmp(p.name, u"se_stop", sizeof u"se_stop") == 0);
  CHECK_EQ(PfcStopTrace(h, NULL, &p.props, &events), ERROR_WMI_INSTANCE_NOT_FOUND);
  CHECK_EQ(EventUnregister(reg), ERROR_SUCCESS);
}

TEST(enable_trace_script_errors) {
  TRACEHANDLE h = start_session(u"se_script_errors");
  const ULONG n = (ULONG)strlen(kScript);
  char text[256];
  ULONG size = 77;
  CHECK_EQ(PfcEnableTraceScript(h, kScript, n, NULL, NULL, 0), ERROR_INVALID_PARAMETER);
  CHECK_EQ(PfcEnableTraceScript(h, NULL, 4, NULL, "S", 0), ERROR_INVALID_PARAMETER);
  CHECK_EQ(PfcGetEnableTraceScriptProblem(text, sizeof text, NULL), ERROR_INVALID_PARAMETER);
  CHECK_EQ(PfcGetEnableTraceScriptProblem(NULL, 4, &size), ERROR_INVALID_PARAMETER);
  CHECK_EQ(size, 77);
  CHECK_EQ(PfcGetEnableTraceScriptProblem(NULL, 0, &size), ERROR_MORE_DATA);
  CHECK_EQ(size, 1); /* "" */

  static const char bad[] =
      "provider A { event E (id=1) { X: uint32; } }\n"
      "session S { enable A { payload E where X gt \"abc\"; } }\n";
  CHECK_EQ(PfcEnableTraceScript(h, bad, (ULONG)strlen(bad), "dir/bad.pfs", "S", 0),
           ERROR_INVALID_DATA);
  const char* want =
      "dir/bad.pfs:2:45: error: invalid integer 'abc' for field 'X' of type 'uint32'";
  CHECK_EQ(PfcGetEnableTraceScriptProblem(NULL, 0, &size), ERROR_MORE_DATA);
  CHECK_EQ(size, strlen(want) + 1);
  CHECK_EQ(PfcGetEnableTraceScriptProblem(text, size - 1, &size), ERROR_MORE_DATA);
  script_problem(text, sizeof text);
  CHECK(strcmp(text, want) == 0);
  CHECK_EQ(PfcEnableTraceScript(h, NULL, 0, NULL, "S", 0), ERROR_NOT_FOUND); /* empty script */
  CHECK_EQ(PfcEnableTraceScript(h, kScript, n, NULL, "Nope", 0), ERROR_NOT_FOUND);
  script_problem(text, sizeof text);
  CHECK(strcmp(text, "no session named 'Nope' in the script") == 0);

  /* Nine pids do not fit an ETW PID filter: nothing is enabled, not even the first. */
  static const char pids[] =
      "provider A " PROVIDER_A
      " { event E (id=1) { X: uint32; } }\n"
      "provider C { event E (id=1) { X: uint32; } }\n"
      "session S { enable C; enable A { pid 1, 2, 3, 4, 5, 6, 7, 8, 9; } }\n";
  CHECK_EQ(PfcEnableTraceScript(h, pids, (ULONG)strlen(pids), NULL, "S", 0), ERROR_NOT_SUPPORTED);
  script_problem(text, sizeof text);
  CHECK(strcmp(text, "session 'S' enables 'A' with 9 pids (an ETW PID filter holds at most 8)") ==
        0);
  size = sizeof(GUID);
  GUID one;
  CHECK_EQ(PfcEnumerateTraceProviders(h, &one, &size), ERROR_SUCCESS);
  CHECK_EQ(size, 0);

  /* A script without problems, on a session that does not exist. */
  CHECK_EQ(PfcEnableTraceScript(0x7777, kScript, n, NULL, "S", 0), ERROR_WMI_INSTANCE_NOT_FOUND);
  script_problem(text, sizeof text);
  CHECK_EQ(text[0], 0);
  stop_session(h);
}

/* The enables of a script's session, and the schema it publishes with them. */
TEST(enable_trace_script_publishes_its_schema) {
  TRACEHANDLE h = start_session(u"se_script");
  CHECK_EQ(PfcEnableTraceScript(h, kScript, (ULONG)strlen(kScript), "x.pfs", "S", 0),
           ERROR_SUCCESS);
  char text[16];
  script_problem(text, sizeof text);
  CHECK_EQ(text[0], 0);
  GUID out[2];
  ULONG size = sizeof out;
  CHECK_EQ(PfcEnumerateTraceProviders(h, out, &size), ERROR_SUCCESS);
  CHECK_EQ(size, sizeof(GUID));
  CHECK_EQ(out[0].Data1, 0xec51);

  ULONG needed = 0;
  CHECK_EQ(PfcEnumerateTraceSchemas(u"se_script", NULL, NULL, &needed), ERROR_INSUFFICIENT_BUFFER);
  CHECK(needed > sizeof(PFC_TRACE_SCHEMA_ENUMERATION_INFO));
  PPFC_TRACE_SCHEMA_ENUMERATION_INFO info = malloc(needed);
  CHECK(info != NULL);
  size = needed - 1;
  CHECK_EQ(PfcEnumerateTraceSchemas(u"se_script", NULL, info, &size), ERROR_INSUFFICIENT_BUFFER);
  CHECK_EQ(size, needed);
  CHECK_EQ(PfcEnumerateTraceSchemas(u"se_script", NULL, info, &size), ERROR_SUCCESS);
  CHECK_EQ(size, needed);
  CHECK_EQ(info->NumberOfSchemas, 1);
  CHECK_EQ(info->SchemasLeftOut, 0);
  const char* base = (const char*)info;
  const PFC_TRACE_SCHEMA_INFO* s = &info->Schemas[0];
  CHECK(same_guid(&s->ProviderId, &out[0]));
  CHECK(strcmp(base + s->NameOffset, "A") == 0);
  CHECK_EQ(s->Flags, 0);
  CHECK_EQ(s->Kind, 0);
  CHECK_EQ(s->EventCount, 1);
  CHECK_EQ(s->EventsOffset % 8, 0);
  const PFC_TRACE_SCHEMA_EVENT* e = (const PFC_TRACE_SCHEMA_EVENT*)(base + s->EventsOffset);
  CHECK(strcmp(base + e->NameOffset, "E") == 0);
  CHECK_EQ(e->Descriptor.Id, 7);
  CHECK_EQ(e->Descriptor.Version, 1);
  CHECK_EQ(e->Descriptor.Level, 4);
  CHECK_EQ(e->FieldCount, 2);
  const PFC_TRACE_SCHEMA_FIELD* f = (const PFC_TRACE_SCHEMA_FIELD*)(base + e->FieldsOffset);
  CHECK(strcmp(base + f[0].NameOffset, "Name") == 0);
  CHECK_EQ(f[0].InType, 1); /* TDH_INTYPE_UNICODESTRING */
  CHECK_EQ(f[0].CountKind, PFC_TRACE_EXTENT_NONE);
  CHECK_EQ(f[0].LengthKind, PFC_TRACE_EXTENT_NONE);
  CHECK(strcmp(base + f[1].NameOffset, "Seq") == 0);
  CHECK_EQ(f[1].InType, 8); /* TDH_INTYPE_UINT32 */

  /* Session B enables nothing: applied as a no-op. */
  CHECK_EQ(PfcEnableTraceScript(h, kScript, (ULONG)strlen(kScript), NULL, "B", 0), ERROR_SUCCESS);
  stop_session(h);
  size = needed;
  CHECK_EQ(PfcEnumerateTraceSchemas(u"se_script", NULL, info, &size), ERROR_SUCCESS);
  CHECK_EQ(info->NumberOfSchemas, 0); /* stopped: none published */
  free(info);
}

TEST(enumerate_trace_schemas_errors) {
  PFC_TRACE_SCHEMA_ENUMERATION_INFO info;
  ULONG size = sizeof info;
  CHECK_EQ(PfcEnumerateTraceSchemas(NULL, NULL, &info, &size), ERROR_INVALID_PARAMETER);
  CHECK_EQ(PfcEnumerateTraceSchemas(u"a", u"/tmp/b", &info, &size), ERROR_INVALID_PARAMETER);
  CHECK_EQ(PfcEnumerateTraceSchemas(u"a", NULL, &info, NULL), ERROR_INVALID_PARAMETER);
  CHECK_EQ(PfcEnumerateTraceSchemas(u"a", NULL, NULL, &size), ERROR_INVALID_PARAMETER);
  CHECK_EQ(PfcEnumerateTraceSchemas(u"", NULL, &info, &size), ERROR_INVALID_PARAMETER);
  CHECK_EQ(PfcEnumerateTraceSchemas(NULL, u"", &info, &size), ERROR_INVALID_PARAMETER);
  CHECK_EQ(size, sizeof info);
  CHECK_EQ(PfcEnumerateTraceSchemas(NULL, u"/nonexistent/x.etl", &info, &size),
           ERROR_FILE_NOT_FOUND);
  char path[] = "/tmp/pfc-schemas-XXXXXX";
  const int fd = mkstemp(path);
  CHECK(fd >= 0);
  CHECK_EQ(write(fd, "not a log file", 14), 14);
  close(fd);
  WCHAR wide[64];
  size_t i = 0;
  for (; path[i] != 0; ++i) wide[i] = (WCHAR)path[i];
  wide[i] = 0;
  CHECK_EQ(PfcEnumerateTraceSchemas(NULL, wide, &info, &size), ERROR_BAD_FORMAT);
  unlink(path);
  /* No such session: no schemas. */
  size = 0;
  CHECK_EQ(PfcEnumerateTraceSchemas(u"se_none", NULL, NULL, &size), ERROR_INSUFFICIENT_BUFFER);
  CHECK_EQ(size, offsetof(PFC_TRACE_SCHEMA_ENUMERATION_INFO, Schemas));
}

/* A log file records the schema a script's enable published (kind 3, docs/logfile.md
 * section 2), and gives it back after its session stopped. */
TEST(enumerate_trace_schemas_of_a_log_file) {
  char dir[] = "/tmp/pfc-schemas-dir-XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  char path[96];
  snprintf(path, sizeof path, "%s/s.etl", dir);
  struct {
    EVENT_TRACE_PROPERTIES props;
    WCHAR name[64];
    WCHAR file[96];
  } p;
  memset(&p, 0, sizeof p);
  p.props.Wnode.BufferSize = sizeof p;
  p.props.Wnode.Flags = WNODE_FLAG_TRACED_GUID;
  p.props.LogFileMode = EVENT_TRACE_FILE_MODE_SEQUENTIAL;
  p.props.LoggerNameOffset = offsetof(__typeof__(p), name);
  p.props.LogFileNameOffset = offsetof(__typeof__(p), file);
  size_t i = 0;
  for (; path[i] != 0; ++i) p.file[i] = (WCHAR)path[i];
  p.file[i] = 0;
  TRACEHANDLE h = 0;
  CHECK_EQ(StartTraceW(&h, u"se_file", &p.props), ERROR_SUCCESS);
  CHECK_EQ(PfcEnableTraceScript(h, kScript, (ULONG)strlen(kScript), NULL, "S", INFINITE),
           ERROR_SUCCESS);
  /* The host records it within its next scan of the namespace (bounded wait, 10 s). */
  ULONG size = 0;
  for (int tries = 0; tries < 10000; ++tries) {
    size = 0;
    CHECK_EQ(PfcEnumerateTraceSchemas(NULL, p.file, NULL, &size), ERROR_INSUFFICIENT_BUFFER);
    if (size > offsetof(PFC_TRACE_SCHEMA_ENUMERATION_INFO, Schemas)) break;
    usleep(1000);
  }
  ULONGLONG events = 0;
  CHECK_EQ(PfcStopTrace(h, NULL, &p.props, &events), ERROR_SUCCESS);
  CHECK_EQ(events, 0);
  size = 0;
  CHECK_EQ(PfcEnumerateTraceSchemas(NULL, p.file, NULL, &size), ERROR_INSUFFICIENT_BUFFER);
  PPFC_TRACE_SCHEMA_ENUMERATION_INFO info = malloc(size);
  CHECK(info != NULL);
  CHECK_EQ(PfcEnumerateTraceSchemas(NULL, p.file, info, &size), ERROR_SUCCESS);
  CHECK_EQ(info->NumberOfSchemas, 1);
  CHECK_EQ(info->SchemasLeftOut, 0);
  const PFC_TRACE_SCHEMA_INFO* s = &info->Schemas[0];
  CHECK_EQ(s->ProviderId.Data1, 0xec51);
  CHECK_EQ(s->Kind, 3); /* a pfc enable extension */
  CHECK_EQ(s->Flags, 0);
  CHECK(strcmp((const char*)info + s->NameOffset, "A") == 0);
  CHECK_EQ(s->EventCount, 1);
  free(info);
  unlink(path);
  rmdir(dir);
}
