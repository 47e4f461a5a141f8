/* tests/porting/era_provider.c — a provider built from an mc-generated header (Era.h, from
 * Era.man by `pfc mc -um` at build time) with two translation units (era_second.c), as a
 * Windows project would: its selectany handle, enable bits and trace context must be one
 * object each (they were undefined weak symbols, and the provider crashed). It registers,
 * is enabled by a real-time session at level 4, writes events from both units, sees the
 * disable when the session stops, and unregisters. Compiled as C11 (porting_era_c_test)
 * and as C++ (era_provider.cc, porting_era_cxx_test); run in its own PFC_TRACE_DIR. */
#include <stdio.h>
#include <windows.h>

#include "era_provider.h"

typedef struct {
  EVENT_TRACE_PROPERTIES props;
  WCHAR name[64];
} Properties;

static int failed(const char* what, ULONG rc) {
  printf("era_provider: %s failed (%lu)\n", what, (unsigned long)rc);
  return 1;
}

/* Starts the real-time session "pfc-porting-era" (the caller stops it). */
static ULONG start_session(TRACEHANDLE* session, Properties* p) {
  ZeroMemory(p, sizeof *p);
  p->props.Wnode.BufferSize = sizeof *p;
  p->props.Wnode.Flags = WNODE_FLAG_TRACED_GUID;
  p->props.LogFileMode = EVENT_TRACE_REAL_TIME_MODE;
  p->props.LoggerNameOffset = offsetof(Properties, name);
  return StartTraceW(session, TEXT("pfc-porting-era"), &p->props);
}

int main(void) {
  ULONG rc = EventRegisterMicrosoft_Xbox_Services_Tracing();
  if (rc != ERROR_SUCCESS || Microsoft_Xbox_Services_TracingHandle == 0)
    return failed("EventRegister", rc);
  if (EventEnabledXSAPI_Error() ||
      era_second_enable_bits() != Microsoft_Xbox_Services_TracingEnableBits)
    return failed("the enable bits before any session", 0);
  rc = EventWriteXSAPI_Error("catalog", "not enabled yet");
  if (rc != ERROR_SUCCESS) return failed("EventWrite before any session", rc);

  Properties p;
  TRACEHANDLE session = 0;
  rc = start_session(&session, &p);
  if (rc != ERROR_SUCCESS) return failed("StartTraceW", rc);
  rc = EnableTraceEx2(session, &ProviderGuid, EVENT_CONTROL_CODE_ENABLE_PROVIDER,
                      TRACE_LEVEL_INFORMATION, 0, 0, INFINITE, NULL);
  if (rc != ERROR_SUCCESS) return failed("EnableTraceEx2", rc);
  /* The enable callback (McGenControlCallbackV2) set the bits of levels 4, 3 and 2. */
  if (!EventEnabledXSAPI_Info() || !EventEnabledXSAPI_Error() || EventEnabledXSAPI_Verbose() ||
      ProviderGuid_Context.Level != TRACE_LEVEL_INFORMATION)
    return failed("the enable bits after EnableTraceEx2",
                  Microsoft_Xbox_Services_TracingEnableBits[0]);
  rc = EventWriteXSAPI_Info("catalog", "from the first unit");
  if (rc != ERROR_SUCCESS) return failed("EventWriteXSAPI_Info", rc);
  rc = era_second_write(NULL);
  if (rc != ERROR_SUCCESS) return failed("EventWriteXSAPI_Warn in the second unit", rc);

  ZeroMemory(&p, sizeof p);
  p.props.Wnode.BufferSize = sizeof p;
  p.props.LoggerNameOffset = offsetof(Properties, name);
  rc = ControlTraceW(session, NULL, &p.props, EVENT_TRACE_CONTROL_STOP);
  if (rc != ERROR_SUCCESS) return failed("ControlTraceW", rc);
  if (EventEnabledXSAPI_Error() || ProviderGuid_Context.IsEnabled != 0)
    return failed("the enable bits after the session stopped",
                  Microsoft_Xbox_Services_TracingEnableBits[0]);

  rc = EventUnregisterMicrosoft_Xbox_Services_Tracing();
  if (rc != ERROR_SUCCESS || Microsoft_Xbox_Services_TracingHandle != 0)
    return failed("EventUnregister", rc);
  printf("era_provider: registered, enabled, wrote, disabled, unregistered\n");
  return 0;
}
