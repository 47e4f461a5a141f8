// runtime/manifest.cc — instrumentation manifest XML → ProviderDef (manifest.h), with
// pugixml. One pass per provider: the name tables (levels, tasks, opcodes, keywords,
// channels, templates) first, then the events that reference them. Never recursive:
// only fixed paths of the document are visited.
#include "runtime/manifest.h"

#include <pugixml.hpp>

#include <algorithm>
#include <array>
#include <set>
#include <unordered_set>

#include "base/ascii.h"
#include "runtime/manifest_names.h"
#include "runtime/manifest_parser.h"

namespace pfc {
namespace internal {

bool Parser::fail(pugi::xml_node at, std::string message) {
  if (error_) return false;  // keep the first
  ManifestError e;
  e.kind = ManifestError::Kind::Content;
  e.message = std::move(message);
  const ptrdiff_t offset = at ? at.offset_debug() : -1;
  if (offset >= 0) internal::line_column(text_, static_cast<size_t>(offset), e.line, e.column);
  error_ = std::move(e);
  return false;
}

namespace {

// The first node breaking the document limits: a DOCTYPE (its entity declarations are never
// expanded, docs/limits.md) or an element with more than kMaxManifestAttributes
// attributes (the namespace lookups scan attributes). One pass, no recursion.
std::optional<std::pair<pugi::xml_node, std::string>> document_limits(
    const pugi::xml_document& doc) {
  pugi::xml_node n = doc.first_child();
  while (n) {
    if (n.type() == pugi::node_doctype)
      return std::pair{
          n, std::string("DOCTYPE declarations are not supported (no entities are expanded)")};
    if (n.type() == pugi::node_element) {
      size_t attributes = 0;
      for (pugi::xml_attribute a = n.first_attribute(); a; a = a.next_attribute()) ++attributes;
      if (attributes > kMaxManifestAttributes)
        return std::pair{n, "element " + quote_text(n.name()) + " has more than " +
                                std::to_string(kMaxManifestAttributes) + " attributes"};
    }
    if (n.first_child()) {
      n = n.first_child();
      continue;
    }
    while (n && !n.next_sibling()) n = n.parent();
    if (n) n = n.next_sibling();
  }
  return std::nullopt;
}

}  // namespace

std::expected<std::vector<ProviderDef>, ManifestError> Parser::run(const pugi::xml_document& doc) {
  std::vector<ProviderDef> out;
  if (auto bad = document_limits(doc)) {
    fail(bad->first, std::move(bad->second));
    return std::unexpected(*error_);
  }
  std::unordered_set<std::string> names;
  std::set<std::array<uint8_t, 16>> guids;
  const pugi::xml_node root = doc.document_element();
  if (!internal::is_element(root, kEventsNs, "instrumentationManifest")) {
    fail(root, "the root element is not an instrumentationManifest in namespace " +
                   std::string(kEventsNs));
    return std::unexpected(*error_);
  }
  if (info_ != nullptr) read_strings(root);
  for (pugi::xml_node ins : root.children()) {
    if (!internal::is_element(ins, kEventsNs, "instrumentation")) continue;
    for (pugi::xml_node evs : ins.children()) {
      if (!internal::is_element(evs, kEventsNs, "events")) continue;
      for (pugi::xml_node p : evs.children()) {
        if (!internal::is_element(p, kEventsNs, "provider")) continue;
        ProviderDef def;
        if (!parse_provider(p, def)) return std::unexpected(*error_);
        if (!names.insert(def.name).second || !guids.insert(def.guid.to_bytes()).second) {
          fail(p, "provider " + quote_text(def.name) + " is declared twice (same name or GUID)");
          return std::unexpected(*error_);
        }
        out.push_back(std::move(def));
      }
    }
  }
  if (out.empty()) {
    fail(root, "the manifest declares no provider (instrumentation/events/provider)");
    return std::unexpected(*error_);
  }
  return out;
}

bool Parser::parse_provider(pugi::xml_node p, ProviderDef& out) {
  out.name = p.attribute("name").value();
  if (out.name.empty()) return fail(p, "provider without a name");
  const std::string guid_text(trim_ascii_space(p.attribute("guid").value()));
  const std::optional<Guid> guid = Guid::parse(guid_text);
  if (!guid) {
    return fail(p, "provider " + quote_text(out.name) + " has no valid guid (registry format " +
                       "with braces expected, got " + quote_text(guid_text) + ")");
  }
  out.guid = *guid;
  event_names_.clear();
  event_ids_.clear();
  if (info_ != nullptr) {
    info_->push_back(ManifestProviderInfo{});
    info_->back().symbol = trim_ascii_space(p.attribute("symbol").value());
    info_->back().at = position(p);
  }
  Tables tables;
  if (!parse_tables(p, tables)) return false;
  if (info_ != nullptr) {
    collect_symbols(p, tables, info_->back());
    collect_names(p, tables, info_->back());
    info_->back().message = message_of(p);
    if (!collect_maps(p, info_->back())) return false;
  }
  for (pugi::xml_node list : p.children()) {
    if (!internal::is_element(list, kEventsNs, "events")) continue;
    for (pugi::xml_node e : list.children()) {
      if (internal::is_element(e, kEventsNs, "event") && !parse_event(e, tables, out)) return false;
    }
  }
  return true;
}

bool Parser::parse_tables(pugi::xml_node p, Tables& t) {
  for (pugi::xml_node list : p.children()) {
    bool ok = true;
    if (internal::is_element(list, kEventsNs, "levels")) {
      ok = parse_named(list, "level", "value", 0xFF, t.levels);
    } else if (internal::is_element(list, kEventsNs, "opcodes")) {
      ok = parse_named(list, "opcode", "value", 0xFF, t.opcodes);
    } else if (internal::is_element(list, kEventsNs, "keywords")) {
      ok = parse_named(list, "keyword", "mask", ~uint64_t{0}, t.keywords);
    } else if (internal::is_element(list, kEventsNs, "tasks")) {
      ok = parse_tasks(list, t);
    } else if (internal::is_element(list, kEventsNs, "channels")) {
      ok = parse_channels(list, t);
    } else if (internal::is_element(list, kEventsNs, "templates")) {
      for (pugi::xml_node tpl : list.children()) {
        if (!internal::is_element(tpl, kEventsNs, "template")) continue;
        const std::string tid = tpl.attribute("tid").value();
        if (tid.empty()) return fail(tpl, "template without a tid");
        Template parsed;
        if (!parse_template(tpl, parsed)) return false;
        if (info_ != nullptr) {
          ManifestTemplate& m = info_->back().templates.emplace_back();
          m.tid = tid;
          m.fields = parsed.fields;
          for (pugi::xml_node d : parsed.fields_at) m.fields_at.push_back(position(d));
          m.stopped = parsed.stopped;
          m.stopped_at = position(parsed.stopped_at);
          m.formats = parsed.formats;
        }
        if (!t.templates.emplace(tid, std::move(parsed)).second)
          return fail(tpl, "duplicate template " + quote_text(tid));
      }
    }
    if (!ok) return false;
  }
  return true;
}

// <levels><level name=… value=…/></levels> and the like: name → number ≤ max.
bool Parser::parse_named(pugi::xml_node list, const char* item, const char* value_attr,
                         uint64_t max, std::map<std::string, uint64_t, std::less<>>& out) {
  for (pugi::xml_node n : list.children()) {
    if (!internal::is_element(n, kEventsNs, item)) continue;
    const std::string name = n.attribute("name").value();
    if (name.empty()) return fail(n, std::string(item) + " without a name");
    const std::optional<uint64_t> v = internal::parse_number(n.attribute(value_attr).value());
    if (!v || *v > max) {
      return fail(n, std::string(item) + " " + quote_text(name) + ": " + value_attr + " " +
                         quote_text(n.attribute(value_attr).value()) + " is not a number in 0.." +
                         std::to_string(max));
    }
    if (!out.emplace(name, *v).second)
      return fail(n, "duplicate " + std::string(item) + " " + quote_text(name));
  }
  return true;
}

bool Parser::parse_tasks(pugi::xml_node list, Tables& t) {
  if (!parse_named(list, "task", "value", 0xFFFF, t.tasks)) return false;
  for (pugi::xml_node task : list.children()) {
    if (!internal::is_element(task, kEventsNs, "task")) continue;
    auto& scoped = t.task_opcodes[task.attribute("name").value()];
    for (pugi::xml_node ops : task.children()) {
      if (internal::is_element(ops, kEventsNs, "opcodes") &&
          !parse_named(ops, "opcode", "value", 0xFF, scoped))
        return false;
    }
  }
  return true;
}

// Channels: an explicit value, a well-known imported channel, or mc.exe's numbering (16, 17,
// … in declaration order). Events may name a channel by chid or by name.
bool Parser::parse_channels(pugi::xml_node list, Tables& t) {
  uint64_t next = 16;
  for (pugi::xml_node c : list.children()) {
    const bool declared = internal::is_element(c, kEventsNs, "channel");
    if (!declared && !internal::is_element(c, kEventsNs, "importChannel")) continue;
    const std::string name = c.attribute("name").value();
    if (name.empty()) return fail(c, "channel without a name");
    uint64_t value = 0;
    if (const pugi::xml_attribute v = c.attribute("value")) {
      const std::optional<uint64_t> n = internal::parse_number(v.value());
      if (!n || *n > 0xFF)
        return fail(c, "channel " + quote_text(name) + ": bad value " + quote_text(v.value()));
      value = *n;
    } else if (std::optional<uint64_t> known = internal::standard_channel(name)) {
      value = *known;
    } else if (declared) {
      value = next <= 0xFF ? next++ : 0;
    }
    t.channels.emplace(name, value);
    if (const char* chid = c.attribute("chid").value(); *chid != 0) t.channels.emplace(chid, value);
  }
  return true;
}

bool Parser::parse_template(pugi::xml_node tpl, Template& out) {
  template_fields_.clear();
  for (pugi::xml_node d : tpl.children()) {
    // A struct's layout cannot be represented: later fields cannot be located (docs/etw.md).
    if (internal::is_element(d, kEventsNs, "struct")) {
      out.stopped = "struct " + quote_text(d.attribute("name").value());
      out.stopped_at = d;
      break;
    }
    if (!internal::is_element(d, kEventsNs, "data")) continue;
    const size_t before = out.fields.size();
    if (!parse_data(d, out.fields)) return false;
    if (out.fields.size() == before) {  // an unsupported type: same as a struct
      out.stopped = "data " + quote_text(d.attribute("name").value()) + " of inType " +
                    quote_text(d.attribute("inType").value());
      out.stopped_at = d;
      break;
    }
    out.fields_at.push_back(d);
    if (!parse_format(d, out.formats.emplace_back())) return false;
  }
  return true;
}

// Only the offset: lines and columns are computed for all positions at once at the end
// (resolve_positions), one pass over the text instead of one per element.
ManifestPosition Parser::position(pugi::xml_node at) const {
  ManifestPosition out;
  out.offset = at ? at.offset_debug() : -1;
  return out;
}

// Appends the symbol of every `item` of `list` that has one, its value looked up by name.
void Parser::symbols_of(pugi::xml_node list, const char* item, const NameMap& values,
                        std::vector<ManifestSymbol>& out) const {
  for (pugi::xml_node n : list.children()) {
    if (!internal::is_element(n, kEventsNs, item)) continue;
    const std::string symbol(trim_ascii_space(n.attribute("symbol").value()));
    const auto v = values.find(std::string_view(n.attribute("name").value()));
    if (!symbol.empty() && v != values.end()) out.push_back({symbol, v->second, position(n)});
  }
}

void Parser::collect_symbols(pugi::xml_node p, const Tables& t, ManifestProviderInfo& out) const {
  for (pugi::xml_node list : p.children()) {
    if (internal::is_element(list, kEventsNs, "levels")) {
      symbols_of(list, "level", t.levels, out.levels);
    } else if (internal::is_element(list, kEventsNs, "opcodes")) {
      symbols_of(list, "opcode", t.opcodes, out.opcodes);
    } else if (internal::is_element(list, kEventsNs, "keywords")) {
      symbols_of(list, "keyword", t.keywords, out.keywords);
    } else if (internal::is_element(list, kEventsNs, "channels")) {
      symbols_of(list, "channel", t.channels, out.channels);
    } else if (internal::is_element(list, kEventsNs, "tasks")) {
      symbols_of(list, "task", t.tasks, out.tasks);
      for (pugi::xml_node task : list.children()) {
        if (!internal::is_element(task, kEventsNs, "task")) continue;
        const auto scoped = t.task_opcodes.find(std::string_view(task.attribute("name").value()));
        if (scoped == t.task_opcodes.end()) continue;
        for (pugi::xml_node ops : task.children()) {
          if (internal::is_element(ops, kEventsNs, "opcodes"))
            symbols_of(ops, "opcode", scoped->second, out.opcodes);
        }
      }
    }
  }
}

}  // namespace internal

std::string ManifestError::to_string(std::string_view name) const {
  std::string out(name);
  if (line != 0) out += ":" + std::to_string(line) + ":" + std::to_string(column);
  return out + ": " + message;
}

std::string manifest_size_error(std::string_view name) {
  return std::string(name) + " is more than the limit of " +
         std::to_string(kMaxManifestBytes >> 20) + " MiB of manifest text";
}

namespace {

// Fills line and column of every position of `info` with an offset: in offset order, each
// counted on from the previous one.
void resolve_positions(std::string_view text, std::vector<ManifestProviderInfo>& info) {
  std::vector<ManifestPosition*> all;
  for (ManifestProviderInfo& p : info) {
    all.push_back(&p.at);
    for (auto* list : {&p.channels, &p.levels, &p.opcodes, &p.tasks, &p.keywords})
      for (ManifestSymbol& s : *list) all.push_back(&s.at);
    for (ManifestTemplate& t : p.templates) {
      all.push_back(&t.stopped_at);
      for (ManifestPosition& f : t.fields_at) all.push_back(&f);
    }
    for (ManifestEvent& e : p.events) all.push_back(&e.at);
  }
  std::erase_if(all, [](const ManifestPosition* p) { return p->offset < 0; });
  std::sort(all.begin(), all.end(), [](const ManifestPosition* a, const ManifestPosition* b) {
    return a->offset < b->offset;
  });
  uint32_t line = 1, column = 1;
  size_t from = 0;  // an element's start: a character boundary
  for (ManifestPosition* p : all) {
    const size_t to = std::min(static_cast<size_t>(p->offset), text.size());
    uint32_t l = 1, c = 1;
    internal::line_column(text.substr(from), to - from, l, c);
    column = l == 1 ? column + c - 1 : c;
    line += l - 1;
    from = to;
    p->line = line;
    p->column = column;
  }
}

std::expected<std::vector<ProviderDef>, ManifestError> parse(
    std::string_view text, std::vector<ManifestProviderInfo>* info) {
  if (text.size() > kMaxManifestBytes) {
    return std::unexpected(
        ManifestError{ManifestError::Kind::Content, 0, 0, manifest_size_error("the manifest")});
  }
  std::string utf8;
  if (!internal::to_utf8_text(text, utf8)) {
    return std::unexpected(ManifestError{ManifestError::Kind::Xml, 0, 0, "bad UTF-16 text"});
  }
  pugi::xml_document doc;
  const pugi::xml_parse_result r = doc.load_buffer(
      utf8.data(), utf8.size(), pugi::parse_default | pugi::parse_doctype, pugi::encoding_utf8);
  if (!r) {
    ManifestError e{ManifestError::Kind::Xml, 0, 0, std::string("XML error: ") + r.description()};
    if (r.offset >= 0) internal::line_column(utf8, static_cast<size_t>(r.offset), e.line, e.column);
    return std::unexpected(std::move(e));
  }
  auto parsed = internal::Parser(utf8, info).run(doc);
  if (parsed && info != nullptr) resolve_positions(utf8, *info);
  return parsed;
}

}  // namespace

std::expected<std::vector<ProviderDef>, ManifestError> parse_manifest(std::string_view text) {
  return parse(text, nullptr);
}

std::expected<std::vector<ProviderDef>, ManifestError> parse_manifest(
    std::string_view text, std::vector<ManifestProviderInfo>& info) {
  info.clear();
  return parse(text, &info);
}

}  // namespace pfc

