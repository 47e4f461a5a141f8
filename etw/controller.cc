// etw/controller.cc — the controller side of the ETW-compatible API: StartTraceW,
// ControlTraceW (QUERY / UPDATE / FLUSH / STOP), StopTraceW, QueryTraceW and EnableTraceEx2
// with its Timeout and the 8-sessions-per-modern-provider cap (docs/etw.md "Sessions and
// consumers", docs/semantics.md §1.9–§1.10). Every operation changes the namespace state
// (docs/namespace.md §2) and then applies it to this process's router like any other
// process does (etw/mirror.cc), so sessions are system-wide and outlive their controller.
// File sessions (sequential, circular, either with real-time) get a session host that
// writes the log file (etw/file_session.h, docs/logfile.md).
#include <unistd.h>

#include <cstring>
#include <vector>

#include "etw/counters.h"
#include "etw/enable_wire.h"
#include "etw/file_session.h"
#include "etw/filters.h"
#include "etw/guard.h"
#include "etw/private_enable.h"
#include "etw/state.h"
#include "etw/util.h"
#include "pfc/etw/pfc_etw_ext.h"
#include "trace/host.h"
#include "trace/state.h"

namespace pfc::etw {
namespace {

constexpr size_t kMaxNameChars = PFC_ETW_MAX_SESSION_NAME_CHARS;
static_assert(trace::kMaxSessionNameUnits == PFC_ETW_MAX_SESSION_NAME_CHARS &&
                  trace::kMaxPathUnits == PFC_ETW_MAX_LOG_FILE_NAME_CHARS,
              "the namespace's state holds the names StartTraceW takes");
// STOP waits this long for provider processes to stop writing before it counts and reaps.
constexpr uint32_t kStopWaitMs = 2000;
// FLUSH of a file session waits this long for the host to write its buffer.
constexpr uint32_t kFlushWaitMs = 5000;

// Copies `name` (with its terminator) to `offset` inside the caller's properties buffer,
// when it fits.
void write_name(EVENT_TRACE_PROPERTIES* p, uint32_t offset, const std::u16string& name) {
  if (offset < sizeof(EVENT_TRACE_PROPERTIES)) return;
  const uint64_t bytes = (name.size() + 1) * sizeof(WCHAR);
  if (offset + bytes > p->Wnode.BufferSize) return;
  auto* dst = reinterpret_cast<uint8_t*>(p) + offset;
  std::memcpy(dst, name.c_str(), bytes);
}

void fill_properties(const trace::SessionEntry& e, const SessionCounters& n,
                     EVENT_TRACE_PROPERTIES* p) {
  p->Wnode.HistoricalContext = session_handle(e.instance, e.slot);
  p->Wnode.Guid = to_win(e.guid);
  p->Wnode.Flags |= WNODE_FLAG_TRACED_GUID;
  p->BufferSize = e.buffer_kb;
  p->MinimumBuffers = e.min_buffers;
  p->MaximumBuffers = e.max_buffers;
  p->MaximumFileSize = e.max_file_mb;
  p->LogFileMode = e.log_file_mode;
  p->FlushTimer = e.flush_timer;
  p->EnableFlags = e.enable_flags;
  p->AgeLimit = e.age_limit;
  p->NumberOfBuffers = static_cast<ULONG>(std::max<uint64_t>(e.min_buffers, n.buffers));
  p->FreeBuffers = 0;
  p->EventsLost = static_cast<ULONG>(n.events_lost);
  p->BuffersWritten = static_cast<ULONG>(n.buffers_written);
  p->LogBuffersLost = static_cast<ULONG>(n.log_buffers_lost);
  p->RealTimeBuffersLost = static_cast<ULONG>(n.realtime_buffers_lost);
  p->LoggerThreadId = nullptr;
  write_name(p, p->LoggerNameOffset, e.name);
  if (!e.log_file.empty()) write_name(p, p->LogFileNameOffset, e.log_file);
}

// The counters QUERY reports: the rings', and for a file session what its host wrote.
SessionCounters live_counters(Runtime& rt, const trace::SessionEntry& e) {
  SessionCounters n = count_session(rt.link.dir(), e);
  if (!e.log_file.empty()) add_host_counters(rt.link.dir(), e.instance, n);
  return n;
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
  std::u16string file;
  if (!read_log_file_name(p, file)) return ERROR_BAD_PATHNAME;
  const ULONG mode = p->LogFileMode;
  constexpr ULONG kFileModes = EVENT_TRACE_FILE_MODE_SEQUENTIAL | EVENT_TRACE_FILE_MODE_CIRCULAR;
  if ((mode & (EVENT_TRACE_FILE_MODE_APPEND | EVENT_TRACE_FILE_MODE_NEWFILE)) != 0)
    return ERROR_NOT_SUPPORTED;
  if ((mode & kFileModes) == kFileModes) return ERROR_INVALID_PARAMETER;
  if ((mode & kFileModes) != 0 && file.empty()) return ERROR_BAD_PATHNAME;
  if ((mode & EVENT_TRACE_FILE_MODE_CIRCULAR) != 0 && p->MaximumFileSize == 0)
    return ERROR_INVALID_PARAMETER;
  if (file.empty() && (mode & EVENT_TRACE_REAL_TIME_MODE) == 0) return ERROR_NOT_SUPPORTED;
  return ERROR_SUCCESS;
}

trace::SessionEntry entry_from(LPCWSTR name, const EVENT_TRACE_PROPERTIES* p) {
  trace::SessionEntry e;
  e.name.assign(name, u16_length(name, kMaxNameChars));
  e.guid = to_pfc(p->Wnode.Guid);
  if (IsEqualGUID(&p->Wnode.Guid, &GUID_NULL)) e.guid = to_pfc(random_guid());
  e.buffer_kb = p->BufferSize != 0 ? p->BufferSize : 64;
  e.min_buffers = p->MinimumBuffers;
  e.max_buffers = p->MaximumBuffers;
  e.log_file_mode = p->LogFileMode;
  e.flush_timer = p->FlushTimer;
  e.enable_flags = p->EnableFlags;
  e.age_limit = p->AgeLimit;
  e.start_time = filetime_now();
  (void)read_log_file_name(p, e.log_file);  // checked by check_start
  if (!e.log_file.empty()) {
    e.max_file_mb = p->MaximumFileSize;
    if ((e.log_file_mode & EVENT_TRACE_FILE_MODE_CIRCULAR) == 0)
      e.log_file_mode |= EVENT_TRACE_FILE_MODE_SEQUENTIAL;  // ETW's default for a file
  }
  return e;
}

// The session a handle (instance << 16 | logger id) or a name denotes, or null.
const trace::SessionEntry* find_session(const trace::NamespaceState& st, uint64_t handle,
                                        const std::u16string* name) {
  if (name != nullptr) return st.session_by_name(*name);
  const uint64_t logger = handle & 0xFFFF;
  if (logger == 0 || logger > kMaxSessions) return nullptr;
  const trace::SessionEntry* e = st.session_by_slot(static_cast<uint32_t>(logger - 1));
  return e != nullptr && session_handle(e->instance, e->slot) == handle ? e : nullptr;
}

// Runs `change` as one namespace update and applies the result here; the ULONG the change
// leaves in *rc (ERROR_SUCCESS by default) is the operation's answer.
ULONG update_namespace(Runtime& rt, const std::function<ULONG(trace::NamespaceState&)>& change,
                       uint64_t* generation = nullptr) {
  if (!rt.link.ensure()) return namespace_error(rt.link.failure_errno());
  ULONG rc = ERROR_SUCCESS;
  int err = 0;
  auto st = rt.link.store().update(
      [&](trace::NamespaceState& s) -> Result<void> {
        rc = change(s);
        if (rc != ERROR_SUCCESS) return make_error("refused");
        return {};
      },
      &err);
  if (!st) return rc != ERROR_SUCCESS ? rc : namespace_error(err);
  // Committed: when applying it here fails, this process's listener applies it later.
  best_effort([&] { rt.sync_locked(*st); });
  if (generation != nullptr) *generation = st->generation;
  return ERROR_SUCCESS;
}

// Whether `entry` can join the sessions of `s`: its name and GUID free, a slot left.
ULONG check_new_session(const trace::NamespaceState& s, const trace::SessionEntry& entry) {
  if (s.session_by_name(entry.name) != nullptr) return ERROR_ALREADY_EXISTS;
  for (const auto& e : s.sessions)
    if (e.guid == entry.guid) return ERROR_ALREADY_EXISTS;
  if (!s.free_slot()) return ERROR_NO_SYSTEM_RESOURCES;  // every session slot is in use
  if (s.next_instance > trace::kMaxInstance) return ERROR_NO_SYSTEM_RESOURCES;
  return ERROR_SUCCESS;
}

ULONG start_locked(Runtime& rt, trace::SessionEntry entry, EVENT_TRACE_PROPERTIES* p,
                   TRACEHANDLE* out) {
  trace::SessionEntry made;
  const ULONG rc = update_namespace(rt, [&](trace::NamespaceState& s) -> ULONG {
    if (const ULONG refused = check_new_session(s, entry); refused != ERROR_SUCCESS) return refused;
    entry.slot = *s.free_slot();
    entry.instance = s.next_instance++;
    s.sessions.push_back(entry);
    made = entry;
    return ERROR_SUCCESS;
  });
  if (rc != ERROR_SUCCESS) return rc;
  best_effort([&] {  // after crashes
    if (auto st = rt.link.store().read()) reap_orphans(rt.link.dir(), *st);
  });
  fill_properties(made, SessionCounters{}, p);
  *out = session_handle(made.instance, made.slot);
  return ERROR_SUCCESS;
}

// Removes a session and its enables; providers stop writing to it once they applied the
// change (waited for here, bounded), then its buffers are reaped unless a consumer is
// still reading them. The counters come from rings mapped before the stop (and those
// created until the providers applied it): a consumer that sees the stop may remove the
// files before they are counted.
// `events` gets the final event count (PfcStopTrace), from the same rings.
ULONG stop_locked(Runtime& rt, const trace::SessionEntry& e, EVENT_TRACE_PROPERTIES* p,
                  uint64_t& events) {
  const bool file = !e.log_file.empty();  // its host's counters are the file's
  std::vector<trace::RingReader> rings = map_rings(rt.link.dir(), e.instance);
  uint64_t gen = 0;
  const ULONG rc = update_namespace(
      rt,
      [&](trace::NamespaceState& s) -> ULONG {
        std::erase_if(s.sessions, [&](const auto& x) { return x.instance == e.instance; });
        std::erase_if(s.enables, [&](const auto& x) { return x.slot == e.slot; });
        return ERROR_SUCCESS;
      },
      &gen);
  if (rc != ERROR_SUCCESS) return rc;
  best_effort([&] {  // the session is stopped: what follows cannot fail the stop
    (void)trace::wait_applied(rt.link.dir(), gen, kStopWaitMs, rt.link.self());
    if (!file) map_new_rings(rt.link.dir(), e.instance, rings);
    const SessionCounters in_rings = count_rings(rings, e.buffer_kb);
    events = in_rings.events;
    fill_properties(e, file ? finish_file_session(rt.link.dir(), e) : in_rings, p);
    reap_session(rt.link.dir(), e.instance);
  });
  return ERROR_SUCCESS;
}

// StartTraceW of a file session. Everything is checked before any file changes: the
// layout (a circular size that holds 2 buffers), the name, GUID and slot; then the file is
// opened without truncating it (another user's file, or one a live session writes, is
// refused), the session is published (checked again), and the host is spawned,
// which truncates the file and writes the header. A failure leaves the file as it was
// (removed again when StartTraceW created it) and undoes the session.
ULONG start_file_session(Runtime& rt, const trace::SessionEntry& entry, EVENT_TRACE_PROPERTIES* p,
                         TRACEHANDLE* out) {
  if (!rt.link.ensure()) return namespace_error(rt.link.failure_errno());
  trace::LogInfo layout = trace::host_log_info(entry);
  if (auto plan = trace::plan_log_layout(layout); !plan)
    return start_failed(ERROR_INVALID_PARAMETER, plan.error().message);
  // Refused as a session before the file is looked at (start_locked checks again).
  if (auto st = rt.link.store().read())
    if (const ULONG refused = check_new_session(*st, entry); refused != ERROR_SUCCESS)
      return refused;
  OpenedLog log;
  if (const ULONG rc = open_log_file(entry.log_file, log); rc != ERROR_SUCCESS) return rc;
  ULONG rc = start_locked(rt, entry, p, out);
  if (rc != ERROR_SUCCESS) {
    discard_log_file(log);
    return rc;
  }
  const trace::SessionEntry* made = nullptr;
  auto st = rt.link.store().read();
  if (st) made = st->session_by_name(entry.name);
  rc = made == nullptr ? ERROR_WMI_INSTANCE_NOT_FOUND
                       : spawn_host(rt.link.dir(), made->instance, log.fd.release());
  if (rc == ERROR_SUCCESS) return rc;
  if (made != nullptr) {
    const trace::SessionEntry undo = *made;
    update_namespace(rt, [&](trace::NamespaceState& s) -> ULONG {
      std::erase_if(s.sessions, [&](const auto& x) { return x.instance == undo.instance; });
      std::erase_if(s.enables, [&](const auto& x) { return x.slot == undo.slot; });
      return ERROR_SUCCESS;
    });
  }
  discard_log_file(log);
  *out = 0;
  return rc;
}

ULONG update_locked(Runtime& rt, const trace::SessionEntry& e, const EVENT_TRACE_PROPERTIES* p) {
  return update_namespace(rt, [&](trace::NamespaceState& s) -> ULONG {
    for (auto& x : s.sessions) {
      if (x.instance != e.instance) continue;
      if (p->FlushTimer != 0) x.flush_timer = p->FlushTimer;
      x.enable_flags = p->EnableFlags;
      if (p->MaximumBuffers > x.max_buffers) x.max_buffers = p->MaximumBuffers;
    }
    return ERROR_SUCCESS;
  });
}

// ENABLE replaces the session's entry for the provider (a new seq), DISABLE removes it,
// CAPTURE_STATE asks the providers for their state (no-op when not enabled).
ULONG enable_locked(Runtime& rt, TRACEHANDLE handle, const Guid& guid, ULONG code,
                    const trace::EnableEntry& wanted, uint64_t* gen) {
  const bool legacy = rt.is_legacy(guid);
  return update_namespace(
      rt,
      [&](trace::NamespaceState& s) -> ULONG {
        const trace::SessionEntry* session = find_session(s, handle, nullptr);
        if (session == nullptr) return ERROR_WMI_INSTANCE_NOT_FOUND;
        const uint32_t slot = session->slot;
        trace::EnableEntry* current = s.find_enable(guid, slot);
        if (code == EVENT_CONTROL_CODE_CAPTURE_STATE) {
          if (current != nullptr) current->capture_seq++;
          return ERROR_SUCCESS;
        }
        std::erase_if(s.enables,
                      [&](const auto& x) { return x.slot == slot && x.provider == guid; });
        if (code == EVENT_CONTROL_CODE_DISABLE_PROVIDER) return ERROR_SUCCESS;
        size_t others = 0;
        for (const auto& x : s.enables) others += x.provider == guid ? 1 : 0;
        if (!legacy && others >= kMaxModernSessions) return ERROR_NO_SYSTEM_RESOURCES;
        trace::EnableEntry e = wanted;
        e.provider = guid;
        e.slot = slot;
        e.seq = s.next_seq++;
        s.enables.push_back(std::move(e));
        return ERROR_SUCCESS;
      },
      gen);
}

}  // namespace

ULONG read_namespace(Runtime& rt, trace::NamespaceState* out) {
  if (!rt.link.ensure()) return namespace_error(rt.link.failure_errno());
  auto st = rt.link.store().read();
  if (!st) return ERROR_ACCESS_DENIED;
  *out = std::move(*st);
  return ERROR_SUCCESS;
}

// EnableTraceEx2, and its private form (etw/private_enable.h) when allow_private.
ULONG enable_trace(TRACEHANDLE TraceId, LPCGUID ProviderId, ULONG ControlCode, UCHAR Level,
                   ULONGLONG MatchAnyKeyword, ULONGLONG MatchAllKeyword, ULONG Timeout,
                   PENABLE_TRACE_PARAMETERS EnableParameters, bool allow_private) {
  if (TraceId == 0 || ProviderId == nullptr || ControlCode > EVENT_CONTROL_CODE_CAPTURE_STATE)
    return ERROR_INVALID_PARAMETER;
  EnableRequest req;
  if (const ULONG rc = convert_enable(Level, MatchAnyKeyword, MatchAllKeyword, EnableParameters,
                                      &req, allow_private);
      rc != ERROR_SUCCESS)
    return rc;
  if (req.payload_provider && !(*req.payload_provider == to_pfc(*ProviderId)))
    return ERROR_INVALID_PARAMETER;  // a payload blob built for another provider
  auto wire = encode_enable_parameters(EnableParameters);
  if (!wire) return ERROR_INVALID_PARAMETER;
  trace::EnableEntry wanted;
  wanted.level = Level;
  wanted.any = MatchAnyKeyword;
  wanted.all = MatchAllKeyword;
  wanted.properties = req.params.properties;
  wanted.filters = std::move(*wire);
  Runtime& rt = Runtime::get();
  uint64_t seq = 0, gen = 0;
  {
    std::lock_guard<std::mutex> lock(rt.control_mu);
    const ULONG rc = enable_locked(rt, TraceId, to_pfc(*ProviderId), ControlCode, wanted, &gen);
    if (rc != ERROR_SUCCESS) return rc;
    seq = rt.dispatcher.posted();
  }
  if (Timeout == 0) return ERROR_SUCCESS;
  if (!trace::wait_applied(rt.link.dir(), gen, Timeout, rt.link.self())) return ERROR_TIMEOUT;
  if (!rt.dispatcher.wait(seq, Timeout)) return ERROR_TIMEOUT;
  return ERROR_SUCCESS;
}
namespace {

// ControlTraceW; `events` gets a stopped session's final event count.
ULONG control_trace(TRACEHANDLE TraceHandle, LPCWSTR InstanceName,
                    PEVENT_TRACE_PROPERTIES Properties, ULONG ControlCode, uint64_t& events) {
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
    pfc::trace::NamespaceState st;
    if (const ULONG rc = read_namespace(rt, &st); rc != ERROR_SUCCESS) return rc;
    std::u16string name;
    if (TraceHandle == 0) name.assign(InstanceName, u16_length(InstanceName, kMaxNameChars));
    const pfc::trace::SessionEntry* found =
        find_session(st, TraceHandle, TraceHandle == 0 ? &name : nullptr);
    if (found == nullptr) return ERROR_WMI_INSTANCE_NOT_FOUND;
    const pfc::trace::SessionEntry e = *found;
    if (ControlCode == EVENT_TRACE_CONTROL_STOP) {
      if (const ULONG rc = stop_locked(rt, e, Properties, events); rc != ERROR_SUCCESS) return rc;
      seq = rt.dispatcher.posted();
    } else if (ControlCode == EVENT_TRACE_CONTROL_UPDATE) {
      if (const ULONG rc = update_locked(rt, e, Properties); rc != ERROR_SUCCESS) return rc;
      if (const ULONG rc = read_namespace(rt, &st); rc != ERROR_SUCCESS) return rc;
      const pfc::trace::SessionEntry* now = st.session_by_instance(e.instance);
      if (now == nullptr) return ERROR_WMI_INSTANCE_NOT_FOUND;
      fill_properties(*now, live_counters(rt, *now), Properties);
      return ERROR_SUCCESS;
    } else {  // QUERY, FLUSH: committed events are readable in the rings at once; a file
              // session's host writes its partly filled buffer (bounded wait)
      if (ControlCode == EVENT_TRACE_CONTROL_FLUSH && !e.log_file.empty())
        (void)pfc::trace::request_host_flush(rt.link.dir(), e.instance, kFlushWaitMs);
      fill_properties(e, live_counters(rt, e), Properties);
      return ERROR_SUCCESS;
    }
  }
  rt.dispatcher.wait(seq, INFINITE);  // this process's providers' callbacks ran
  return ERROR_SUCCESS;
}

}  // namespace
}  // namespace pfc::etw

