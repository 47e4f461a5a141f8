/* tests/etw/etw_util.h — helpers shared by the C tests: sessions, enable-callback
 * recording, a collecting real-time consumer and event writers. */
#ifndef PFC_TESTS_ETW_UTIL_H
#define PFC_TESTS_ETW_UTIL_H

#include <pthread.h>

#include "pfc/etw/evntcons.h"
#include "pfc/etw/evntprov.h"
#include "pfc/etw/evntrace.h"

/* A GUID unique to the test: {tag-0000-4000-8000-0000000000nn}. */
GUID test_guid(ULONG tag, UCHAR n);

/* Properties buffer for StartTraceW / ControlTraceW with room for the logger name. */
typedef struct {
  EVENT_TRACE_PROPERTIES props;
  WCHAR name[256];
} Properties;
void init_properties(Properties* p);

/* Starts a real-time session (checks success) and stops it (checks success). */
TRACEHANDLE start_session(LPCWSTR name);
void stop_session(TRACEHANDLE session);

/* Records every enable callback; CallbackContext must point to a CallbackLog. */
typedef struct {
  ULONG is_enabled;
  UCHAR level;
  ULONGLONG any;
  ULONGLONG all;
  GUID source;
  ULONG filter_size; /* 0: FilterData was NULL */
  ULONG filter_type;
  UCHAR filter[1024];
} CallbackCall;
typedef struct {
  pthread_mutex_t mu;
  int count;
  CallbackCall calls[64];
} CallbackLog;
void init_log(CallbackLog* log);
void record_callback(LPCGUID source, ULONG is_enabled, UCHAR level, ULONGLONG any, ULONGLONG all,
                     PEVENT_FILTER_DESCRIPTOR filter, PVOID context);
int log_count(CallbackLog* log);

/* Collects what a consumer receives; Logfile.Context must point to a Collector. */
typedef struct {
  EVENT_HEADER header;
  USHORT logger_id;
  USHORT size;
  UCHAR data[256];
  USHORT ext_count;
  int stack_frames; /* -1: no STACK_TRACE64 item */
  ULONG64 stack[8];
  int has_related;
  GUID related;
  void* user_context;
} Got;
typedef struct {
  int count;
  Got events[512];
} Collector;
TRACEHANDLE open_consumer(LPCWSTR session_name, Collector* out);
/* The same with another callback, whose UserContext is `context`. */
TRACEHANDLE open_consumer_with(LPCWSTR session_name, PEVENT_RECORD_CALLBACK callback,
                               void* context);
/* ProcessTrace on one handle (its session must be stopped), then CloseTrace. */
void drain(TRACEHANDLE consumer);

/* EventWrite of an event with this id / level / keyword and a 4-byte payload `value`. */
ULONG write_event(REGHANDLE reg, USHORT id, UCHAR level, ULONGLONG keyword, ULONG value);
/* The ids of the collected events, in order, as "1,2,3". */
const char* ids_of(const Collector* c, char* buf, size_t size);

ENABLE_TRACE_PARAMETERS params_v2(ULONG property, PEVENT_FILTER_DESCRIPTOR filters, ULONG count);

#endif /* PFC_TESTS_ETW_UTIL_H */
