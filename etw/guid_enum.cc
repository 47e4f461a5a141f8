// etw/guid_enum.cc — EnumerateTraceGuidsEx over the namespace's enables (docs/etw.md
// "Sessions and consumers", "Choices"): the namespace state records every session's enable
// of every provider GUID (docs/namespace.md §2) but not which process registered which
// provider, so a GUID's one instance stands for its enables (TRACE_PROVIDER_FLAG_PRE_ENABLE,
// Pid 0), as Windows reports a GUID that sessions enable before any process registers it.
#include <algorithm>
#include <cstring>
#include <vector>

#include "etw/guard.h"
#include "etw/state.h"
#include "etw/util.h"
#include "trace/state.h"

namespace pfc::etw {
namespace {

// The enabled provider GUIDs in the order of their oldest enable (enables are in seq order).
std::vector<Guid> enabled_guids(const trace::NamespaceState& st) {
  std::vector<Guid> out;
  for (const trace::EnableEntry& e : st.enables)
    if (std::find(out.begin(), out.end(), e.provider) == out.end()) out.push_back(e.provider);
  return out;
}

std::vector<uint8_t> guid_list(const trace::NamespaceState& st) {
  std::vector<uint8_t> out;
  for (const Guid& g : enabled_guids(st)) {
    const GUID w = to_win(g);
    const auto* p = reinterpret_cast<const uint8_t*>(&w);
    out.insert(out.end(), p, p + sizeof w);
  }
  return out;
}

template <typename T>
void append(std::vector<uint8_t>& out, const T& v) {
  const auto* p = reinterpret_cast<const uint8_t*>(&v);
  out.insert(out.end(), p, p + sizeof v);
}

// TRACE_GUID_INFO, its one instance and a TRACE_ENABLE_INFO per enabling session in
// logger-id order; empty when no session enables `g`.
std::vector<uint8_t> guid_info(const trace::NamespaceState& st, const Guid& g) {
  std::vector<TRACE_ENABLE_INFO> enables;
  for (const trace::SessionEntry& s : st.sessions) {  // in slot order
    for (const trace::EnableEntry& e : st.enables) {
      if (e.slot != s.slot || !(e.provider == g)) continue;
      TRACE_ENABLE_INFO info{};
      info.IsEnabled = 1;
      info.Level = e.level;
      info.LoggerId = static_cast<USHORT>(s.slot + 1);
      info.EnableProperty = e.properties;
      info.MatchAnyKeyword = e.any;
      info.MatchAllKeyword = e.all;
      enables.push_back(info);
    }
  }
  std::vector<uint8_t> out;
  if (enables.empty()) return out;
  append(out, TRACE_GUID_INFO{1, 0});
  append(out, TRACE_PROVIDER_INSTANCE_INFO{0, static_cast<ULONG>(enables.size()), 0,
                                           TRACE_PROVIDER_FLAG_PRE_ENABLE});
  for (const TRACE_ENABLE_INFO& e : enables) append(out, e);
  return out;
}

}  // namespace
}  // namespace pfc::etw

using namespace pfc::etw;

extern "C" {

// https://learn.microsoft.com/en-us/windows/win32/api/evntrace/nf-evntrace-enumeratetraceguidsex
ULONG EnumerateTraceGuidsEx(TRACE_QUERY_INFO_CLASS TraceQueryInfoClass, PVOID InBuffer,
                            ULONG InBufferSize, PVOID OutBuffer, ULONG OutBufferSize,
                            PULONG ReturnLength) {
  return guarded([&]() -> ULONG {
    if (ReturnLength == nullptr || (OutBuffer == nullptr && OutBufferSize != 0))
      return ERROR_INVALID_PARAMETER;
    const bool info = TraceQueryInfoClass == TraceGuidQueryInfo;
    if (TraceQueryInfoClass != TraceGuidQueryList && !info) {
      const auto c = static_cast<unsigned>(TraceQueryInfoClass);
      return c < unsigned{MaxTraceSetInfoClass} ? ERROR_NOT_SUPPORTED : ERROR_INVALID_PARAMETER;
    }
    if (info && (InBuffer == nullptr || InBufferSize != sizeof(GUID)))
      return ERROR_INVALID_PARAMETER;
    pfc::trace::NamespaceState st;
    if (const ULONG rc = read_namespace(Runtime::get(), &st); rc != ERROR_SUCCESS) return rc;
    std::vector<uint8_t> bytes;
    if (info) {
      GUID g;
      std::memcpy(&g, InBuffer, sizeof g);
      bytes = guid_info(st, to_pfc(g));
      if (bytes.empty()) return ERROR_WMI_GUID_NOT_FOUND;
    } else {
      bytes = guid_list(st);
    }
    const auto needed = static_cast<ULONG>(bytes.size());
    *ReturnLength = needed;
    if (OutBufferSize < needed) return ERROR_INSUFFICIENT_BUFFER;
    if (needed != 0) std::memcpy(OutBuffer, bytes.data(), needed);
    return ERROR_SUCCESS;
  });
}

}  // extern "C"
