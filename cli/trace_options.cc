// cli/trace_options.cc — see trace_options.h.
#include "cli/trace_options.h"

#include <string_view>

#include "base/ascii.h"
#include "base/hex.h"
#include "base/integer_text.h"
#include "base/utf8.h"
#include "pfc/etw/evntcons.h"
#include "pfc/etw/evntprov.h"
#include "pfc/etw/pfc_etw_ext.h"

namespace pfc::cli {
namespace {

// Every comma-separated item of every occurrence of a repeatable option.
std::vector<std::string> items(const std::vector<std::string>& values) {
  std::vector<std::string> out;
  for (const std::string& v : values) {
    size_t start = 0;
    for (;;) {
      const size_t comma = v.find(',', start);
      out.push_back(
          v.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
  }
  return out;
}

bool parse_number(const std::string& text, uint64_t max, uint64_t& out) {
  const auto n = parse_unsigned_text(text);
  if (!n || n->overflow || n->value > max) return false;
  out = n->value;
  return true;
}

std::string parse_level(const std::string& text, uint8_t& out) {
  static constexpr std::string_view kNames[] = {"",        "critical", "error",
                                                "warning", "info",     "verbose"};
  for (uint8_t i = 1; i < 6; ++i) {
    if (iequals_ascii(text, kNames[i])) {
      out = i;
      return "";
    }
  }
  uint64_t v = 0;
  if (!parse_number(text, 255, v))
    return "--level " + text + ": expected 0 to 255 or critical, error, warning, info, verbose";
  out = static_cast<uint8_t>(v);
  return "";
}

std::string parse_keyword(const char* option, const std::string& text, uint64_t& out) {
  if (!parse_number(text, ~uint64_t{0}, out))
    return std::string(option) + " " + text +
           ": expected a number (decimal or 0x…) up to 0xffffffffffffffff";
  return "";
}

struct PropertyName {
  std::string_view name;
  uint32_t flag;
};
constexpr PropertyName kProperties[] = {
    {"sid", EVENT_ENABLE_PROPERTY_SID},
    {"ts_id", EVENT_ENABLE_PROPERTY_TS_ID},
    {"stack_trace", EVENT_ENABLE_PROPERTY_STACK_TRACE},
    {"psm_key", EVENT_ENABLE_PROPERTY_PSM_KEY},
    {"ignore_keyword_0", EVENT_ENABLE_PROPERTY_IGNORE_KEYWORD_0},
    {"provider_group", EVENT_ENABLE_PROPERTY_PROVIDER_GROUP},
    {"enable_keyword_0", EVENT_ENABLE_PROPERTY_ENABLE_KEYWORD_0},
    {"process_start_key", EVENT_ENABLE_PROPERTY_PROCESS_START_KEY},
    {"event_key", EVENT_ENABLE_PROPERTY_EVENT_KEY},
    {"exclude_inprivate", EVENT_ENABLE_PROPERTY_EXCLUDE_INPRIVATE},
    {"enable_silos", EVENT_ENABLE_PROPERTY_ENABLE_SILOS},
    {"source_container_tracking", EVENT_ENABLE_PROPERTY_SOURCE_CONTAINER_TRACKING},
};

// The bits of every EnableProperty flag pfc knows by name.
constexpr uint32_t known_properties() {
  uint32_t all = 0;
  for (const PropertyName& p : kProperties) all |= p.flag;
  return all;
}

// "" or why the EnableProperty bits `v` (from --property TEXT) cannot be passed: bits that
// are no flag, or a flag EnableTraceEx2 refuses (PFC_ETW_UNSUPPORTED_ENABLE_PROPERTIES,
// pfc/etw/pfc_etw_ext.h).
std::string check_property(const std::string& text, uint32_t v) {
  if (const uint32_t unknown = v & ~known_properties(); unknown != 0)
    return "--property " + text + ": " + to_hex(unknown) +
           " is not an EnableProperty flag (the flags are " + to_hex(known_properties()) +
           " and their names)";
  if (const uint32_t refused = v & PFC_ETW_UNSUPPORTED_ENABLE_PROPERTIES; refused != 0)
    return "--property " + text + ": " + to_hex(refused) +
           " (provider_group) is not supported by EnableTraceEx2 (docs/etw.md \"Error codes\")";
  return "";
}

std::string parse_property(const std::string& text, uint32_t& flags) {
  for (const PropertyName& p : kProperties) {
    if (iequals_ascii(text, p.name)) {
      flags |= p.flag;
      return check_property(text, p.flag);
    }
  }
  uint64_t v = 0;
  if (!parse_number(text, 0xffffffffu, v))
    return "--property " + text +
           ": expected a number or stack_trace, sid, ts_id, "
           "ignore_keyword_0, enable_keyword_0, process_start_key, event_key, ...";
  flags |= static_cast<uint32_t>(v);
  return check_property(text, static_cast<uint32_t>(v));
}

std::string parse_pids(const TraceOptions& o, EnableRequest& out) {
  for (const std::string& p : items(o.pids)) {
    uint64_t v = 0;
    if (!parse_number(p, 0xffffffffu, v)) return "--pid " + p + ": expected a process id";
    out.pids.push_back(static_cast<uint32_t>(v));
  }
  if (out.pids.size() > MAX_EVENT_FILTER_PID_COUNT)
    return "--pid: at most " + std::to_string(MAX_EVENT_FILTER_PID_COUNT) +
           " process ids (an ETW PID filter)";
  return "";
}

std::string parse_exes(const TraceOptions& o, EnableRequest& out) {
  std::string joined;
  for (const std::string& e : items(o.exes)) {
    if (e.empty() || e.find(';') != std::string::npos)
      return "--exe '" + e + "': expected executable names separated by ','";
    if (!joined.empty()) joined += ';';
    joined += e;
  }
  std::u16string& exe = out.names[size_t(internal::ScopeKind::Exe)];
  if (!utf8_to_utf16(joined, exe)) return "--exe: not valid UTF-8";
  return name_list_error("--exe", exe);
}

std::string parse_ids(const TraceOptions& o, EnableRequest& out) {
  std::vector<std::string> list = items(o.event_ids);
  if (list.empty()) return "";
  if (list.front().starts_with("not:")) {
    out.ids_in = false;
    list.front().erase(0, 4);
  }
  for (const std::string& id : list) {
    uint64_t v = 0;
    if (!parse_number(id, 0xffff, v))
      return "--event-id " + id + ": expected event ids 0 to 65535 (\"not:\" first to exclude)";
    out.ids.push_back(static_cast<uint16_t>(v));
  }
  if (out.ids.size() > MAX_EVENT_FILTER_EVENT_ID_COUNT)
    return "--event-id: at most " + std::to_string(MAX_EVENT_FILTER_EVENT_ID_COUNT) +
           " ids (an ETW EVENT_ID filter)";
  return "";
}

}  // namespace

Guid provider_guid(const std::string& text, const std::vector<ProviderDef>& schemas) {
  if (auto g = Guid::parse(text)) return *g;
  for (const ProviderDef& p : schemas)
    if (p.name == text) return p.guid;
  // `*Name`, as in xperf, tracelog and WPR: the name's hash, whatever the schemas say.
  if (text.size() > 1 && text[0] == '*') return Guid::from_provider_name(text.substr(1));
  return Guid::from_provider_name(text);
}

std::string build_enable(const TraceOptions& o, const std::vector<ProviderDef>& schemas,
                         EnableRequest& out) {
  if (o.provider.starts_with("{") && !Guid::parse(o.provider))
    return "PROVIDER " + o.provider + ": not a GUID ({XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX})";
  out.provider = provider_guid(o.provider, schemas);
  std::string bad;
  if (!o.level.empty()) bad = parse_level(o.level, out.level);
  if (bad.empty() && !o.any.empty()) bad = parse_keyword("--any", o.any, out.any);
  if (bad.empty() && !o.all.empty()) bad = parse_keyword("--all", o.all, out.all);
  for (const std::string& p : items(o.properties))
    if (bad.empty()) bad = parse_property(p, out.properties);
  if (bad.empty()) bad = parse_pids(o, out);
  if (bad.empty()) bad = parse_exes(o, out);
  if (bad.empty()) bad = parse_ids(o, out);
  return bad;
}

std::string parse_count(const std::string& option, const std::string& text, uint32_t max,
                        uint32_t& out) {
  uint64_t v = 0;
  if (!parse_number(text, max, v) || v == 0)
    return option + " " + text + ": expected a whole number from 1 to " + std::to_string(max);
  out = static_cast<uint32_t>(v);
  return "";
}

bool always_a_path(std::string_view name) {
  return name.find('/') != std::string_view::npos || name == "." || name == "..";
}

}  // namespace pfc::cli
