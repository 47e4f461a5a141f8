/* tests/install/consumer/etw_demo.c — a C program ported from Windows against the installed
 * ETW API: <windows.h>, <initguid.h>, <strsafe.h> and <evntrace.h> found through
 * -I<prefix>/include/pfc/etw, DEFINE_GUID, LP* types, ZeroMemory, StringCchCopyW. A
 * controller starts a session and enables the provider; the provider sees the enable and
 * writes an event. Exits 0 when every step succeeds. Run in its own PFC_TRACE_DIR. */
#include <windows.h>

/* As on Windows: after initguid.h, DEFINE_GUID defines the GUID it names. */
#include <initguid.h>

#include <evntprov.h>
#include <evntrace.h>
#include <stdio.h>
#include <strsafe.h>

/* {6B0D5E3C-8F1A-4B6E-9C2D-3A4F5B6C7D8F} */
DEFINE_GUID(ProviderGuid, 0x6B0D5E3C, 0x8F1A, 0x4B6E, 0x9C, 0x2D, 0x3A, 0x4F, 0x5B, 0x6C, 0x7D,
            0x8F);

typedef struct {
  EVENT_TRACE_PROPERTIES props;
  WCHAR name[64];
} Properties;

static LONG g_enabled = 0;

static void NTAPI on_enable(LPCGUID source, ULONG is_enabled, UCHAR level, ULONGLONG any,
                            ULONGLONG all, PEVENT_FILTER_DESCRIPTOR filter, PVOID context) {
  UNREFERENCED_PARAMETER(source);
  UNREFERENCED_PARAMETER(level);
  UNREFERENCED_PARAMETER(any);
  UNREFERENCED_PARAMETER(all);
  UNREFERENCED_PARAMETER(filter);
  *(LONG*)context = (LONG)is_enabled;
}

static int fail(LPCSTR what, ULONG rc) {
  printf("etw_demo: %s failed: %lu\n", what, (unsigned long)rc);
  return 1;
}

int main(void) {
  REGHANDLE provider = 0;
  ULONG rc = EventRegister(&ProviderGuid, on_enable, (LPVOID)&g_enabled, &provider);
  if (rc != ERROR_SUCCESS) return fail("EventRegister", rc);

  Properties p;
  ZeroMemory(&p, sizeof p);
  p.props.Wnode.BufferSize = sizeof p;
  p.props.Wnode.Flags = WNODE_FLAG_TRACED_GUID;
  p.props.LogFileMode = EVENT_TRACE_REAL_TIME_MODE;
  p.props.LoggerNameOffset = offsetof(Properties, name);
  WCHAR name[64];
  if (FAILED(StringCchCopyW(name, ARRAYSIZE(name), u"pfc-install-demo")))
    return fail("StringCchCopyW", 0);
  TRACEHANDLE session = 0;
  rc = StartTraceW(&session, name, &p.props);
  if (rc != ERROR_SUCCESS) return fail("StartTraceW", rc);
  rc = EnableTraceEx2(session, &ProviderGuid, EVENT_CONTROL_CODE_ENABLE_PROVIDER,
                      TRACE_LEVEL_INFORMATION, 0, 0, INFINITE, NULL);
  if (rc != ERROR_SUCCESS) return fail("EnableTraceEx2", rc);
  if (g_enabled != 1) return fail("the enable callback", (ULONG)g_enabled);

  EVENT_DESCRIPTOR d;
  EventDescCreate(&d, 1, 0, 0, TRACE_LEVEL_INFORMATION, 0, 0, 0);
  if (!EventEnabled(provider, &d)) return fail("EventEnabled", 0);
  DWORD counter = 7;
  EVENT_DATA_DESCRIPTOR data;
  EventDataDescCreate(&data, &counter, sizeof counter);
  rc = EventWrite(provider, &d, 1, &data);
  if (rc != ERROR_SUCCESS) return fail("EventWrite", rc);

  ZeroMemory(&p, sizeof p);
  p.props.Wnode.BufferSize = sizeof p;
  p.props.LoggerNameOffset = offsetof(Properties, name);
  rc = ControlTraceW(session, NULL, &p.props, EVENT_TRACE_CONTROL_STOP);
  if (rc != ERROR_SUCCESS) return fail("ControlTraceW", rc);
  if (g_enabled != 0) return fail("the disable callback", (ULONG)g_enabled);
  EventUnregister(provider);
  printf("etw_demo: ok\n");
  return 0;
}
