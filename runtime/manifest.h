// runtime/manifest.h — ETW instrumentation manifests (XML) → pfc::ProviderDef, the one
// schema source shared by script imports (compiler/frontend.cc) and the ETW API's TDH
// functions (etw/tdh*.cc). Pure functions over caller-owned text; no global state.
// Decisions (namespaces, winmeta names, what is not representable) are in docs/etw.md
// "Manifests".
#pragma once

#include <cstdint>
#include <expected>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pfc/schema.h"

namespace pfc {

// Why a manifest was rejected. `line`/`column` count from 1 (0 = unknown) in the text as
// given (UTF-16 input: in its UTF-8 conversion).
struct ManifestError {
  enum class Kind : uint8_t {
    Xml,      // not well-formed XML
    Content,  // well-formed, but not a valid instrumentation manifest
  };
  Kind kind = Kind::Content;
  uint32_t line = 0;
  uint32_t column = 0;
  std::string message;  // one line

  // "NAME:LINE:COL: MESSAGE" (or "NAME: MESSAGE" without a position).
  std::string to_string(std::string_view name) const;
};

// The largest manifest text parse_manifest accepts (docs/limits.md): the XML document is
// held in memory, about three times its size.
inline constexpr size_t kMaxManifestBytes = size_t{64} << 20;

// At most this many attributes on one element (namespace lookups scan them).
inline constexpr size_t kMaxManifestAttributes = 64;

// At most this many fields in all events of one manifest together: an event copies its
// template's fields, so without it a small manifest could describe billions of fields.
inline constexpr size_t kMaxManifestFields = size_t{1} << 20;

// "NAME is more than the limit of 64 MiB (kMaxManifestBytes)": the error for a larger one.
std::string manifest_size_error(std::string_view name);

// Parses the manifest text (UTF-8, or UTF-16 with a byte-order mark) into one ProviderDef
// per <provider>, in document order. Elements must be in the manifest namespace
// http://schemas.microsoft.com/win/2004/08/events (any prefix); QName values (inType,
// level, opcode, task, keywords) resolve their prefixes through the xmlns declarations in
// scope, and `win:` names must be in the winmeta namespace. Event names are the events'
// `symbol` attributes ("event_<id>" / "event_<id>_v<version>" without one). Text over
// kMaxManifestBytes and documents with a DOCTYPE (entity declarations) are rejected;
// entity references other than XML's five predefined ones are never expanded.
std::expected<std::vector<ProviderDef>, ManifestError> parse_manifest(std::string_view text);

// What a manifest declares beyond the schema, for generating mc.exe's header (`pfc mc`,
// docs/cli.md): symbols, template ids and where each element is. Positions as in
// ManifestError (0 = unknown).
struct ManifestPosition {
  uint32_t line = 0;
  uint32_t column = 0;
  int64_t offset = -1;  // byte offset in the parsed (UTF-8) text; -1 = unknown
};

// A level, opcode, task, keyword or channel that has a `symbol` attribute.
struct ManifestSymbol {
  std::string symbol;
  uint64_t value = 0;
  ManifestPosition at;
};

// How a template field is shown (TDH decoding, docs/etw.md "TDH decoding"): its outType
// as a TDH_OUTTYPE value (0 = none given: the in-type's default) and its `map` attribute.
struct ManifestFieldFormat {
  uint16_t out_type = 0;
  std::string map;  // "" = none
};

// The display name of a level, opcode, task, keyword or channel: its message string
// ($(string.ID) resolved in the first <resources>' string table), else its name.
struct ManifestName {
  uint64_t value = 0;
  std::string text;
  int32_t task = -1;  // opcodes declared inside a task: that task's value; else -1
};

// A <valueMap> or <bitMap>: entries in document order, texts resolved as ManifestName's.
struct ManifestMap {
  std::string name;
  bool bitmap = false;
  std::vector<std::pair<uint32_t, std::string>> entries;
};

struct ManifestTemplate {
  std::string tid;
  std::vector<FieldDef> fields;             // as events copy them
  std::vector<ManifestPosition> fields_at;  // each field's <data> element
  // The first <struct> or data element of an in-type pfc cannot lay out (fields ends
  // before it), with its description; empty when every element is in `fields`.
  std::string stopped;
  ManifestPosition stopped_at;
  std::vector<ManifestFieldFormat> formats;  // parallel to fields
};

struct ManifestEvent {
  std::string symbol;  // the `symbol` attribute ("" when absent)
  std::string tid;     // the `template` attribute ("" when none)
  ManifestPosition at;
  std::string message;  // the resolved `message` attribute ("" when none)
};

struct ManifestProviderInfo {
  std::string symbol;  // the provider's `symbol` attribute ("" when absent)
  ManifestPosition at;
  std::vector<ManifestSymbol> channels, levels, opcodes, tasks, keywords;  // document order
  std::vector<ManifestTemplate> templates;                                 // document order
  std::vector<ManifestEvent> events;  // parallel to ProviderDef::events
  // For TDH decoding: the provider's message, every level, opcode, task, keyword and
  // channel it declares with its display name, and its value and bit maps.
  std::string message;
  std::vector<ManifestName> level_names, opcode_names, task_names, keyword_names, channel_names;
  std::vector<ManifestMap> maps;
};

// parse_manifest, also filling `info` (one entry per provider, parallel to the result).
std::expected<std::vector<ProviderDef>, ManifestError> parse_manifest(
    std::string_view text, std::vector<ManifestProviderInfo>& info);

// The first manifest embedded as text in arbitrary bytes (an executable or library):
// from "<?xml" (when it directly precedes the root) or the root element's "<" to the end
// of the matching "</...instrumentationManifest>". nullopt when there is none.
std::optional<std::string_view> find_embedded_manifest(std::string_view bytes);

}  // namespace pfc
