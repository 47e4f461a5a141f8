// runtime/manifest_parser.h — the manifest parser's state, shared by manifest.cc (document,
// providers, name tables, templates) and manifest_events.cc (data fields and events).
// Internal to runtime/; the entry point is runtime/manifest.h.
#pragma once

#include <pugixml.hpp>

#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "base/quote.h"
#include "runtime/manifest.h"
#include "runtime/manifest_names.h"

namespace pfc::internal {

using NameMap = std::map<std::string, uint64_t, std::less<>>;

struct Template {
  std::vector<FieldDef> fields;
  std::vector<ManifestFieldFormat> formats;  // parallel to fields
  std::vector<pugi::xml_node> fields_at;     // each field's <data> element
  std::string stopped;                       // why the fields end early ("" = they do not)
  pugi::xml_node stopped_at;
};

// What one provider defines; keys are the `name` (or chid / tid) attributes as written.
struct Tables {
  NameMap levels, opcodes, tasks, keywords, channels;
  std::map<std::string, NameMap, std::less<>> task_opcodes;  // task name → its opcodes
  std::map<std::string, Template, std::less<>> templates;
};

// Parses one document. Every parse_* returns false after fail() recorded the first error.
class Parser {
 public:
  // `info`, when given, receives what ManifestProviderInfo describes.
  explicit Parser(std::string_view text, std::vector<ManifestProviderInfo>* info = nullptr)
      : text_(text), info_(info) {}

  std::expected<std::vector<ProviderDef>, ManifestError> run(const pugi::xml_document& doc);

 private:
  bool fail(pugi::xml_node at, std::string message);
  bool parse_provider(pugi::xml_node p, ProviderDef& out);
  bool parse_tables(pugi::xml_node p, Tables& t);
  bool parse_named(pugi::xml_node list, const char* item, const char* value_attr, uint64_t max,
                   NameMap& out);
  bool parse_tasks(pugi::xml_node list, Tables& t);
  bool parse_channels(pugi::xml_node list, Tables& t);
  bool parse_template(pugi::xml_node tpl, Template& out);
  ManifestPosition position(pugi::xml_node at) const;
  // Records the symbols of the provider's levels, opcodes, tasks, keywords and channels.
  void collect_symbols(pugi::xml_node p, const Tables& t, ManifestProviderInfo& out) const;
  void symbols_of(pugi::xml_node list, const char* item, const NameMap& values,
                  std::vector<ManifestSymbol>& out) const;
  // manifest_texts.cc
  // Reads the string table of the first <localization>/<resources>.
  void read_strings(pugi::xml_node root);
  // The display text of a `message` attribute: $(string.ID) resolved ("" when the table
  // has no such string), other text as written.
  std::string message_of(pugi::xml_node at) const;
  // The message, else the name attribute, of `at`.
  std::string display_name(pugi::xml_node at) const;
  // Records the display names and maps of the provider (ManifestProviderInfo).
  void collect_names(pugi::xml_node p, const Tables& t, ManifestProviderInfo& out) const;
  bool collect_maps(pugi::xml_node p, ManifestProviderInfo& out);
  // The format of the <data> element `d` (its outType and map).
  bool parse_format(pugi::xml_node d, ManifestFieldFormat& out);
  // manifest_events.cc
  // Appends one field of the template that parse_template is reading.
  bool parse_data(pugi::xml_node d, std::vector<FieldDef>& fields);
  bool parse_extent(pugi::xml_node d, const char* attr, const std::vector<FieldDef>& fields,
                    Extent& out);
  bool parse_event(pugi::xml_node e, const Tables& t, ProviderDef& p);
  bool parse_descriptor(pugi::xml_node e, const Tables& t, EventDescriptor& d);
  std::optional<uint64_t> resolve(pugi::xml_node at, const char* attr, NameKind kind,
                                  const NameMap& own, const NameMap* scoped);

  std::string_view text_;
  std::optional<ManifestError> error_;
  std::vector<ManifestProviderInfo>* info_ = nullptr;
  // The current provider's events by name and by (id << 8 | version), for duplicates.
  std::unordered_set<std::string> event_names_;
  std::unordered_map<uint32_t, std::string> event_ids_;
  // The current template's fields by name (index into its field list).
  std::unordered_map<std::string, uint32_t> template_fields_;
  size_t fields_total_ = 0;  // over all events so far, at most kMaxManifestFields
  std::map<std::string, std::string, std::less<>> strings_;  // string table: id → value
};

}  // namespace pfc::internal
