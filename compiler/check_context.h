// compiler/check_context.h — state shared by the parts of the semantic checker
// (check.cc, check_schema.cc, check_session.cc, check_payload.cc): the output being built,
// name indexes over the schema, and diagnostic helpers. Internal to compiler/.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "compiler/check.h"
#include "grammar/ast.h"

namespace pfc::internal {

// Name indexes for one event of the schema being built.
struct EventIndex {
  std::unordered_map<std::string, uint32_t> fields;  // name → first field with that name
  std::vector<bool> field_ok;                        // false: type unknown (no follow-up errors)
  // The structures of a TraceLogging event by path ("Outer.Inner") → their direct members'
  // names. A member's field is named by its path (EventDef::fields, "Outer.Inner.X").
  std::unordered_map<std::string, std::vector<std::string>> structs;
  std::vector<uint32_t> ast_field;  // per EventDef field: its index in ast::Event::fields
};

// Name indexes for one provider; parallel to Schema::providers.
struct ProviderIndex {
  std::unordered_map<std::string, uint32_t> events;  // name → first event with that name
  std::unordered_map<uint32_t, uint32_t> by_id;      // (id << 8 | version) → first event
  std::vector<EventIndex> event_index;               // parallel to ProviderDef::events
  SourcePos pos;
};

struct CheckContext {
  CheckOutput& out;
  std::vector<ProviderIndex> providers;
  std::unordered_map<std::string, uint32_t> provider_by_name;  // first provider of a name
  const SourceFile* source = nullptr;                          // the script, when known

  Schema& schema() { return out.script.schema; }
  void error(SourcePos pos, std::string message);
  void warning(SourcePos pos, std::string message);
};

// "'what' value V is out of range (0..max)" when `v` is negative or above `max`.
bool check_unsigned(CheckContext& cx, const ast::Int& v, uint64_t max, std::string_view what);
// The signed text of an integer literal ("-7", "42").
std::string int_literal_text(const ast::Int& v);
// Names of the candidates, for suggestions.
template <typename T, typename F>
std::vector<std::string_view> names_of(const std::vector<T>& items, F name) {
  std::vector<std::string_view> out;
  out.reserve(items.size());
  for (const T& item : items) out.push_back(name(item));
  return out;
}

// Builds schema.providers and the indexes; reports every schema error.
void check_providers(const std::vector<ast::Provider>& providers, CheckContext& cx);
// Adds the providers of imported manifests to the schema and the indexes; reports load
// errors and name/GUID clashes at the imports.
void add_imported_providers(const std::vector<ManifestImport>& imports, CheckContext& cx);
// Builds the sessions' EnableParams; reports every session, option and filter error.
void check_sessions(const std::vector<ast::Session>& sessions, CheckContext& cx);
// The position of byte `decoded_offset` of a string literal's value (its escapes resolved)
// whose opening quote is at `quote`; `quote` itself without cx.source (check_literal.cc).
SourcePos string_char_pos(const CheckContext& cx, SourcePos quote, size_t decoded_offset);
// The position of byte `offset` of a name (ast::Name::text) that starts at `name`: bare
// or quoted (check_literal.cc).
SourcePos name_char_pos(const CheckContext& cx, SourcePos name, size_t offset);
// The dead-filter warnings (check_dead.cc), for a script without errors.
void warn_dead_filters(CheckContext& cx);
// Resolves one `payload` filter of an enable of provider `provider` into params.payload.
void check_payload_filter(const ast::Filter& filter, uint32_t provider, EnableParams& params,
                          CheckContext& cx);

}  // namespace pfc::internal
