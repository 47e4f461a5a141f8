// cli/events_json.cc — JSON Lines event reader (docs/cli.md "The events file") with nlohmann::json: it is
// header-only, already a dependency, reports the byte position of syntax errors (which
// becomes the diagnostic's column) and its speed is ample for hand-written event files.
#include "cli/events_json.h"

#include <array>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "base/ascii.h"
#include "base/integer_text.h"
#include "cli/event_fields.h"

namespace pfc::cli {
namespace {

using nlohmann::json;

constexpr std::array<std::string_view, 17> kKeys = {
    "provider", "event", "id", "version", "level", "keyword", "opcode", "task", "channel",
    "pid", "tid", "exe", "package_id", "app_id", "fields", "payload_hex", "exclude"};

// A problem with one member of an event line; `key` places the caret.
struct LineError {
  std::string key;
  std::string message;
};
template <typename T>
using LineResult = std::expected<T, LineError>;

std::unexpected<LineError> fail(std::string key, std::string message) {
  return std::unexpected(LineError{std::move(key), std::move(message)});
}

std::optional<uint64_t> as_uint(const json& v, uint64_t max) {
  if (v.is_number_unsigned()) {
    const auto u = v.get<uint64_t>();
    if (u <= max) return u;
  }
  return std::nullopt;
}

// A keyword: a JSON number or a "0x…" string of 1-16 hex digits.
std::optional<uint64_t> as_keyword(const json& v) {
  if (v.is_number()) return as_uint(v, ~uint64_t{0});
  if (!v.is_string()) return std::nullopt;
  const std::string& s = v.get_ref<const std::string&>();
  if (s.size() < 3 || s.size() > 18 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
    return std::nullopt;
  const std::optional<ParsedUnsigned> n = parse_unsigned_text(s);  // ≤ 16 digits: no overflow
  if (!n) return std::nullopt;
  return n->value;
}

// Reads optional integer member `key` (≤ max) into `out`.
LineResult<void> read_uint(const json& obj, const char* key, uint64_t max, auto& out) {
  const auto it = obj.find(key);
  if (it == obj.end()) return {};
  const auto v = as_uint(*it, max);
  if (!v) return fail(key, "\"" + std::string(key) + "\" must be an integer from 0 to " +
                               std::to_string(max));
  out = static_cast<std::remove_reference_t<decltype(out)>>(*v);
  return {};
}

LineResult<void> read_string(const json& obj, const char* key, std::string& out) {
  const auto it = obj.find(key);
  if (it == obj.end()) return {};
  if (!it->is_string()) return fail(key, "\"" + std::string(key) + "\" must be a string");
  out = it->get<std::string>();
  return {};
}

LineResult<uint32_t> resolve_provider(const json& obj, const Schema& schema) {
  const auto it = obj.find("provider");
  if (it == obj.end()) return fail("", "missing \"provider\"");
  if (!it->is_string()) return fail("provider", "\"provider\" must be a string");
  const std::string& name = it->get_ref<const std::string&>();
  const ProviderDef* p = schema.find_provider(name);
  if (p == nullptr && !name.empty() && name[0] == '{') {
    if (const auto guid = Guid::parse(name)) p = schema.find_provider(*guid);
  }
  if (p == nullptr) return fail("provider", "unknown provider '" + name + "'");
  return static_cast<uint32_t>(p - schema.providers.data());
}

LineResult<const EventDef*> resolve_by_id(const json& obj, const ProviderDef& provider) {
  uint16_t id = 0;
  uint8_t version = 0;
  if (auto r = read_uint(obj, "id", 0xFFFF, id); !r) return std::unexpected(r.error());
  if (auto r = read_uint(obj, "version", 0xFF, version); !r) return std::unexpected(r.error());
  const EventDef* def = provider.find_event(id, version);
  if (def == nullptr)
    return fail("id", "provider '" + provider.name + "' has no event with id " +
                          std::to_string(id) + " version " + std::to_string(version));
  return def;
}

LineResult<const EventDef*> resolve_event(const json& obj, const ProviderDef& provider) {
  const auto it = obj.find("event");
  const bool has_id = obj.contains("id") || obj.contains("version");
  if (it == obj.end() && !obj.contains("id")) return fail("", "missing \"event\" (or \"id\")");
  if (it == obj.end()) return resolve_by_id(obj, provider);
  if (!it->is_string()) return fail("event", "\"event\" must be a string");
  const std::string& name = it->get_ref<const std::string&>();
  const EventDef* def = provider.find_event(name);
  if (def == nullptr)
    return fail("event", "provider '" + provider.name + "' has no event '" + name + "'");
  if (has_id) {
    auto by_id = resolve_by_id(obj, provider);
    if (!by_id) return by_id;
    if (*by_id != def) return fail("id", "\"id\"/\"version\" do not match event '" + name + "'");
  }
  return def;
}

LineResult<void> read_descriptor(const json& obj, EventDescriptor& d) {
  for (auto r : {read_uint(obj, "level", 0xFF, d.level), read_uint(obj, "opcode", 0xFF, d.opcode),
                 read_uint(obj, "task", 0xFFFF, d.task),
                 read_uint(obj, "channel", 0xFF, d.channel)})
    if (!r) return r;
  if (const auto it = obj.find("keyword"); it != obj.end()) {
    const auto kw = as_keyword(*it);
    if (!kw) return fail("keyword", "\"keyword\" must be an integer or a \"0x…\" hex string");
    d.keyword = *kw;
  }
  return {};
}

LineResult<void> read_scope(const json& obj, Event& e) {
  for (auto r : {read_uint(obj, "pid", 0xFFFFFFFF, e.pid), read_uint(obj, "tid", 0xFFFFFFFF, e.tid),
                 read_string(obj, "exe", e.exe), read_string(obj, "package_id", e.package_id),
                 read_string(obj, "app_id", e.app_id)})
    if (!r) return r;
  return {};
}

LineResult<void> read_payload(const json& obj, const EventDef& def, Event& e) {
  const auto fields = obj.find("fields");
  const auto hex = obj.find("payload_hex");
  if (fields != obj.end() && hex != obj.end())
    return fail("payload_hex", "give \"fields\" or \"payload_hex\", not both");
  if (hex != obj.end()) {
    if (!hex->is_string()) return fail("payload_hex", "\"payload_hex\" must be a string");
    auto bytes = decode_payload_hex(hex->get<std::string>());
    if (!bytes) return fail("payload_hex", bytes.error());
    e.payload = std::move(*bytes);
    return {};
  }
  if (fields == obj.end() && !def.fields.empty())
    return fail("", "missing \"fields\" (or \"payload_hex\")");
  const json empty = json::object();
  const json& values = fields == obj.end() ? empty : *fields;
  if (!values.is_object()) return fail("fields", "\"fields\" must be an object");
  auto bytes = encode_json_fields(def, values);
  if (!bytes) return fail("fields", bytes.error());
  e.payload = std::move(*bytes);
  return {};
}

LineResult<uint64_t> read_exclude(const json& obj, const CheckedScript& script) {
  const auto it = obj.find("exclude");
  if (it == obj.end()) return uint64_t{0};
  if (!it->is_array()) return fail("exclude", "\"exclude\" must be an array of session names");
  uint64_t mask = 0;
  for (const json& name : *it) {
    if (!name.is_string()) return fail("exclude", "\"exclude\" must be an array of session names");
    const std::string& s = name.get_ref<const std::string&>();
    size_t slot = 0;
    while (slot < script.sessions.size() && script.sessions[slot].name != s) ++slot;
    if (slot == script.sessions.size() || slot >= 64)
      return fail("exclude", "unknown session '" + s + "' in \"exclude\"");
    mask |= uint64_t{1} << slot;
  }
  return mask;
}

LineResult<InputEvent> parse_event(const json& obj, const CheckedScript& script) {
  if (!obj.is_object()) return fail("", "an event must be a JSON object");
  for (const auto& [key, value] : obj.items())
    if (std::find(kKeys.begin(), kKeys.end(), key) == kKeys.end())
      return fail(key, "unknown key \"" + key + "\"");
  InputEvent in;
  auto provider = resolve_provider(obj, script.schema);
  if (!provider) return std::unexpected(provider.error());
  in.provider = *provider;
  auto def = resolve_event(obj, script.schema.providers[in.provider]);
  if (!def) return std::unexpected(def.error());
  in.event.desc = (*def)->desc;
  in.event.name = (*def)->name;
  for (auto r : {read_descriptor(obj, in.event.desc), read_scope(obj, in.event),
                 read_payload(obj, **def, in.event)})
    if (!r) return std::unexpected(r.error());
  auto exclude = read_exclude(obj, script);
  if (!exclude) return std::unexpected(exclude.error());
  in.exclude = *exclude;
  return in;
}

// The caret column for a member: where `"key"` appears in the line, else the line start.
size_t key_offset(std::string_view line, const std::string& key) {
  if (key.empty()) return 0;
  const size_t at = line.find('"' + key + '"');
  return at == std::string_view::npos ? 0 : at;
}

// "[json.exception.parse_error.101] parse error at line 1, column 6: syntax error …" →
// "syntax error …"; "[json.exception.out_of_range.406] number overflow …" → "number
// overflow …". Control bytes and non-ASCII bytes (the parser quotes what it read, which
// may be invalid UTF-8) become '?' so the diagnostic stays one clean line.
std::string json_error_text(const std::string& what) {
  std::string text = what;
  if (text.rfind("[json.exception.", 0) == 0) {
    const size_t close = text.find("] ");
    if (close != std::string::npos) text = text.substr(close + 2);
  }
  if (text.rfind("parse error", 0) == 0) {
    const size_t colon = text.find(": ");
    if (colon != std::string::npos) text = text.substr(colon + 2);
  }
  for (char& c : text)
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7F) c = '?';
  return text;
}

Diagnostic error_at(const SourceFile& file, size_t offset, std::string message) {
  return Diagnostic{Severity::Error, file.position(offset), std::move(message)};
}

bool is_blank(std::string_view line) {
  return trim_ascii_space(line).empty();
}

// Parses one non-blank line starting at byte `start` of the file.
void read_line(const SourceFile& file, const CheckedScript& script, size_t start,
               std::string_view line, EventsInput& out) {
  json obj;
  try {
    obj = json::parse(line);
  } catch (const json::parse_error& e) {
    const size_t at = std::min(e.byte == 0 ? 0 : e.byte - 1, line.size());
    out.diagnostics.push_back(
        error_at(file, start + at, "malformed JSON: " + json_error_text(e.what())));
    return;
  } catch (const json::exception& e) {
    out.diagnostics.push_back(error_at(file, start, "malformed JSON: " + json_error_text(e.what())));
    return;
  }
  auto event = parse_event(obj, script);
  if (!event) {
    out.diagnostics.push_back(
        error_at(file, start + key_offset(line, event.error().key), event.error().message));
    return;
  }
  event->line = file.position(start).line;
  out.events.push_back(std::move(*event));
}

}  // namespace

EventsInput read_events(const SourceFile& file, const CheckedScript& script) {
  EventsInput out;
  const std::string& text = file.text();
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string_view line(text.data() + start, end - start);
    if (!is_blank(line)) read_line(file, script, start, line, out);
    start = end + 1;
  }
  return out;
}

}  // namespace pfc::cli
