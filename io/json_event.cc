// io/json_event.cc — JSON event objects → InputEvent (io/json_event.h).
#include "io/json_event.h"

#include <array>
#include <optional>

#include "base/integer_text.h"
#include "io/event_fields.h"

namespace pfc::io {
namespace {

using simdjson::dom::element;
using simdjson::dom::element_type;

enum Key : uint8_t {
  kProvider,
  kEvent,
  kId,
  kVersion,
  kLevel,
  kKeyword,
  kOpcode,
  kTask,
  kChannel,
  kPid,
  kTid,
  kExe,
  kPackageId,
  kAppId,
  kFields,
  kPayloadHex,
  kExclude,
  kTs,
  kCpu,
  kGroup,
  kKeyCount
};
constexpr std::array<std::string_view, kKeyCount> kKeys = {
    "provider", "event",       "id",      "version", "level", "keyword",    "opcode",
    "task",     "channel",     "pid",     "tid",     "exe",   "package_id", "app_id",
    "fields",   "payload_hex", "exclude", "ts",      "cpu",   "group"};  // ts, cpu, group:
// written by `pfc trace show`, accepted and not used

// The members of one event object by key; absent ones are null.
struct Members {
  std::array<std::optional<element>, kKeyCount> at;
  const std::optional<element>& operator[](Key k) const { return at[k]; }
};

std::unexpected<JsonEventError> fail(Key key, std::string message) {
  return std::unexpected(JsonEventError{std::string(kKeys[key]), 0, std::move(message)});
}
std::unexpected<JsonEventError> fail_whole(std::string message) {
  return std::unexpected(JsonEventError{"", 0, std::move(message)});
}

using Status = std::expected<void, JsonEventError>;

// The Key called `name`, or kKeyCount (dispatch on the length first: this runs for every
// member of every event).
size_t key_index(std::string_view name) {
  const auto is = [&](Key k) { return name == kKeys[k]; };
  switch (name.size()) {
    case 2: return is(kId) ? kId : is(kTs) ? kTs : kKeyCount;
    case 3:
      return is(kPid) ? kPid : is(kTid) ? kTid : is(kExe) ? kExe : is(kCpu) ? kCpu : kKeyCount;
    case 4: return is(kTask) ? kTask : kKeyCount;
    case 5: return is(kEvent) ? kEvent : is(kLevel) ? kLevel : is(kGroup) ? kGroup : kKeyCount;
    case 6: return is(kFields) ? kFields : is(kOpcode) ? kOpcode : is(kAppId) ? kAppId : kKeyCount;
    case 7:
      return is(kKeyword)   ? kKeyword
             : is(kVersion) ? kVersion
             : is(kChannel) ? kChannel
             : is(kExclude) ? kExclude
                            : kKeyCount;
    case 8: return is(kProvider) ? kProvider : kKeyCount;
    case 10: return is(kPackageId) ? kPackageId : kKeyCount;
    case 11: return is(kPayloadHex) ? kPayloadHex : kKeyCount;
    default: return kKeyCount;
  }
}

// Fills `m` (all members absent on entry) from the object's members.
Status collect(simdjson::dom::object obj, Members& m) {
  for (simdjson::dom::key_value_pair kv : obj) {
    const size_t k = key_index(kv.key);
    if (k == kKeyCount)
      return std::unexpected(
          JsonEventError{std::string(kv.key), 0, "unknown key \"" + std::string(kv.key) + "\""});
    if (m.at[k])
      return std::unexpected(
          JsonEventError{std::string(kv.key), 1, "duplicate key \"" + std::string(kv.key) + "\""});
    m.at[k] = kv.value;
  }
  return {};
}

std::optional<uint64_t> as_uint(element v, uint64_t max) {
  uint64_t u = 0;
  const element_type type = v.type();
  if (type == element_type::UINT64) {
    u = v.get_uint64().value_unsafe();
  } else if (type == element_type::INT64 && v.get_int64().value_unsafe() >= 0) {
    u = uint64_t(v.get_int64().value_unsafe());
  } else {
    return std::nullopt;
  }
  if (u > max) return std::nullopt;
  return u;
}

// A keyword: a JSON number or a "0x…" string of 1-16 hex digits.
std::optional<uint64_t> as_keyword(element v) {
  if (v.type() != element_type::STRING) return as_uint(v, ~uint64_t{0});
  const std::string_view s = v.get_string();
  if (s.size() < 3 || s.size() > 18 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
    return std::nullopt;
  const std::optional<ParsedUnsigned> n = parse_unsigned_text(s);  // ≤ 16 digits: no overflow
  if (!n) return std::nullopt;
  return n->value;
}

// Reads optional integer member `key` (≤ max) into `out`.
Status read_uint(const Members& m, Key key, uint64_t max, auto& out) {
  if (!m[key]) return {};
  const auto v = as_uint(*m[key], max);
  if (!v)
    return fail(key, "\"" + std::string(kKeys[key]) + "\" must be an integer from 0 to " +
                         std::to_string(max));
  out = static_cast<std::remove_reference_t<decltype(out)>>(*v);
  return {};
}

Status read_string(const Members& m, Key key, std::string& out) {
  out.clear();
  if (!m[key]) return {};
  if (m[key]->type() != element_type::STRING)
    return fail(key, "\"" + std::string(kKeys[key]) + "\" must be a string");
  out = std::string_view(m[key]->get_string());
  return {};
}

std::expected<uint32_t, JsonEventError> resolve_provider(const Members& m, const Schema& schema) {
  if (!m[kProvider]) return fail_whole("missing \"provider\"");
  if (m[kProvider]->type() != element_type::STRING)
    return fail(kProvider, "\"provider\" must be a string");
  const std::string_view name = m[kProvider]->get_string();
  const ProviderDef* p = schema.find_provider(name);
  if (p == nullptr && !name.empty() && name[0] == '{') {
    if (const auto guid = Guid::parse(name)) p = schema.find_provider(*guid);
  }
  if (p == nullptr) return fail(kProvider, "unknown provider '" + std::string(name) + "'");
  return static_cast<uint32_t>(p - schema.providers.data());
}

// The event named by "id"/"version"; null (with the descriptor's id and version set) for an
// id the schema does not declare, which only "payload_hex" may give.
std::expected<const EventDef*, JsonEventError> resolve_by_id(const Members& m,
                                                             const ProviderDef& provider,
                                                             EventDescriptor& desc) {
  if (auto r = read_uint(m, kId, 0xFFFF, desc.id); !r) return std::unexpected(r.error());
  if (auto r = read_uint(m, kVersion, 0xFF, desc.version); !r) return std::unexpected(r.error());
  const EventDef* def = provider.find_event(desc.id, desc.version);
  if (def == nullptr && !m[kPayloadHex])
    return fail(kId, "provider '" + provider.name + "' has no event with id " +
                         std::to_string(desc.id) + " version " + std::to_string(desc.version));
  return def;
}

std::expected<const EventDef*, JsonEventError> resolve_event(const Members& m,
                                                             const ProviderDef& provider,
                                                             EventDescriptor& desc) {
  if (!m[kEvent] && !m[kId]) return fail_whole("missing \"event\" (or \"id\")");
  if (!m[kEvent]) return resolve_by_id(m, provider, desc);
  if (m[kEvent]->type() != element_type::STRING) return fail(kEvent, "\"event\" must be a string");
  const std::string_view name = m[kEvent]->get_string();
  const EventDef* def = provider.find_event(name);
  if (def == nullptr)
    return fail(kEvent,
                "provider '" + provider.name + "' has no event '" + std::string(name) + "'");
  if (m[kId] || m[kVersion]) {
    auto by_id = resolve_by_id(m, provider, desc);
    if (!by_id) return by_id;
    if (*by_id != def)
      return fail(kId, "\"id\"/\"version\" do not match event '" + std::string(name) + "'");
  }
  return def;
}

// (Sequential ifs, not a loop over an initializer_list: this runs for every event, and the
// list would evaluate and copy every result.)
Status read_descriptor(const Members& m, EventDescriptor& d) {
  if (auto r = read_uint(m, kLevel, 0xFF, d.level); !r) return r;
  if (auto r = read_uint(m, kOpcode, 0xFF, d.opcode); !r) return r;
  if (auto r = read_uint(m, kTask, 0xFFFF, d.task); !r) return r;
  if (auto r = read_uint(m, kChannel, 0xFF, d.channel); !r) return r;
  if (m[kKeyword]) {
    const auto kw = as_keyword(*m[kKeyword]);
    if (!kw) return fail(kKeyword, "\"keyword\" must be an integer or a \"0x…\" hex string");
    d.keyword = *kw;
  }
  return {};
}

Status read_scope(const Members& m, Event& e) {
  e.pid = e.tid = 0;
  if (auto r = read_uint(m, kPid, 0xFFFFFFFF, e.pid); !r) return r;
  if (auto r = read_uint(m, kTid, 0xFFFFFFFF, e.tid); !r) return r;
  if (auto r = read_string(m, kExe, e.exe); !r) return r;
  if (auto r = read_string(m, kPackageId, e.package_id); !r) return r;
  return read_string(m, kAppId, e.app_id);
}

Status read_payload(const Members& m, const EventDef* def, Event& e) {
  if (m[kFields] && m[kPayloadHex])
    return fail(kPayloadHex, "give \"fields\" or \"payload_hex\", not both");
  if (m[kPayloadHex]) {
    if (m[kPayloadHex]->type() != element_type::STRING)
      return fail(kPayloadHex, "\"payload_hex\" must be a string");
    if (auto r = decode_payload_hex(m[kPayloadHex]->get_string(), e.payload); !r)
      return fail(kPayloadHex, r.error());
    return {};
  }
  if (!m[kFields] && !def->fields.empty())
    return fail_whole("missing \"fields\" (or \"payload_hex\")");
  e.payload.clear();
  if (!m[kFields]) return {};
  if (m[kFields]->type() != element_type::OBJECT)
    return fail(kFields, "\"fields\" must be an object");
  if (auto r = encode_json_fields(*def, m[kFields]->get_object(), e.payload); !r)
    return fail(kFields, r.error());
  return {};
}

std::expected<uint64_t, JsonEventError> read_exclude(const Members& m, const SourceSchema& script) {
  if (!m[kExclude]) return uint64_t{0};
  const auto bad = [] { return fail(kExclude, "\"exclude\" must be an array of session names"); };
  if (m[kExclude]->type() != element_type::ARRAY) return bad();
  uint64_t mask = 0;
  for (element name : m[kExclude]->get_array()) {
    if (name.type() != element_type::STRING) return bad();
    const std::string_view s = name.get_string();
    size_t slot = 0;
    while (slot < script.sessions.size() && script.sessions[slot] != s) ++slot;
    if (slot == script.sessions.size() || slot >= 64)
      return fail(kExclude, "unknown session '" + std::string(s) + "' in \"exclude\"");
    mask |= uint64_t{1} << slot;
  }
  return mask;
}

}  // namespace

std::expected<void, JsonEventError> read_json_event(element value, const SourceSchema& script,
                                                    InputEvent& out) {
  if (value.type() != element_type::OBJECT) return fail_whole("an event must be a JSON object");
  Members members;
  if (auto c = collect(value.get_object(), members); !c) return c;
  const Members* m = &members;
  auto provider = resolve_provider(*m, script.schema);
  if (!provider) return std::unexpected(provider.error());
  out.provider = *provider;
  Event& e = out.event;
  e.desc = EventDescriptor{};
  auto def = resolve_event(*m, script.schema.providers[out.provider], e.desc);
  if (!def) return std::unexpected(def.error());
  out.def = *def;
  if (out.def != nullptr) e.desc = out.def->desc;
  e.name = out.def != nullptr ? out.def->name : std::string();
  if (auto r = read_descriptor(*m, e.desc); !r) return r;
  if (auto r = read_scope(*m, e); !r) return r;
  if (auto r = read_payload(*m, out.def, e); !r) return r;
  auto exclude = read_exclude(*m, script);
  if (!exclude) return std::unexpected(exclude.error());
  out.exclude = *exclude;
  return {};
}

}  // namespace pfc::io
