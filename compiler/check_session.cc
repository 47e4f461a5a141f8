// compiler/check_session.cc — the session half of the semantic checker: resolves `session` /
// `enable` blocks into EnableParams (level, keywords, properties, scope and event-ID filters;
// payload filters go to check_payload.cc) and reports every error and warning about them.
#include <algorithm>
#include <array>
#include <unordered_set>

#include "base/ascii.h"
#include "base/quote.h"
#include "base/suggest.h"
#include "compiler/check_context.h"
#include "compiler/convert.h"

namespace pfc::internal {
namespace {

constexpr size_t kMaxSessions = 64;  // one bit per session in the routing mask

struct PropertyName {
  std::string_view name;
  uint32_t bit;
};
constexpr std::array<PropertyName, 6> kProperties = {{
    {"ignore_keyword_0", enable_property::kIgnoreKeyword0},
    {"stack_trace", enable_property::kStackTrace},
    {"sid", enable_property::kSid},
    {"ts_id", enable_property::kTsId},
    {"process_start_key", enable_property::kProcessStartKey},
    {"event_key", enable_property::kEventKey},
}};

std::string_view option_name(ast::OptionKind k) {
  static constexpr std::array<std::string_view, 4> kNames = {"level", "any", "all", "properties"};
  return kNames[static_cast<size_t>(k)];
}

uint32_t check_properties(const ast::Option& o, CheckContext& cx) {
  uint32_t bits = 0;
  for (const ast::Name& n : o.properties) {
    auto it = std::ranges::find_if(
        kProperties, [&](const PropertyName& p) { return iequals_ascii(p.name, n.text); });
    if (it == kProperties.end()) {
      auto names = names_of(std::vector(kProperties.begin(), kProperties.end()),
                            [](const PropertyName& p) { return p.name; });
      cx.error(n.pos, "unknown property " + quote_text(n.text) + did_you_mean(n.text, names));
    } else if (bits & it->bit) {
      cx.error(n.pos, "duplicate property " + quote_text(it->name));
    } else {
      bits |= it->bit;
    }
  }
  return bits;
}

void check_options(const ast::Enable& e, EnableParams& params, CheckContext& cx) {
  std::array<bool, 4> seen{};
  for (const ast::Option& o : e.options) {
    const std::string name = "'" + std::string(option_name(o.kind)) + "'";
    if (seen[static_cast<size_t>(o.kind)]) {
      cx.error(o.pos, "duplicate option " + name);
      continue;
    }
    seen[static_cast<size_t>(o.kind)] = true;
    switch (o.kind) {
      case ast::OptionKind::Level:
        if (check_unsigned(cx, o.value, 0xFF, name)) {
          params.level = static_cast<uint8_t>(o.value.magnitude);
        }
        break;
      case ast::OptionKind::Any:
        if (check_unsigned(cx, o.value, ~uint64_t{0}, name)) params.any = o.value.magnitude;
        break;
      case ast::OptionKind::All:
        if (check_unsigned(cx, o.value, ~uint64_t{0}, name)) params.all = o.value.magnitude;
        break;
      case ast::OptionKind::Properties: params.properties = check_properties(o, cx); break;
    }
  }
}

const ast::Option* find_option(const ast::Enable& e, ast::OptionKind k) {
  auto it = std::ranges::find_if(e.options, [k](const ast::Option& o) { return o.kind == k; });
  return it == e.options.end() ? nullptr : &*it;
}

void warn_options(const ast::Enable& e, const EnableParams& params, const ProviderDef& p,
                  CheckContext& cx) {
  const ast::Option* all = find_option(e, ast::OptionKind::All);
  if (p.legacy) {
    if (params.all != 0) {
      cx.warning(all->pos, "'all' has no effect on legacy provider " + quote_text(p.name));
    }
    if (params.any > 0xFFFFFFFF) {
      cx.warning(find_option(e, ast::OptionKind::Any)->pos,
                 "legacy provider " + quote_text(p.name) + " sees only the low 32 bits of 'any'");
    }
    if (params.properties != 0) {
      cx.warning(find_option(e, ast::OptionKind::Properties)->pos,
                 "properties have no effect on legacy provider " + quote_text(p.name));
    }
    return;
  }
  if (params.all != 0 && params.any == 0) {
    cx.warning(all->pos,
               "'all' has no effect without 'any' (MatchAllKeyword is ignored when "
               "MatchAnyKeyword is 0)");
  }
}

// Splits an ETW ';'-separated name list; reports empty names, NULs and (exe) paths. Drops
// exact duplicates in linear time (a hash set of views into the filter's text).
std::vector<std::string> split_names(const ast::Filter& f, CheckContext& cx) {
  std::vector<std::string> names;
  std::unordered_set<std::string_view> seen;
  const std::string_view kind = ast::filter_kind_name(f.kind);
  std::string_view rest = f.text.value;
  bool reported = false;
  auto report = [&](std::string message) {
    if (!reported) cx.error(f.text.pos, std::move(message));
    reported = true;
  };
  while (true) {
    const size_t semi = rest.find(';');
    const std::string_view name = rest.substr(0, semi);
    if (name.empty()) {
      report("empty name in '" + std::string(kind) + "' list");
    } else if (name.find('\0') != std::string_view::npos) {
      report("names in '" + std::string(kind) + "' list cannot contain NUL characters");
    } else if (internal::scope_kind(ast::ScopeKind(f.kind)).final_component &&
               name.find_first_of("/\\") != name.npos) {
      report("executable names are file names without a path: " + quote_text(name));
    } else if (seen.insert(name).second) {
      names.emplace_back(name);
    }
    if (semi == std::string_view::npos) break;
    rest.remove_prefix(semi + 1);
  }
  return names;
}

// The pids in first-seen order, duplicates dropped in linear time.
std::vector<uint32_t> check_pids(const ast::Filter& f, CheckContext& cx) {
  std::vector<uint32_t> pids;
  std::unordered_set<uint32_t> seen;
  for (const ast::Int& v : f.ints) {
    if (!check_unsigned(cx, v, 0xFFFFFFFF, "pid")) continue;
    const auto pid = static_cast<uint32_t>(v.magnitude);
    if (seen.insert(pid).second) pids.push_back(pid);
  }
  return pids;
}

EventIdFilter check_ids(const ast::Filter& f, CheckContext& cx) {
  EventIdFilter out;
  out.filter_in = f.filter_in;
  std::unordered_set<uint16_t> seen;
  for (const ast::Int& v : f.ints) {
    if (!check_unsigned(cx, v, 0xFFFF, "event id")) continue;
    const auto id = static_cast<uint16_t>(v.magnitude);
    if (seen.insert(id).second) out.ids.push_back(id);
  }
  return out;
}

void check_filter(const ast::Filter& f, uint32_t provider, EnableParams& params, CheckContext& cx) {
  if (ast::is_name_scope(f.kind)) {
    params.*internal::scope_kind(ast::ScopeKind(f.kind)).names = split_names(f, cx);
    return;
  }
  switch (f.kind) {
    case ast::FilterKind::Pid: params.pids = check_pids(f, cx); break;
    case ast::FilterKind::EventId: params.event_ids = check_ids(f, cx); break;
    case ast::FilterKind::StackId:
      params.stack_ids = check_ids(f, cx);
      if (!(params.properties & enable_property::kStackTrace)) {
        cx.warning(f.pos, "'stack_id' has no effect without properties=(stack_trace)");
      }
      break;
    case ast::FilterKind::Payload: check_payload_filter(f, provider, params, cx); break;
    default: break;  // the name scopes, above
  }
}

void check_filters(const ast::Enable& e, uint32_t provider, SessionDecl::Enable& out,
                   CheckContext& cx) {
  EnableParams& params = *out.params;
  const ProviderDef& p = cx.schema().providers[provider];
  std::array<const ast::Filter*, ast::kFilterKindNames.size()> first{};
  for (const ast::Filter& f : e.filters) {
    if (p.legacy) {
      cx.error(f.pos, "legacy provider " + quote_text(p.name) + " takes no filters");
      continue;
    }
    const auto k = static_cast<size_t>(f.kind);
    if (f.kind != ast::FilterKind::Payload && first[k] != nullptr) {
      cx.error(f.pos, "duplicate '" + std::string(ast::filter_kind_name(f.kind)) +
                          "' filter (first on line " + std::to_string(first[k]->pos.line) + ")");
      continue;
    }
    first[k] = &f;
    const size_t payloads = params.payload.size();
    check_filter(f, provider, params, cx);
    if (params.payload.size() > payloads) out.payload_pos.push_back(f.pos);
  }
}

// The last enable of each legacy provider wins; the earlier ones get a warning.
struct LegacyEnable {
  uint32_t session;
  SourcePos pos;
};

void warn_legacy_stealing(const std::vector<std::vector<LegacyEnable>>& legacy,
                          const CheckedScript& script, CheckContext& cx) {
  for (size_t p = 0; p < legacy.size(); ++p) {
    const std::vector<LegacyEnable>& list = legacy[p];
    if (list.size() < 2) continue;
    const LegacyEnable& last = list.back();
    const std::string& winner = script.sessions[last.session].name;
    for (size_t i = 0; i + 1 < list.size(); ++i) {
      cx.warning(list[i].pos, "legacy provider " + quote_text(script.schema.providers[p].name) +
                                  " is also enabled by session " + quote_text(winner) + " (line " +
                                  std::to_string(last.pos.line) +
                                  "); the last enabler wins, so session " +
                                  quote_text(script.sessions[list[i].session].name) +
                                  " gets none of its events");
    }
  }
}

// Resolves one `enable` of session `decl` (slot `index`) into decl.enables, or reports why not.
void check_enable(const ast::Enable& e, uint32_t index, SessionDecl& decl,
                  std::unordered_map<uint32_t, SourcePos>& enabled,
                  std::vector<std::vector<LegacyEnable>>& legacy, CheckContext& cx) {
  const Schema& schema = cx.schema();
  auto found = cx.provider_by_name.find(e.provider.text);
  if (found == cx.provider_by_name.end()) {
    auto names =
        names_of(schema.providers, [](const ProviderDef& p) { return std::string_view(p.name); });
    cx.error(e.provider.pos, "unknown provider " + quote_text(e.provider.text) +
                                 did_you_mean(e.provider.text, names));
    return;
  }
  const uint32_t provider = found->second;
  if (auto [it, fresh] = enabled.emplace(provider, e.provider.pos); !fresh) {
    cx.error(e.provider.pos, "provider " + quote_text(e.provider.text) +
                                 " is enabled twice in session " + quote_text(decl.name) +
                                 " (first on line " + std::to_string(it->second.line) + ")");
    return;
  }
  SessionDecl::Enable out{provider, std::make_shared<EnableParams>(), e.pos};
  check_options(e, *out.params, cx);
  warn_options(e, *out.params, schema.providers[provider], cx);
  check_filters(e, provider, out, cx);
  if (schema.providers[provider].legacy) legacy[provider].push_back({index, e.pos});
  decl.enables.push_back(std::move(out));
}

}  // namespace

void check_sessions(const std::vector<ast::Session>& sessions, CheckContext& cx) {
  CheckedScript& script = cx.out.script;
  std::unordered_map<std::string, SourcePos> first_pos;
  std::vector<std::vector<LegacyEnable>> legacy(script.schema.providers.size());
  for (const ast::Session& as : sessions) {
    const auto index = static_cast<uint32_t>(script.sessions.size());
    if (index == kMaxSessions) {
      cx.error(as.name.pos,
               "too many sessions: at most " + std::to_string(kMaxSessions) + " are supported");
    }
    if (auto [it, fresh] = first_pos.emplace(as.name.text, as.name.pos); !fresh) {
      cx.error(as.name.pos, "duplicate session " + quote_text(as.name.text) +
                                " (first declared on line " + std::to_string(it->second.line) +
                                ")");
    }
    SessionDecl decl;
    decl.name = as.name.text;
    decl.pos = as.pos;
    std::unordered_map<uint32_t, SourcePos> enabled;  // provider → first enable
    for (const ast::Enable& e : as.enables) check_enable(e, index, decl, enabled, legacy, cx);
    script.sessions.push_back(std::move(decl));
  }
  warn_legacy_stealing(legacy, script, cx);
}

}  // namespace pfc::internal
