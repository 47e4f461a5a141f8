// etw/session_info.cc — see session_info.h.
#include "etw/session_info.h"

#include <cstring>

#include "base/utf8.h"
#include "etw/enable_ext.h"
#include "etw/enable_wire.h"
#include "etw/file_session.h"
#include "etw/state.h"
#include "pfc/etw/evntrace.h"

namespace pfc::etw {
namespace {

Result<trace::NamespaceState> read_state() {
  Runtime& rt = Runtime::get();
  if (auto ok = rt.link.ensure(); !ok) return std::unexpected(ok.error());
  return rt.link.store().read();
}

std::string utf8(const std::u16string& s) {
  std::string out;
  utf16_to_utf8(s, out, Unpaired::Replace);
  return out;
}

SessionInfo describe(const trace::NamespaceState& st, const trace::SessionEntry& e) {
  SessionInfo info;
  info.name = utf8(e.name);
  info.log_file = utf8(e.log_file);
  info.realtime = (e.log_file_mode & EVENT_TRACE_REAL_TIME_MODE) != 0;
  for (const trace::EnableEntry& en : st.enables)
    if (en.slot == e.slot) info.providers.push_back(en.provider);
  return info;
}

struct StopProperties {
  EVENT_TRACE_PROPERTIES props;
  WCHAR name[1024];
  WCHAR file[1024];
};

}  // namespace

Result<void> namespace_access() {
  auto st = read_state();
  if (!st) return std::unexpected(st.error());
  return {};
}

Result<std::optional<SessionInfo>> stop_session(const std::u16string& name) {
  auto st = read_state();
  if (!st) return std::unexpected(st.error());
  const trace::SessionEntry* e = st->session_by_name(name);
  if (e == nullptr) return std::optional<SessionInfo>{};
  SessionInfo info = describe(*st, *e);
  const trace::SessionEntry entry = *e;
  std::vector<trace::RingReader> rings = map_rings(Runtime::get().link.dir(), entry.instance);
  auto p = std::make_unique<StopProperties>();
  std::memset(p.get(), 0, sizeof *p);
  p->props.Wnode.BufferSize = sizeof *p;
  p->props.LoggerNameOffset = offsetof(StopProperties, name);
  p->props.LogFileNameOffset = offsetof(StopProperties, file);
  std::u16string wide = entry.name;
  wide.push_back(u'\0');
  const ULONG rc = ControlTraceW(0, reinterpret_cast<LPCWSTR>(wide.c_str()), &p->props,
                                 EVENT_TRACE_CONTROL_STOP);
  if (rc == ERROR_WMI_INSTANCE_NOT_FOUND) return std::optional<SessionInfo>{};
  if (rc == ERROR_DISK_FULL)
    return make_error("cannot stop '" + info.name + "': " + etw_error_text(rc));
  if (rc != ERROR_SUCCESS)
    return make_error("ControlTraceW(STOP) failed with " + std::to_string(rc));
  // A ring a provider created between the mapping above and the stop is not counted.
  info.counters = count_rings(rings, entry.buffer_kb);
  if (!entry.log_file.empty()) {  // the file's final counters (etw/file_session.h)
    info.counters.buffers_written = p->props.BuffersWritten;
    info.counters.events_lost = p->props.EventsLost;
    info.counters.log_buffers_lost = p->props.LogBuffersLost;
    info.counters.realtime_buffers_lost = p->props.RealTimeBuffersLost;
  }
  return std::optional<SessionInfo>{std::move(info)};
}

Result<std::vector<ProviderDef>> session_schemas(const std::u16string& name) {
  auto st = read_state();
  if (!st) return std::unexpected(st.error());
  std::vector<ProviderDef> out;
  const trace::SessionEntry* e = st->session_by_name(name);
  if (e == nullptr) return out;
  for (const trace::EnableEntry& en : st->enables) {
    if (en.slot != e->slot) continue;
    const auto params = decode_enable_parameters(en.filters);
    if (!params) continue;
    for (size_t i = 0; i < params->descriptors.size(); ++i) {
      if (params->descriptors[i].Type != kFilterTypePfcExtension) continue;
      const std::vector<uint8_t>& data = params->data[i];
      auto ext = decode_ext(data.data(), data.size(), nullptr);
      if (ext && ext->schema) out.push_back(std::move(*ext->schema));
    }
  }
  return out;
}

}  // namespace pfc::etw
