// cli/explain.cc — rule-by-rule evaluation of one session's filters for --explain. Written
// straight from docs/semantics.md and deliberately independent of compiler/ (it shares only the
// TDH decoding primitives of runtime/tdh.h), so that `pfc run` can cross-check engines.
#include "cli/explain.h"

#include <algorithm>
#include <string>
#include <vector>

#include "base/ascii.h"
#include "runtime/casefold.h"
#include "runtime/str_search.h"
#include "runtime/tdh.h"

namespace pfc::cli {
namespace {

bool level_ok(uint8_t session_level, uint8_t event_level) {  // docs/semantics.md §1.1
  return event_level == 0 || session_level == 0 || event_level <= session_level;
}

bool keyword_ok(const EnableParams& p, uint64_t keyword) {  // §1.2
  if (keyword == 0) return (p.properties & enable_property::kIgnoreKeyword0) == 0;
  const uint64_t any = p.any == 0 ? ~uint64_t{0} : p.any;
  if ((keyword & any) == 0) return false;
  return p.any == 0 || (keyword & p.all) == p.all;
}

// (level, any, all) applicability test of event-name and level/keyword stack filters;
// 0 means "any" for each part.
bool matches_level_keyword(uint8_t level, uint64_t any, uint64_t all, const EventView& e) {
  if (level != 0 && e.desc.level > level) return false;
  if (any == 0) return true;
  return (e.desc.keyword & any) != 0 && (e.desc.keyword & all) == all;
}

bool in_list_icase(const std::vector<std::string>& list, std::string_view s) {
  return std::any_of(list.begin(), list.end(),
                     [&](const std::string& item) { return iequals_ascii(item, s); });
}

std::string_view final_component(std::string_view path) {  // §1.3
  const size_t slash = path.find_last_of("/\\");
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

bool event_id_ok(const EventIdFilter& f, uint16_t id) {  // §1.4
  const bool listed = std::find(f.ids.begin(), f.ids.end(), id) != f.ids.end();
  return listed == f.filter_in;
}

bool event_name_ok(const EventNameFilter& f, const EventView& e) {  // §1.7
  if (!matches_level_keyword(f.level, f.any, f.all, e)) return true;
  const bool listed = std::find(f.names.begin(), f.names.end(), e.name.view()) != f.names.end();
  return listed == f.filter_in;
}

// Field offsets of one event's payload, computed front to back with the TDH primitives.
class PayloadLayout {
 public:
  PayloadLayout(const EventDef& def, const EventView& e) : def_(def), e_(e) {
    offsets_.reserve(def.fields.size());
    uint64_t off = 0;
    for (uint32_t i = 0; i < def.fields.size(); ++i) {
      offsets_.push_back(off);
      const FieldDef& f = def.fields[i];
      const uint64_t count = extent(f.count, 1);
      off = pfc_tdh_skip(e.payload, e.payload_size, off, static_cast<uint32_t>(f.type), count,
                         extent(f.length, PFC_TDH_NO_LENGTH));
    }
  }
  uint64_t offset(uint32_t field) const { return offsets_.at(field); }
  // A count or length: the constant, the referenced field's value, or `absent`.
  uint64_t extent(const Extent& x, uint64_t absent) const {
    if (x.kind == Extent::Kind::None) return absent;
    if (x.kind == Extent::Kind::Fixed) return x.value;
    int ok = 0;
    const uint64_t v = pfc_tdh_load_int(e_.payload, e_.payload_size, offsets_.at(x.value),
                                        static_cast<uint32_t>(def_.fields.at(x.value).type), &ok);
    return ok ? v : 0;
  }

 private:
  const EventDef& def_;
  const EventView& e_;
  std::vector<uint64_t> offsets_;
};

bool predicate_holds(const PayloadPredicate& p, const EventDef& def, const PayloadLayout& layout,
                     const EventView& e) {  // §2.1, §2.2
  const FieldDef& f = def.fields.at(p.field);
  const uint64_t off = layout.offset(p.field);
  if (off == PFC_TDH_BAD_OFFSET) return false;
  const auto type = static_cast<uint32_t>(f.type);
  const auto op = static_cast<uint32_t>(p.op);
  if (in_type_is_integer(f.type)) {
    int ok = 0;
    const uint64_t v = pfc_tdh_load_int(e.payload, e.payload_size, off, type, &ok);
    return ok && pfc_tdh_int_pred(op, in_type_is_signed(f.type), v, p.value.lo, p.value.hi);
  }
  if (in_type_is_string(f.type)) {
    const std::u32string needle = fold_utf8(p.value.text);
    const std::vector<uint32_t> links = needle_links(needle);
    return pfc_tdh_str_pred(e.payload, e.payload_size, off, type,
                            layout.extent(f.length, PFC_TDH_NO_LENGTH), op, needle.data(),
                            needle.size(), links.data()) != 0;
  }
  if (f.type == InType::Guid) {
    const auto bytes = p.value.guid.to_bytes();
    return pfc_tdh_guid_pred(e.payload, e.payload_size, off, op, bytes.data()) != 0;
  }
  return false;  // the checker admits no other type/operator pair
}

// Evaluates the post-order expression without recursion.
bool expr_holds(const PayloadExpr& x, const EventDef& def, const PayloadLayout& layout,
                const EventView& e) {
  if (x.nodes.empty()) return true;
  std::vector<char> value(x.nodes.size(), 0);
  for (size_t i = 0; i < x.nodes.size(); ++i) {
    const PayloadExpr::Node& n = x.nodes[i];
    using Kind = PayloadExpr::Node::Kind;
    if (n.kind == Kind::Pred) {
      value[i] = predicate_holds(x.preds.at(n.index), def, layout, e);
      continue;
    }
    bool any = false;
    bool all = true;
    for (uint32_t k = 0; k < n.count; ++k) {
      const bool kid = value.at(x.kids.at(n.index + k)) != 0;
      any = any || kid;
      all = all && kid;
    }
    value[i] = n.kind == Kind::And ? all : n.kind == Kind::Or ? any : !any;
  }
  return value.back() != 0;
}

bool payload_ok(const ProviderDef& provider, const EnableParams& p, const EventView& e) {  // §2.1
  const EventDef* def = provider.find_event(e.desc.id, e.desc.version);
  bool any_group = false, any_passed = false;
  std::vector<const PayloadFilter*> mine;
  for (const PayloadFilter& f : p.payload)
    if (f.event_id == e.desc.id && f.event_version == e.desc.version) mine.push_back(&f);
  if (mine.empty() || def == nullptr) return true;
  const PayloadLayout layout(*def, e);
  for (const PayloadFilter* f : mine) {
    const bool holds = expr_holds(f->expr, *def, layout, e);
    if (f->group_all && !holds) return false;
    if (!f->group_all) {
      any_group = true;
      any_passed = any_passed || holds;
    }
  }
  return !any_group || any_passed;
}

bool stack_selected(const EnableParams& p, const EventView& e) {  // §1.6
  if ((p.properties & enable_property::kStackTrace) == 0) return false;
  if (p.stack_ids && !event_id_ok(*p.stack_ids, e.desc.id)) return false;
  if (p.stack_names && !event_name_ok(*p.stack_names, e)) return false;
  if (p.stack_level_kw) {
    const LevelKeywordFilter& f = *p.stack_level_kw;
    if (matches_level_keyword(f.level, f.any, f.all, e) != f.filter_in) return false;
  }
  return true;
}

std::string_view first_failed_check(const ProviderDef& provider, const EnableParams& p,
                                    const EventView& e) {
  if (!level_ok(p.level, e.desc.level)) return kWhyLevel;
  if (!keyword_ok(p, e.desc.keyword)) return kWhyKeyword;
  if (provider.legacy) return {};  // legacy providers: no filtering (§1.9)
  if (p.pids && std::find(p.pids->begin(), p.pids->end(), e.pid) == p.pids->end())
    return kWhyPid;
  if (p.exe_names && !in_list_icase(*p.exe_names, final_component(e.exe.view()))) return kWhyExe;
  if (p.package_ids && !in_list_icase(*p.package_ids, e.package_id.view())) return kWhyPackageId;
  if (p.app_ids && !in_list_icase(*p.app_ids, e.app_id.view())) return kWhyAppId;
  if (p.event_ids && !event_id_ok(*p.event_ids, e.desc.id)) return kWhyEventId;
  if (p.event_names && !event_name_ok(*p.event_names, e)) return kWhyEventName;
  if (!payload_ok(provider, p, e)) return kWhyPayload;
  return {};
}

}  // namespace

SessionVerdict explain_session(const ProviderDef& provider, const EnableParams& params,
                               const EventView& event) {
  SessionVerdict v;
  const EnableParams& p = provider.legacy ? legacy_effective_params(params) : params;
  v.rejected_by = first_failed_check(provider, p, event);
  v.stack = v.rejected_by.empty() && stack_selected(p, event);
  return v;
}

}  // namespace pfc::cli
