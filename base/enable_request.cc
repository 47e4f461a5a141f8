// base/enable_request.cc — see enable_request.h.
#include "base/enable_request.h"

#include <cstddef>
#include <cstring>

#include "base/utf8.h"

namespace pfc {
namespace {

// EVENT_FILTER_EVENT_ID data (EVENT_ID and STACKWALK).
std::vector<uint8_t> id_body(const std::vector<uint16_t>& ids, bool in) {
  std::vector<uint8_t> body(offsetof(EVENT_FILTER_EVENT_ID, Events) + ids.size() * sizeof(USHORT));
  EVENT_FILTER_EVENT_ID head{};
  head.FilterIn = in ? 1 : 0;
  head.Count = static_cast<USHORT>(ids.size());
  std::memcpy(body.data(), &head, offsetof(EVENT_FILTER_EVENT_ID, Events));
  std::memcpy(body.data() + offsetof(EVENT_FILTER_EVENT_ID, Events), ids.data(),
              ids.size() * sizeof(USHORT));
  return body;
}

std::u16string joined(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& n : names) text += (text.empty() ? "" : ";") + n;
  std::u16string out;
  utf8_to_utf16(text, out);
  return out;
}

}  // namespace

std::vector<EVENT_FILTER_DESCRIPTOR> enable_descriptors(const EnableRequest& r,
                                                        std::vector<std::vector<uint8_t>>& bodies) {
  std::vector<EVENT_FILTER_DESCRIPTOR> f;
  const auto add = [&f](const void* data, size_t size, ULONG type) {
    f.push_back({reinterpret_cast<ULONGLONG>(data), ULONG(size), type});
  };
  if (!r.pids.empty()) add(r.pids.data(), r.pids.size() * sizeof(uint32_t), EVENT_FILTER_TYPE_PID);
  for (const internal::ScopeKindInfo& s : internal::kScopeKinds) {
    const std::u16string& names = r.names[size_t(s.kind)];
    if (!names.empty())
      add(names.c_str(), (names.size() + 1) * sizeof(char16_t), s.etw_filter_type);
  }
  bodies.clear();
  bodies.reserve(2);
  if (!r.ids.empty()) {
    bodies.push_back(id_body(r.ids, r.ids_in));
    add(bodies.back().data(), bodies.back().size(), EVENT_FILTER_TYPE_EVENT_ID);
  }
  if (!r.stack_ids.empty()) {
    bodies.push_back(id_body(r.stack_ids, r.stack_in));
    add(bodies.back().data(), bodies.back().size(), EVENT_FILTER_TYPE_STACKWALK);
  }
  if (!r.extension.empty()) add(r.extension.data(), r.extension.size(), r.extension_type);
  return f;
}

ENABLE_TRACE_PARAMETERS enable_parameters(const EnableRequest& r,
                                          std::vector<EVENT_FILTER_DESCRIPTOR>& f) {
  ENABLE_TRACE_PARAMETERS params{};
  params.Version = ENABLE_TRACE_PARAMETERS_VERSION_2;
  params.EnableProperty = r.properties;
  params.EnableFilterDesc = f.empty() ? nullptr : f.data();
  params.FilterDescCount = static_cast<ULONG>(f.size());
  return params;
}

std::string name_list_error(std::string_view what, const std::u16string& names) {
  const size_t bytes = (names.size() + 1) * sizeof(char16_t);
  if (names.empty() || bytes <= MAX_EVENT_FILTER_DATA_SIZE) return "";
  return std::string(what) + ": the names take " + std::to_string(bytes) +
         " bytes as UTF-16 (joined by ';', NUL-terminated), more than the limit of " +
         std::to_string(MAX_EVENT_FILTER_DATA_SIZE) +
         " bytes of an ETW name-list filter (docs/etw.md \"Filters\")";
}

std::string request_from_params(const Guid& provider, const EnableParams& p, EnableRequest& r) {
  r.provider = provider;
  r.level = p.level;
  r.any = p.any;
  r.all = p.all;
  r.properties = p.properties;
  if (p.pids) r.pids = *p.pids;
  for (const internal::ScopeKindInfo& s : internal::kScopeKinds)
    if (s.names != nullptr && p.*s.names) r.names[size_t(s.kind)] = joined(*(p.*s.names));
  if (p.event_ids) {
    r.ids = p.event_ids->ids;
    r.ids_in = p.event_ids->filter_in;
  }
  if (p.stack_ids) {
    r.stack_ids = p.stack_ids->ids;
    r.stack_in = p.stack_ids->filter_in;
  }
  if (p.event_names || p.stack_names || p.stack_level_kw)
    return "event-name or stack level/keyword filters (the ETW API's only)";
  if (r.pids.size() > MAX_EVENT_FILTER_PID_COUNT)
    return std::to_string(r.pids.size()) + " pids (an ETW PID filter holds at most " +
           std::to_string(MAX_EVENT_FILTER_PID_COUNT) + ")";
  for (const auto* ids : {&r.ids, &r.stack_ids})
    if (ids->size() > MAX_EVENT_FILTER_EVENT_ID_COUNT)
      return std::to_string(ids->size()) + " event ids (an ETW EVENT_ID filter holds at most " +
             std::to_string(MAX_EVENT_FILTER_EVENT_ID_COUNT) + ")";
  for (const internal::ScopeKindInfo& s : internal::kScopeKinds) {
    const std::string what = "the " + std::string(s.name) + " filter";
    if (std::string bad = name_list_error(what, r.names[size_t(s.kind)]); !bad.empty()) return bad;
  }
  return "";
}

}  // namespace pfc
