// tests/oracle/oracle.cc — oracle_route: docs/semantics.md §1–§2 (legacy providers §1.9)
// evaluated session by session, rule by rule, in the order the spec lists them. See oracle.h for
// the choices made where the spec is silent.
#include "tests/oracle/oracle.h"

#include <algorithm>
#include <string>
#include <string_view>

#include "tests/oracle/oracle_internal.h"

namespace pfc {
namespace {

using oracle_internal::Decoded;

// Rule 1.
bool level_ok(uint8_t event_level, uint8_t session_level) {
  return event_level == 0 || session_level == 0 || event_level <= session_level;
}

// Rule 2.
bool keyword_ok(uint64_t kw, uint64_t any, uint64_t all, bool ignore_keyword_0) {
  if (kw == 0) return !ignore_keyword_0;
  const uint64_t any_mask = any == 0 ? ~uint64_t{0} : any;
  if ((kw & any_mask) == 0) return false;
  return any == 0 || (kw & all) == all;
}

std::string ascii_lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c + 32);
  }
  return out;
}

bool listed_nocase(const std::vector<std::string>& list, std::string_view value) {
  const std::string v = ascii_lower(value);
  return std::any_of(list.begin(), list.end(),
                     [&](const std::string& s) { return ascii_lower(s) == v; });
}

std::string_view final_component(std::string_view path) {
  const size_t slash = path.find_last_of("/\\");
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

// Rule 3.
bool scope_ok(const EnableParams& p, const EventView& e) {
  if (p.pids && std::find(p.pids->begin(), p.pids->end(), e.pid) == p.pids->end()) return false;
  if (p.exe_names && !listed_nocase(*p.exe_names, final_component(e.exe.view()))) return false;
  if (p.package_ids && !listed_nocase(*p.package_ids, e.package_id.view())) return false;
  if (p.app_ids && !listed_nocase(*p.app_ids, e.app_id.view())) return false;
  return true;
}

// Rule 4 (and the STACKWALK event-ID filter of rule 9).
bool id_filter_ok(const EventIdFilter& f, uint16_t id) {
  const bool listed = std::find(f.ids.begin(), f.ids.end(), id) != f.ids.end();
  return listed == f.filter_in;
}

// Rule 5 (and STACKWALK_NAME): events outside the filter's level/keywords are not affected,
// nor events without a name (docs/semantics.md §1.7).
bool name_filter_ok(const EventNameFilter& f, const EventView& e) {
  const bool applies =
      level_ok(e.desc.level, f.level) && keyword_ok(e.desc.keyword, f.any, f.all, false);
  if (!applies || e.name.size == 0) return true;
  const bool listed = std::find(f.names.begin(), f.names.end(), e.name.view()) != f.names.end();
  return listed == f.filter_in;
}

// One filter's expression over the decoded payload: post-order nodes, evaluated in order.
bool eval_filter(const PayloadFilter& f, const EventDef& def, const std::vector<Decoded>& values) {
  const PayloadExpr& x = f.expr;
  if (x.nodes.empty()) return true;
  std::vector<bool> v(x.nodes.size(), false);
  for (size_t i = 0; i < x.nodes.size(); ++i) {
    const PayloadExpr::Node& n = x.nodes[i];
    if (n.kind == PayloadExpr::Node::Kind::Pred) {
      const PayloadPredicate& p = x.preds.at(n.index);
      if (p.field >= def.fields.size()) return false;
      const auto code = static_cast<uint16_t>(p.op);
      const bool field_op =
          code >= uint16_t(PayloadOp::FieldEq) && code <= uint16_t(PayloadOp::FieldGe);
      v[i] = field_op ? oracle_internal::eval_field_predicate(def, values, p)
                      : oracle_internal::eval_predicate(def.fields[p.field], values[p.field], p);
      continue;
    }
    bool any = false;
    bool all = true;
    for (uint32_t k = 0; k < n.count; ++k) {
      const bool kid = v.at(x.kids.at(n.index + k));
      any = any || kid;
      all = all && kid;
    }
    if (n.kind == PayloadExpr::Node::Kind::And) v[i] = all;
    if (n.kind == PayloadExpr::Node::Kind::Or) v[i] = any;
    if (n.kind == PayloadExpr::Node::Kind::Not) v[i] = !all;
  }
  return v.back();
}

// Rule 6: the "all" group must all pass; the "any" group, if present, needs one pass.
bool payload_ok(const std::vector<PayloadFilter>& filters, const ProviderDef& provider,
                const EventView& e) {
  bool named = false;
  bool all_pass = true;
  bool has_any = false;
  bool any_pass = false;
  const EventDef* def = nullptr;
  std::vector<Decoded> values;
  for (const PayloadFilter& f : filters) {
    if (f.event_id != e.desc.id || f.event_version != e.desc.version) continue;
    if (!named) {
      named = true;
      for (const EventDef& d : provider.events) {
        if (d.desc.id == f.event_id && d.desc.version == f.event_version) def = &d;
      }
      if (def != nullptr) values = oracle_internal::decode_payload(*def, e.payload, e.payload_size);
    }
    const bool pass = def != nullptr && eval_filter(f, *def, values);
    if (f.group_all) all_pass = all_pass && pass;
    if (!f.group_all) has_any = true, any_pass = any_pass || pass;
  }
  return !named || (all_pass && (!has_any || any_pass));
}

// Rule 9.
bool stack_ok(const EnableParams& p, const EventView& e) {
  if ((p.properties & enable_property::kStackTrace) == 0) return false;
  if (p.stack_ids && !id_filter_ok(*p.stack_ids, e.desc.id)) return false;
  if (p.stack_names && !name_filter_ok(*p.stack_names, e)) return false;
  if (p.stack_level_kw) {
    const LevelKeywordFilter& f = *p.stack_level_kw;
    const bool match =
        level_ok(e.desc.level, f.level) && keyword_ok(e.desc.keyword, f.any, f.all, false);
    if (match != f.filter_in) return false;
  }
  return true;
}

// Rule 12: level and the low 32 bits of MatchAny; nothing else.
bool legacy_delivers(const EnableParams& p, const EventView& e) {
  return level_ok(e.desc.level, p.level) &&
         keyword_ok(e.desc.keyword, p.any & 0xFFFFFFFFu, 0, false);
}

}  // namespace

RouteResult oracle_route(const ProviderDef& provider, const std::vector<SessionEntry>& sessions,
                         const EventView& event) {
  RouteResult r;
  for (const SessionEntry& s : sessions) {
    const EnableParams& p = *s.params;
    const uint64_t bit = uint64_t{1} << s.slot;
    if (provider.legacy) {
      if (legacy_delivers(p, event)) r.deliver |= bit;
      continue;
    }
    const bool ignore0 = (p.properties & enable_property::kIgnoreKeyword0) != 0;
    if (!level_ok(event.desc.level, p.level)) continue;
    if (!keyword_ok(event.desc.keyword, p.any, p.all, ignore0)) continue;
    if (!scope_ok(p, event)) continue;
    if (p.event_ids && !id_filter_ok(*p.event_ids, event.desc.id)) continue;
    if (p.event_names && !name_filter_ok(*p.event_names, event)) continue;
    if (!payload_ok(p.payload, provider, event)) continue;
    r.deliver |= bit;
    if (stack_ok(p, event)) r.stack |= bit;
  }
  return r;
}

}  // namespace pfc
