// etw/legacy.cc — classic (MOF / WPP-era) providers: RegisterTraceGuidsW with a
// WMIDPREQUEST control callback, the TRACE_ENABLE_CONTEXT logger handle read by
// GetTraceEnableLevel / GetTraceEnableFlags, and TraceEvent, which writes to one session
// (docs/etw.md "Classic providers": one session, last enabler wins, 32-bit flags).
#include <unistd.h>

#include <cstring>

#include "etw/guard.h"
#include "etw/state.h"

namespace pfc::etw {
namespace {

TRACE_ENABLE_CONTEXT context_of(TRACEHANDLE handle) {
  TRACE_ENABLE_CONTEXT ctx;
  std::memcpy(&ctx, &handle, sizeof ctx);
  return ctx;
}

// Largest classic payload: like EventWrite's, the whole event (header included) must fit in
// 64 KB (docs/etw.md "Classic providers").
constexpr size_t kMaxClassicPayload = 0xFFFF - sizeof(EVENT_HEADER);

// The total length of the MOF_FIELDs at `fields` (`count` of them), or false when a field
// has data but no pointer or the total exceeds kMaxClassicPayload. Reads only the
// MOF_FIELD array, never the data: a caller's Length is not trusted until it fits.
bool mof_total(const uint8_t* fields, size_t count, size_t* total) {
  *total = 0;
  for (size_t i = 0; i < count; ++i) {
    MOF_FIELD f;
    std::memcpy(&f, fields + i * sizeof(MOF_FIELD), sizeof f);
    if (f.Length != 0 && f.DataPtr == 0) return false;
    if (f.Length > kMaxClassicPayload - *total) return false;  // no overflow: *total <= max
    *total += f.Length;
  }
  return true;
}

// The classic event's payload size in *total: the MOF data after the header, or the sum of
// its MOF_FIELDs' lengths with WNODE_FLAG_USE_MOF_PTR. False when the MOF_FIELDs are
// malformed or the payload exceeds kMaxClassicPayload. Reads no DataPtr.
bool classic_payload_size(const EVENT_TRACE_HEADER* h, size_t* total) {
  const size_t rest = h->Size - sizeof(EVENT_TRACE_HEADER);
  const auto* after = reinterpret_cast<const uint8_t*>(h) + sizeof(EVENT_TRACE_HEADER);
  if ((h->Flags & WNODE_FLAG_USE_MOF_PTR) == 0) {
    *total = rest;
    return rest <= kMaxClassicPayload;
  }
  if (rest % sizeof(MOF_FIELD) != 0) return false;
  return mof_total(after, rest / sizeof(MOF_FIELD), total);
}

// Copies the payload whose size classic_payload_size() accepted as `total`.
void copy_classic_payload(const EVENT_TRACE_HEADER* h, size_t total, std::vector<uint8_t>& out) {
  const size_t rest = h->Size - sizeof(EVENT_TRACE_HEADER);
  const auto* after = reinterpret_cast<const uint8_t*>(h) + sizeof(EVENT_TRACE_HEADER);
  out.reserve(total);
  if ((h->Flags & WNODE_FLAG_USE_MOF_PTR) == 0) {
    out.assign(after, after + rest);
    return;
  }
  for (size_t i = 0; i < rest / sizeof(MOF_FIELD); ++i) {
    MOF_FIELD f;
    std::memcpy(&f, after + i * sizeof(MOF_FIELD), sizeof f);
    const auto* p = reinterpret_cast<const uint8_t*>(static_cast<uintptr_t>(f.DataPtr));
    out.insert(out.end(), p, p + f.Length);
  }
}

}  // namespace
}  // namespace pfc::etw

using namespace pfc::etw;

