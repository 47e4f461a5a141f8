// etw/controller.cc — the controller side of the ETW-compatible API: StartTraceW,
// ControlTraceW (QUERY / UPDATE / FLUSH / STOP), StopTraceW, QueryTraceW and EnableTraceEx2
// with its Timeout, the 8-sessions-per-modern-provider cap and legacy-provider rules
// (docs/etw.md "Sessions and consumers", docs/semantics.md §1.9–§1.10), over the router.
#include <cstring>

#include "etw/filters.h"
#include "etw/state.h"

namespace pfc::etw {
namespace {

constexpr size_t kMaxNameChars = 1023;

// Copies `name` (with its terminator) to `offset` inside the caller's properties buffer,
// when it fits.
void write_name(EVENT_TRACE_PROPERTIES* p, uint32_t offset, const std::u16string& name) {
  if (offset < sizeof(EVENT_TRACE_PROPERTIES)) return;
  const uint64_t bytes = (name.size() + 1) * sizeof(WCHAR);
  if (offset + bytes > p->Wnode.BufferSize) return;
  auto* dst = reinterpret_cast<uint8_t*>(p) + offset;
  std::memcpy(dst, name.c_str(), bytes);
}

void fill_properties(const Session& s, EVENT_TRACE_PROPERTIES* p) {
  const SessionConfig& c = s.config();
  p->Wnode.HistoricalContext = s.handle();
  p->Wnode.Guid = c.guid;
  p->Wnode.Flags |= WNODE_FLAG_TRACED_GUID;
  p->BufferSize = c.buffer_size_kb;
  p->MinimumBuffers = c.minimum_buffers;
  p->MaximumBuffers = c.maximum_buffers;
  p->MaximumFileSize = 0;
  p->LogFileMode = c.log_file_mode;
  p->FlushTimer = c.flush_timer;
  p->EnableFlags = c.enable_flags;
  p->AgeLimit = c.age_limit;
  {
    std::lock_guard<std::mutex> lock(hub().mu);
    const uint64_t buffer_bytes = uint64_t{c.buffer_size_kb} * 1024;
    p->NumberOfBuffers = static_cast<ULONG>(
        std::max<uint64_t>(c.minimum_buffers, (s.queued_bytes() + buffer_bytes - 1) / buffer_bytes));
    p->FreeBuffers = 0;
    p->EventsLost = s.events_lost();
  }
  p->BuffersWritten = 0;
  p->LogBuffersLost = 0;
  p->RealTimeBuffersLost = 0;
  p->LoggerThreadId = nullptr;
  write_name(p, p->LoggerNameOffset, c.name);
}

// StartTraceW's checks on the caller's properties; ERROR_SUCCESS when usable.
ULONG check_start(LPCWSTR name, const EVENT_TRACE_PROPERTIES* p) {
  if (p->Wnode.BufferSize < sizeof(EVENT_TRACE_PROPERTIES)) return ERROR_BAD_LENGTH;
  if ((p->Wnode.Flags & WNODE_FLAG_TRACED_GUID) == 0) return ERROR_INVALID_PARAMETER;
  const size_t len = u16_length(name, kMaxNameChars);
  if (len == 0 || len > kMaxNameChars) return ERROR_INVALID_PARAMETER;
  for (const ULONG off : {p->LoggerNameOffset, p->LogFileNameOffset}) {
    if (off != 0 && (off < sizeof(EVENT_TRACE_PROPERTIES) || off >= p->Wnode.BufferSize))
      return ERROR_INVALID_PARAMETER;
  }
  if (p->LogFileNameOffset != 0 && p->Wnode.BufferSize - p->LogFileNameOffset >= sizeof(WCHAR)) {
    WCHAR first;
    std::memcpy(&first, reinterpret_cast<const uint8_t*>(p) + p->LogFileNameOffset, sizeof first);
    if (first != 0) return ERROR_NOT_SUPPORTED;  // log files: real-time sessions only
  }
  if ((p->LogFileMode & EVENT_TRACE_REAL_TIME_MODE) == 0) return ERROR_NOT_SUPPORTED;
  return ERROR_SUCCESS;
}

SessionConfig config_from(LPCWSTR name, const EVENT_TRACE_PROPERTIES* p) {
  SessionConfig c;
  c.name.assign(name, u16_length(name, kMaxNameChars));
  c.guid = p->Wnode.Guid;
  if (IsEqualGUID(&c.guid, &GUID_NULL)) c.guid = random_guid();
  c.buffer_size_kb = p->BufferSize != 0 ? p->BufferSize : 64;
  c.minimum_buffers = p->MinimumBuffers;
  c.maximum_buffers = p->MaximumBuffers;
  c.log_file_mode = p->LogFileMode;
  c.flush_timer = p->FlushTimer;
  c.enable_flags = p->EnableFlags;
  c.age_limit = p->AgeLimit;
  c.start_time = filetime_now();
  return c;
}

bool guid_in_use(const Runtime& rt, const GUID& guid) {
  for (uint16_t id = 1; id <= kMaxSessions; ++id) {
    auto s = rt.session_by_logger(id);
    if (s && IsEqualGUID(&s->config().guid, &guid)) return true;
  }
  return false;
}

// Stops a session: every provider it enabled sees the new composite (SourceId GUID_NULL)
// and its consumers drain what is queued and return from ProcessTrace. Fails (changing
// nothing) only when the router cannot recompile a provider's program.
ULONG stop_locked(Runtime& rt, Session& s) {
  if (!rt.router().stop_session(s.slot())) return ERROR_OUTOFMEMORY;
  rt.table.erase_session(s.slot());
  rt.remove_session(s.slot());
  {
    std::lock_guard<std::mutex> lock(hub().mu);
    s.mark_stopped();
  }
  hub().cv.notify_all();
  return ERROR_SUCCESS;
}

ULONG enable_locked(Runtime& rt, Session& s, const Guid& guid, EnableRequest& req) {
  const uint32_t slot = s.slot();
  const bool legacy = rt.is_legacy(guid);
  if (!legacy && rt.table.count_except(guid, slot) >= kMaxModernSessions)
    return ERROR_NO_SYSTEM_RESOURCES;
  TableEntry entry;
  entry.level = req.params.level;
  entry.any = req.params.any;
  entry.properties = req.params.properties;
  entry.schematized = std::move(req.schematized);
  if (legacy) {  // EnableLevel and 32-bit EnableFlags only; no filters
    EnableParams plain;
    plain.level = req.params.level;
    plain.any = req.params.any & 0xFFFFFFFFu;
    plain.source_id = req.params.source_id;
    req.params = std::move(plain);
    entry.schematized.clear();
    entry.properties = 0;
  }
  std::optional<TableEntry> previous = rt.table.get(guid, slot);
  rt.table.put(guid, slot, std::move(entry));
  if (auto ok = rt.router().enable(slot, guid, req.params); !ok) {
    rt.table.restore(guid, slot, std::move(previous));
    return ERROR_INVALID_PARAMETER;  // the filter set cannot be compiled
  }
  if (legacy) rt.table.keep_latest(guid);  // last enabler wins
  return ERROR_SUCCESS;
}

ULONG control_locked(Runtime& rt, Session& s, const Guid& guid, ULONG code, EnableRequest& req) {
  switch (code) {
    case EVENT_CONTROL_CODE_ENABLE_PROVIDER: return enable_locked(rt, s, guid, req);
    case EVENT_CONTROL_CODE_DISABLE_PROVIDER:
      (void)rt.router().disable(s.slot(), guid);  // not enabled: nothing to do
      rt.table.erase(guid, s.slot());
      return ERROR_SUCCESS;
    default:  // EVENT_CONTROL_CODE_CAPTURE_STATE; a provider the session has not enabled: no-op
      if (rt.table.get(guid, s.slot())) (void)rt.router().capture_state(s.slot(), guid);
      return ERROR_SUCCESS;
  }
}

}  // namespace
}  // namespace pfc::etw