using namespace pfc::etw;

extern "C" {

ULONG StartTraceW(PTRACEHANDLE TraceHandle, LPCWSTR InstanceName,
                  PEVENT_TRACE_PROPERTIES Properties) {
  return guarded([&]() -> ULONG {
    if (TraceHandle == nullptr) return ERROR_INVALID_PARAMETER;
    *TraceHandle = 0;
    if (InstanceName == nullptr || Properties == nullptr) return ERROR_INVALID_PARAMETER;
    clear_start_problem();
    if (const ULONG rc = check_start(InstanceName, Properties); rc != ERROR_SUCCESS) return rc;
    Runtime& rt = Runtime::get();
    std::lock_guard<std::mutex> lock(rt.control_mu);
    pfc::trace::SessionEntry entry = entry_from(InstanceName, Properties);
    if (!entry.log_file.empty()) return start_file_session(rt, entry, Properties, TraceHandle);
    return start_locked(rt, std::move(entry), Properties, TraceHandle);
  });
}

ULONG ControlTraceW(TRACEHANDLE TraceHandle, LPCWSTR InstanceName,
                    PEVENT_TRACE_PROPERTIES Properties, ULONG ControlCode) {
  uint64_t events = 0;
  return guarded(
      [&] { return control_trace(TraceHandle, InstanceName, Properties, ControlCode, events); });
}

ULONG PfcStopTrace(TRACEHANDLE TraceHandle, LPCWSTR InstanceName,
                   PEVENT_TRACE_PROPERTIES Properties, PULONGLONG EventCount) {
  return guarded([&]() -> ULONG {
    if (EventCount == nullptr) return ERROR_INVALID_PARAMETER;
    uint64_t events = 0;
    const ULONG rc =
        control_trace(TraceHandle, InstanceName, Properties, EVENT_TRACE_CONTROL_STOP, events);
    if (rc == ERROR_SUCCESS) *EventCount = events;
    return rc;
  });
}

// Windows' limits:
// https://learn.microsoft.com/en-us/windows/win32/api/evntrace/nf-evntrace-queryalltracesw
ULONG QueryAllTracesW(PEVENT_TRACE_PROPERTIES* PropertyArray, ULONG PropertyArrayCount,
                      PULONG LoggerCount) {
  return guarded([&]() -> ULONG {
    if (PropertyArray == nullptr || LoggerCount == nullptr || PropertyArrayCount == 0 ||
        PropertyArrayCount > pfc::trace::kMaxSessions)
      return ERROR_INVALID_PARAMETER;
    for (ULONG i = 0; i < PropertyArrayCount; ++i) {
      if (PropertyArray[i] == nullptr) return ERROR_INVALID_PARAMETER;
      if (PropertyArray[i]->Wnode.BufferSize < sizeof(EVENT_TRACE_PROPERTIES))
        return ERROR_BAD_LENGTH;
    }
    Runtime& rt = Runtime::get();
    std::lock_guard<std::mutex> lock(rt.control_mu);
    pfc::trace::NamespaceState st;
    if (const ULONG rc = read_namespace(rt, &st); rc != ERROR_SUCCESS) return rc;
    const auto count = static_cast<ULONG>(st.sessions.size());
    for (ULONG i = 0; i < count && i < PropertyArrayCount; ++i)
      fill_properties(st.sessions[i], live_counters(rt, st.sessions[i]), PropertyArray[i]);
    *LoggerCount = count;
    return count > PropertyArrayCount ? ERROR_MORE_DATA : ERROR_SUCCESS;
  });
}

ULONG PfcQueryTraceEventCount(TRACEHANDLE TraceHandle, PULONGLONG EventCount) {
  return guarded([&]() -> ULONG {
    if (EventCount == nullptr) return ERROR_INVALID_PARAMETER;
    Runtime& rt = Runtime::get();
    std::lock_guard<std::mutex> lock(rt.control_mu);
    pfc::trace::NamespaceState st;
    if (const ULONG rc = read_namespace(rt, &st); rc != ERROR_SUCCESS) return rc;
    const pfc::trace::SessionEntry* e = find_session(st, TraceHandle, nullptr);
    if (e == nullptr) return ERROR_WMI_INSTANCE_NOT_FOUND;
    *EventCount = live_counters(rt, *e).events;
    return ERROR_SUCCESS;
  });
}

ULONG PfcEnumerateTraceProviders(TRACEHANDLE TraceHandle, LPGUID Buffer, PULONG BufferSize) {
  return guarded([&]() -> ULONG {
    if (BufferSize == nullptr || (Buffer == nullptr && *BufferSize != 0))
      return ERROR_INVALID_PARAMETER;
    Runtime& rt = Runtime::get();
    std::lock_guard<std::mutex> lock(rt.control_mu);
    pfc::trace::NamespaceState st;
    if (const ULONG rc = read_namespace(rt, &st); rc != ERROR_SUCCESS) return rc;
    const pfc::trace::SessionEntry* e = find_session(st, TraceHandle, nullptr);
    if (e == nullptr) return ERROR_WMI_INSTANCE_NOT_FOUND;
    std::vector<GUID> guids;
    for (const pfc::trace::EnableEntry& en : st.enables)  // in enable order
      if (en.slot == e->slot) guids.push_back(to_win(en.provider));
    return copy_bytes_out(guids.data(), guids.size() * sizeof(GUID), Buffer, BufferSize);
  });
}

ULONG StopTraceW(TRACEHANDLE TraceHandle, LPCWSTR InstanceName,
                 PEVENT_TRACE_PROPERTIES Properties) {
  return ControlTraceW(TraceHandle, InstanceName, Properties, EVENT_TRACE_CONTROL_STOP);
}

ULONG QueryTraceW(TRACEHANDLE TraceHandle, LPCWSTR InstanceName,
                  PEVENT_TRACE_PROPERTIES Properties) {
  return ControlTraceW(TraceHandle, InstanceName, Properties, EVENT_TRACE_CONTROL_QUERY);
}

ULONG EnableTraceEx2(TRACEHANDLE TraceId, LPCGUID ProviderId, ULONG ControlCode, UCHAR Level,
                     ULONGLONG MatchAnyKeyword, ULONGLONG MatchAllKeyword, ULONG Timeout,
                     PENABLE_TRACE_PARAMETERS EnableParameters) {
  return guarded([&]() -> ULONG {
    return guarded([&] {
      return pfc::etw::enable_trace(TraceId, ProviderId, ControlCode, Level, MatchAnyKeyword,
                                    MatchAllKeyword, Timeout, EnableParameters, false);
    });
  });
}

}  // extern "C"