extern "C" {

ULONG RegisterTraceGuidsW(WMIDPREQUEST RequestAddress, PVOID RequestContext, LPCGUID ControlGuid,
                          ULONG GuidCount, PTRACE_GUID_REGISTRATION TraceGuidReg,
                          LPCWSTR MofImagePath, LPCWSTR MofResourceName,
                          PTRACEHANDLE RegistrationHandle) {
  return guarded([&]() -> ULONG {
    (void)MofImagePath;
    (void)MofResourceName;
    if (RegistrationHandle == nullptr) return ERROR_INVALID_PARAMETER;
    *RegistrationHandle = 0;
    if (RequestAddress == nullptr || ControlGuid == nullptr ||
        (GuidCount != 0 && TraceGuidReg == nullptr))
      return ERROR_INVALID_PARAMETER;
    auto rec = std::make_shared<RegRecord>();
    rec->guid = to_pfc(*ControlGuid);
    rec->legacy = true;
    rec->request = RequestAddress;
    rec->request_context = RequestContext;
    const ULONG rc = register_record(rec, RegistrationHandle);
    if (rc != ERROR_SUCCESS) return rc;
    for (ULONG i = 0; i < GuidCount; ++i)
      TraceGuidReg[i].RegHandle = reinterpret_cast<HANDLE>(rec->handle);
    return ERROR_SUCCESS;
  });
}

ULONG UnregisterTraceGuids(TRACEHANDLE RegistrationHandle) {
  return guarded([&] { return unregister_record(RegistrationHandle, true); });
}

TRACEHANDLE GetTraceLoggerHandle(PVOID Buffer) {
  if (Buffer == nullptr) {
    set_last_error(ERROR_INVALID_PARAMETER);
    return INVALID_PROCESSTRACE_HANDLE;
  }
  return static_cast<const WNODE_HEADER*>(Buffer)->HistoricalContext;
}

UCHAR GetTraceEnableLevel(TRACEHANDLE TraceHandle) { return context_of(TraceHandle).Level; }

ULONG GetTraceEnableFlags(TRACEHANDLE TraceHandle) { return context_of(TraceHandle).EnableFlags; }

ULONG TraceEvent(TRACEHANDLE TraceHandle, PEVENT_TRACE_HEADER EventTrace) {
  return guarded([&]() -> ULONG {
    if (EventTrace == nullptr || EventTrace->Size < sizeof(EVENT_TRACE_HEADER))
      return ERROR_INVALID_PARAMETER;
    size_t payload_size = 0;  // checked before anything is read through a DataPtr
    if (!classic_payload_size(EventTrace, &payload_size)) return ERROR_INVALID_PARAMETER;
    GUID guid = EventTrace->Guid;
    if ((EventTrace->Flags & WNODE_FLAG_USE_GUID_PTR) != 0) {
      if (EventTrace->GuidPtr == 0) return ERROR_INVALID_PARAMETER;
      std::memcpy(&guid, reinterpret_cast<const void*>(static_cast<uintptr_t>(EventTrace->GuidPtr)),
                  sizeof guid);
    }
    Runtime& rt = Runtime::get();
    const TRACE_ENABLE_CONTEXT ctx = context_of(TraceHandle);
    std::shared_ptr<Session> s = rt.session_by_logger(ctx.LoggerId);
    if (!s) return ERROR_INVALID_HANDLE;
    // A session that lost the provider to a later enabler no longer receives its events.
    if (((rt.router().enabling_sessions(to_pfc(guid)) >> s->slot()) & 1) == 0) return ERROR_SUCCESS;
    std::vector<uint8_t> payload;
    copy_classic_payload(EventTrace, payload_size, payload);
    pfc::EventView view;
    view.desc.opcode = EventTrace->Class.Type;
    view.desc.level = EventTrace->Class.Level;
    view.desc.version = static_cast<uint8_t>(EventTrace->Class.Version);
    view.payload = payload.data();
    view.payload_size = payload.size();
    view.pid = current_pid();
    view.tid = current_tid();
    WriteContext write;
    write.flags = EVENT_HEADER_FLAG_CLASSIC_HEADER | EVENT_HEADER_FLAG_64_BIT_HEADER;
    write.provider = to_pfc(guid);
    WriteSource source(std::move(write));
    const WriteScope scope(&source);
    s->deliver(view, false);
    return ERROR_SUCCESS;
  });
}

}  // extern "C"