using namespace pfc::etw;

extern "C" {

ULONG StartTraceW(PTRACEHANDLE TraceHandle, LPCWSTR InstanceName,
                  PEVENT_TRACE_PROPERTIES Properties) {
  if (TraceHandle == nullptr) return ERROR_INVALID_PARAMETER;
  *TraceHandle = 0;
  if (InstanceName == nullptr || Properties == nullptr) return ERROR_INVALID_PARAMETER;
  if (const ULONG rc = check_start(InstanceName, Properties); rc != ERROR_SUCCESS) return rc;
  SessionConfig config = config_from(InstanceName, Properties);
  Runtime& rt = Runtime::get();
  std::lock_guard<std::mutex> lock(rt.control_mu);
  if (rt.session_by_name(config.name) || guid_in_use(rt, config.guid)) return ERROR_ALREADY_EXISTS;
  const std::string utf8 = u16_to_utf8(config.name);
  auto session = std::make_shared<Session>(std::move(config));
  auto slot = rt.router().create_session(utf8, session);
  if (!slot) return ERROR_NO_SYSTEM_RESOURCES;  // every session slot is in use
  session->set_identity(*slot, rt.next_session_handle(*slot));
  rt.add_session(session);
  fill_properties(*session, Properties);
  *TraceHandle = session->handle();
  return ERROR_SUCCESS;
}

ULONG ControlTraceW(TRACEHANDLE TraceHandle, LPCWSTR InstanceName,
                    PEVENT_TRACE_PROPERTIES Properties, ULONG ControlCode) {
  if (Properties == nullptr || (TraceHandle == 0 && InstanceName == nullptr))
    return ERROR_INVALID_PARAMETER;
  if (Properties->Wnode.BufferSize < sizeof(EVENT_TRACE_PROPERTIES)) return ERROR_BAD_LENGTH;
  if (ControlCode == EVENT_TRACE_CONTROL_INCREMENT_FILE ||
      ControlCode == EVENT_TRACE_CONTROL_CONVERT_TO_REALTIME)
    return ERROR_NOT_SUPPORTED;
  if (ControlCode > EVENT_TRACE_CONTROL_CONVERT_TO_REALTIME) return ERROR_INVALID_PARAMETER;
  Runtime& rt = Runtime::get();
  uint64_t seq = 0;
  {
    std::lock_guard<std::mutex> lock(rt.control_mu);
    std::shared_ptr<Session> s;
    if (TraceHandle != 0) {
      s = rt.session(TraceHandle);
    } else {
      s = rt.session_by_name(std::u16string(InstanceName, u16_length(InstanceName, 1023)));
    }
    if (!s) return ERROR_WMI_INSTANCE_NOT_FOUND;
    if (ControlCode == EVENT_TRACE_CONTROL_UPDATE) {
      std::lock_guard<std::mutex> queue_lock(hub().mu);  // enqueue() reads the buffer budget
      SessionConfig& c = s->config();
      if (Properties->FlushTimer != 0) c.flush_timer = Properties->FlushTimer;
      c.enable_flags = Properties->EnableFlags;
      if (Properties->MaximumBuffers > c.maximum_buffers) c.maximum_buffers = Properties->MaximumBuffers;
    }
    fill_properties(*s, Properties);
    if (ControlCode != EVENT_TRACE_CONTROL_STOP) return ERROR_SUCCESS;
    if (const ULONG rc = stop_locked(rt, *s); rc != ERROR_SUCCESS) return rc;
    seq = rt.dispatcher.posted();
  }
  rt.dispatcher.wait(seq, INFINITE);  // the providers' callbacks ran
  return ERROR_SUCCESS;
}

ULONG StopTraceW(TRACEHANDLE TraceHandle, LPCWSTR InstanceName, PEVENT_TRACE_PROPERTIES Properties) {
  return ControlTraceW(TraceHandle, InstanceName, Properties, EVENT_TRACE_CONTROL_STOP);
}

ULONG QueryTraceW(TRACEHANDLE TraceHandle, LPCWSTR InstanceName, PEVENT_TRACE_PROPERTIES Properties) {
  return ControlTraceW(TraceHandle, InstanceName, Properties, EVENT_TRACE_CONTROL_QUERY);
}

ULONG EnableTraceEx2(TRACEHANDLE TraceId, LPCGUID ProviderId, ULONG ControlCode, UCHAR Level,
                     ULONGLONG MatchAnyKeyword, ULONGLONG MatchAllKeyword, ULONG Timeout,
                     PENABLE_TRACE_PARAMETERS EnableParameters) {
  if (TraceId == 0 || ProviderId == nullptr || ControlCode > EVENT_CONTROL_CODE_CAPTURE_STATE)
    return ERROR_INVALID_PARAMETER;
  EnableRequest req;
  if (const ULONG rc = convert_enable(Level, MatchAnyKeyword, MatchAllKeyword, EnableParameters, &req);
      rc != ERROR_SUCCESS)
    return rc;
  if (req.payload_provider && !(*req.payload_provider == to_pfc(*ProviderId)))
    return ERROR_INVALID_PARAMETER;  // a payload blob built for another provider
  Runtime& rt = Runtime::get();
  uint64_t seq = 0;
  {
    std::lock_guard<std::mutex> lock(rt.control_mu);
    std::shared_ptr<Session> s = rt.session(TraceId);
    if (!s) return ERROR_WMI_INSTANCE_NOT_FOUND;
    if (const ULONG rc = control_locked(rt, *s, to_pfc(*ProviderId), ControlCode, req); rc != ERROR_SUCCESS)
      return rc;
    seq = rt.dispatcher.posted();
  }
  if (Timeout != 0 && !rt.dispatcher.wait(seq, Timeout)) return ERROR_TIMEOUT;
  return ERROR_SUCCESS;
}

}  // extern "C"