namespace pfc {
namespace {

bool is_name_char(char c) { return is_ascii_alnum(c) || c == '_' || c == '-' || c == '.'; }

// Start of the "<?xml …?>" declaration directly before `root` (whitespace between), or root.
size_t with_declaration(std::string_view bytes, size_t root) {
  size_t end = root;
  while (end > 0 && is_ascii_space(bytes[end - 1])) --end;
  if (end < 2 || bytes.substr(end - 2, 2) != "?>") return root;
  const size_t decl = bytes.rfind("<?xml", end - 2);
  return decl == std::string_view::npos ? root : decl;
}

}  // namespace

std::optional<std::string_view> find_embedded_manifest(std::string_view bytes) {
  constexpr std::string_view kRoot = "instrumentationManifest";
  for (size_t at = bytes.find(kRoot); at != std::string_view::npos;
       at = bytes.find(kRoot, at + 1)) {
    size_t lt = at;  // back over an optional "prefix:"
    if (lt > 0 && bytes[lt - 1] == ':') {
      --lt;
      while (lt > 0 && is_name_char(bytes[lt - 1])) --lt;
    }
    if (lt == 0 || bytes[lt - 1] != '<') continue;
    --lt;
    const std::string_view qname = bytes.substr(lt + 1, at + kRoot.size() - lt - 1);
    const std::string close = "</" + std::string(qname) + ">";
    const size_t end = bytes.find(close, at);
    if (end == std::string_view::npos) continue;
    const size_t start = with_declaration(bytes, lt);
    return bytes.substr(start, end + close.size() - start);
  }
  return std::nullopt;
}

}  // namespace pfc
