// runtime/manifest_texts.cc — what a manifest says for TDH decoding beyond the schema:
// the string table, the display names of levels, opcodes, tasks, keywords and channels,
// value and bit maps, and each template field's outType and map (docs/etw.md
// "TDH decoding").
#include "base/ascii.h"
#include "runtime/manifest_parser.h"

namespace pfc::internal {
namespace {

// The elements of `parent` in the manifest namespace called `local`.
template <class Fn>
void each(pugi::xml_node parent, const char* local, Fn&& fn) {
  for (pugi::xml_node n : parent.children()) {
    if (is_element(n, kEventsNs, local)) fn(n);
  }
}

}  // namespace

void Parser::read_strings(pugi::xml_node root) {
  strings_.clear();
  for (pugi::xml_node loc : root.children()) {
    if (!is_element(loc, kEventsNs, "localization")) continue;
    for (pugi::xml_node res : loc.children()) {
      if (!is_element(res, kEventsNs, "resources")) continue;
      each(res, "stringTable", [&](pugi::xml_node table) {
        each(table, "string", [&](pugi::xml_node str) {
          strings_.emplace(str.attribute("id").value(), str.attribute("value").value());
        });
      });
      return;  // the first <resources> only
    }
  }
}

std::string Parser::message_of(pugi::xml_node at) const {
  const std::string_view text = trim_ascii_space(at.attribute("message").value());
  constexpr std::string_view kOpen = "$(string.";
  if (!text.starts_with(kOpen) || !text.ends_with(")")) return std::string(text);
  const std::string_view id = text.substr(kOpen.size(), text.size() - kOpen.size() - 1);
  const auto found = strings_.find(id);
  return found == strings_.end() ? std::string() : found->second;
}

std::string Parser::display_name(pugi::xml_node at) const {
  std::string text = message_of(at);
  return text.empty() ? std::string(at.attribute("name").value()) : text;
}

void Parser::collect_names(pugi::xml_node p, const Tables& t, ManifestProviderInfo& out) const {
  auto add = [&](pugi::xml_node list, const char* item, const NameMap& values,
                 std::vector<ManifestName>& names, int32_t task) {
    each(list, item, [&](pugi::xml_node n) {
      const auto v = values.find(std::string_view(n.attribute("name").value()));
      if (v != values.end()) names.push_back({v->second, display_name(n), task});
    });
  };
  for (pugi::xml_node list : p.children()) {
    if (is_element(list, kEventsNs, "levels")) add(list, "level", t.levels, out.level_names, -1);
    if (is_element(list, kEventsNs, "opcodes"))
      add(list, "opcode", t.opcodes, out.opcode_names, -1);
    if (is_element(list, kEventsNs, "keywords"))
      add(list, "keyword", t.keywords, out.keyword_names, -1);
    if (is_element(list, kEventsNs, "channels")) {
      add(list, "channel", t.channels, out.channel_names, -1);
      add(list, "importChannel", t.channels, out.channel_names, -1);
    }
    if (!is_element(list, kEventsNs, "tasks")) continue;
    add(list, "task", t.tasks, out.task_names, -1);
    each(list, "task", [&](pugi::xml_node task) {
      const std::string_view name = task.attribute("name").value();
      const auto value = t.tasks.find(name);
      const auto scoped = t.task_opcodes.find(name);
      if (value == t.tasks.end() || scoped == t.task_opcodes.end()) return;
      each(task, "opcodes", [&](pugi::xml_node ops) {
        add(ops, "opcode", scoped->second, out.opcode_names, static_cast<int32_t>(value->second));
      });
    });
  }
}

// <maps><valueMap name=…><map value=… message=…/>…</valueMap><bitMap …>…</maps>.
bool Parser::collect_maps(pugi::xml_node p, ManifestProviderInfo& out) {
  bool ok = true;
  each(p, "maps", [&](pugi::xml_node maps) {
    for (pugi::xml_node m : maps.children()) {
      const bool bitmap = is_element(m, kEventsNs, "bitMap");
      if (!ok || (!bitmap && !is_element(m, kEventsNs, "valueMap"))) continue;
      ManifestMap map{m.attribute("name").value(), bitmap, {}};
      if (map.name.empty()) ok = fail(m, "map without a name");
      each(m, "map", [&](pugi::xml_node entry) {
        const std::optional<uint64_t> v = parse_number(entry.attribute("value").value());
        if (!v || *v > 0xFFFFFFFF) {
          ok = ok && fail(entry, "map " + quote_text(map.name) + ": value " +
                                     quote_text(entry.attribute("value").value()) +
                                     " is not a number in 0..4294967295");
          return;
        }
        map.entries.emplace_back(static_cast<uint32_t>(*v), message_of(entry));
      });
      out.maps.push_back(std::move(map));
    }
  });
  return ok;
}

bool Parser::parse_format(pugi::xml_node d, ManifestFieldFormat& out) {
  out.map = trim_ascii_space(d.attribute("map").value());
  const std::string_view text = trim_ascii_space(d.attribute("outType").value());
  if (text.empty()) return true;
  const std::optional<uint16_t> v = out_type_value(split_qname(text).local);
  if (!v) {
    return fail(d, "unknown outType " + quote_text(text) + " of data " +
                       quote_text(d.attribute("name").value()) +
                       " (expected a winmeta name such as xs:unsignedInt or win:HexInt32)");
  }
  out.out_type = *v;
  return true;
}

}  // namespace pfc::internal
