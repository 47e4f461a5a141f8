/* tests/install/consumer/tlg_demo.c — TraceLogging against an installed pfc: includes
 * <TraceLoggingProvider.h> as Windows sources do (found through pfc::etw or `pkg-config
 * --cflags pfc-etw`), records one event into a log-file session of its own and decodes it
 * with TDH: the event's name, its field's name and value come from the event's metadata.
 * Compiled as C11 (tlg_demo) and as C++ (tlg_demo_cxx, through tlg_demo_cxx.cc). */
#include <TraceLoggingProvider.h>
#include <evntrace.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tdh.h>

TRACELOGGING_DEFINE_PROVIDER(g_demo, "Pfc.Install.Demo",
                             (0x5e1a0000, 0, 0x4000, 0x80, 0, 0, 0, 0, 0, 0x7, 0x1));

static int g_seen = 0;

static void WINAPI on_event(PEVENT_RECORD ev) {
  ULONG size = 0;
  if (TdhGetEventInformation(ev, 0, NULL, NULL, &size) != ERROR_INSUFFICIENT_BUFFER) return;
  PTRACE_EVENT_INFO info = (PTRACE_EVENT_INFO)malloc(size);
  if (info == NULL || TdhGetEventInformation(ev, 0, NULL, info, &size) != ERROR_SUCCESS) {
    free(info);
    return;
  }
  const WCHAR* name = (const WCHAR*)((const BYTE*)info + info->EventNameOffset);
  const WCHAR* field =
      (const WCHAR*)((const BYTE*)info + info->EventPropertyInfoArray[0].NameOffset);
  INT32 value = 0;
  if (ev->UserDataLength == 4) memcpy(&value, ev->UserData, 4);
  if (info->DecodingSource == DecodingSourceTlg && name[0] == u'H' && name[1] == u'i' &&
      name[2] == 0 && field[0] == u'N' && field[1] == 0 && value == 42)
    ++g_seen;
  free(info);
}

int main(void) {
  const char* dir = getenv("PFC_TRACE_DIR");
  if (dir == NULL || strlen(dir) > 900) return 2;
  struct {
    EVENT_TRACE_PROPERTIES props;
    WCHAR name[64];
    WCHAR file[1024];
  } p;
  memset(&p, 0, sizeof p);
  p.props.Wnode.BufferSize = sizeof p;
  p.props.Wnode.Flags = WNODE_FLAG_TRACED_GUID;
  p.props.LogFileMode = EVENT_TRACE_FILE_MODE_SEQUENTIAL;
  p.props.LoggerNameOffset = (ULONG)((BYTE*)p.name - (BYTE*)&p);
  p.props.LogFileNameOffset = (ULONG)((BYTE*)p.file - (BYTE*)&p);
  size_t n = 0;
  for (; dir[n] != 0; ++n) p.file[n] = (WCHAR)(unsigned char)dir[n];
  const char* base = "/tlg-demo.etl";
  for (size_t i = 0; base[i] != 0; ++i) p.file[n + i] = (WCHAR)base[i];
  TRACEHANDLE session = 0;
  if (StartTraceW(&session, u"tlg-demo", &p.props) != ERROR_SUCCESS) return 1;
  if (TraceLoggingRegister(g_demo) != S_OK) return 1;
  const GUID id = TraceLoggingProviderId(g_demo);
  if (EnableTraceEx2(session, &id, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5, 0, 0, INFINITE, NULL) !=
      ERROR_SUCCESS)
    return 1;
  TraceLoggingWrite(g_demo, "Hi", TraceLoggingInt32(42, "N"));
  TraceLoggingUnregister(g_demo);
  if (StopTraceW(session, NULL, &p.props) != ERROR_SUCCESS) return 1;
  EVENT_TRACE_LOGFILEW trace;
  memset(&trace, 0, sizeof trace);
  trace.LogFileName = p.file;
  trace.ProcessTraceMode = PROCESS_TRACE_MODE_EVENT_RECORD;
  trace.EventRecordCallback = on_event;
  TRACEHANDLE h = OpenTraceW(&trace);
  if (h == INVALID_PROCESSTRACE_HANDLE) return 1;
  ULONG rc = ProcessTrace(&h, 1, NULL, NULL);
  CloseTrace(h);
  if (rc != ERROR_SUCCESS || g_seen != 1) {
    fprintf(stderr, "tlg_demo: ProcessTrace %lu, %d matching events\n", (unsigned long)rc, g_seen);
    return 1;
  }
  return 0;
}
