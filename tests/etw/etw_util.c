/* tests/etw/etw_util.c — see etw_util.h. */
#include "etw_util.h"

#include <stdio.h>
#include <string.h>

#include "etw_test.h"

GUID test_guid(ULONG tag, UCHAR n) {
  GUID g = {tag, 0, 0x4000, {0x80, 0, 0, 0, 0, 0, 0, 0}};
  g.Data4[7] = n;
  return g;
}

void init_properties(Properties* p) {
  memset(p, 0, sizeof *p);
  p->props.Wnode.BufferSize = sizeof *p;
  p->props.Wnode.Flags = WNODE_FLAG_TRACED_GUID;
  p->props.Wnode.ClientContext = 1;
  p->props.LogFileMode = EVENT_TRACE_REAL_TIME_MODE;
  p->props.LoggerNameOffset = offsetof(Properties, name);
}

TRACEHANDLE start_session(LPCWSTR name) {
  Properties p;
  init_properties(&p);
  TRACEHANDLE h = 0;
  CHECK_EQ(StartTraceW(&h, name, &p.props), ERROR_SUCCESS);
  CHECK(h != 0);
  return h;
}

void stop_session(TRACEHANDLE session) {
  Properties p;
  init_properties(&p);
  CHECK_EQ(ControlTraceW(session, NULL, &p.props, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS);
}

void init_log(CallbackLog* log) {
  memset(log, 0, sizeof *log);
  pthread_mutex_init(&log->mu, NULL);
}

void record_callback(LPCGUID source, ULONG is_enabled, UCHAR level, ULONGLONG any, ULONGLONG all,
                     PEVENT_FILTER_DESCRIPTOR filter, PVOID context) {
  CallbackLog* log = (CallbackLog*)context;
  pthread_mutex_lock(&log->mu);
  if (log->count < 64) {
    CallbackCall* c = &log->calls[log->count++];
    c->is_enabled = is_enabled;
    c->level = level;
    c->any = any;
    c->all = all;
    c->source = *source;
    c->filter_size = 0;
    if (filter != NULL && filter->Size <= sizeof c->filter) {
      c->filter_size = filter->Size;
      c->filter_type = filter->Type;
      memcpy(c->filter, (const void*)(uintptr_t)filter->Ptr, filter->Size);
    }
  }
  pthread_mutex_unlock(&log->mu);
}

int log_count(CallbackLog* log) {
  pthread_mutex_lock(&log->mu);
  int n = log->count;
  pthread_mutex_unlock(&log->mu);
  return n;
}

static void collect(PEVENT_RECORD r) {
  Collector* c = (Collector*)r->UserContext;
  if (c->count == 512) return;
  Got* g = &c->events[c->count++];
  g->header = r->EventHeader;
  g->logger_id = r->BufferContext.LoggerId;
  g->size = r->UserDataLength;
  if (r->UserDataLength != 0) { /* UserData may be NULL for an empty payload */
    memcpy(g->data, r->UserData,
           r->UserDataLength < sizeof g->data ? r->UserDataLength : sizeof g->data);
  }
  g->ext_count = r->ExtendedDataCount;
  g->stack_frames = -1;
  g->user_context = r->UserContext;
  for (USHORT i = 0; i < r->ExtendedDataCount; ++i) {
    const EVENT_HEADER_EXTENDED_DATA_ITEM* x = &r->ExtendedData[i];
    if (x->ExtType == EVENT_HEADER_EXT_TYPE_STACK_TRACE64) {
      const EVENT_EXTENDED_ITEM_STACK_TRACE64* st = (const void*)(uintptr_t)x->DataPtr;
      g->stack_frames = (int)((x->DataSize - sizeof(ULONG64)) / sizeof(ULONG64));
      for (int k = 0; k < g->stack_frames && k < 8; ++k) g->stack[k] = st->Address[k];
    } else if (x->ExtType == EVENT_HEADER_EXT_TYPE_RELATED_ACTIVITYID) {
      g->has_related = 1;
      memcpy(&g->related, (const void*)(uintptr_t)x->DataPtr, sizeof(GUID));
    }
  }
}

TRACEHANDLE open_consumer_with(LPCWSTR session_name, PEVENT_RECORD_CALLBACK callback,
                               void* context) {
  EVENT_TRACE_LOGFILEW f;
  memset(&f, 0, sizeof f);
  f.LoggerName = (LPWSTR)session_name;
  f.ProcessTraceMode = PROCESS_TRACE_MODE_REAL_TIME | PROCESS_TRACE_MODE_EVENT_RECORD;
  f.EventRecordCallback = callback;
  f.Context = context;
  TRACEHANDLE h = OpenTraceW(&f);
  CHECK(h != INVALID_PROCESSTRACE_HANDLE);
  return h;
}

TRACEHANDLE open_consumer(LPCWSTR session_name, Collector* out) {
  return open_consumer_with(session_name, collect, out);
}

void drain(TRACEHANDLE consumer) {
  CHECK_EQ(ProcessTrace(&consumer, 1, NULL, NULL), ERROR_SUCCESS);
  CHECK_EQ(CloseTrace(consumer), ERROR_SUCCESS);
}

ULONG write_event(REGHANDLE reg, USHORT id, UCHAR level, ULONGLONG keyword, ULONG value) {
  EVENT_DESCRIPTOR d;
  EventDescCreate(&d, id, 0, 0, level, 0, 0, keyword);
  EVENT_DATA_DESCRIPTOR data;
  EventDataDescCreate(&data, &value, sizeof value);
  return EventWrite(reg, &d, 1, &data);
}

const char* ids_of(const Collector* c, char* buf, size_t size) {
  size_t off = 0;
  buf[0] = 0;
  for (int i = 0; i < c->count && off < size; ++i)
    off += (size_t)snprintf(buf + off, size - off, i ? ",%u" : "%u",
                            (unsigned)c->events[i].header.EventDescriptor.Id);
  return buf;
}

ENABLE_TRACE_PARAMETERS params_v2(ULONG property, PEVENT_FILTER_DESCRIPTOR filters, ULONG count) {
  ENABLE_TRACE_PARAMETERS p;
  memset(&p, 0, sizeof p);
  p.Version = ENABLE_TRACE_PARAMETERS_VERSION_2;
  p.EnableProperty = property;
  p.EnableFilterDesc = filters;
  p.FilterDescCount = count;
  return p;
}
