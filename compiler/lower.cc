// compiler/lower.cc — lowering of a ProgramSpec to IR: per-session header checks
// (docs/semantics.md §1.1–§1.4, §1.7), guarded per-event payload regions (§2,
// lower_payload.cc), and the deliver/stack bits (§1.6). The scheme is documented in
// docs/ir.md §4.
#include "compiler/lower.h"

#include <algorithm>
#include <array>
#include <bit>
#include <deque>
#include <map>
#include <optional>
#include <utility>

#include "compiler/lower_index.h"
#include "compiler/lower_mask.h"
#include "compiler/lower_payload.h"
#include "runtime/tlg_filter.h"

namespace pfc {
namespace {

using internal::IrBuilder;
using internal::keyword_check;
using internal::kFalse;
using internal::kTrue;
using internal::level_check;
using internal::MaskLowering;
using internal::MaskVal;
using ir::Cond;
using ir::HeaderField;
using ir::Op;
using ir::Reg;

// docs/semantics.md §1.1–§1.2 for one (level, any, all); also the applicability test of
// event-name and level/keyword stack filters (with ignore_kw0 = false: "0 = any").
Reg level_keyword(IrBuilder& b, uint8_t level, uint64_t any, uint64_t all, bool ignore_kw0) {
  const Reg ok = level_check(b, level);  // emitted before the keyword test
  return b.bool_and(ok, keyword_check(b, any, all, ignore_kw0));
}

Reg id_filter(IrBuilder& b, const EventIdFilter& f) {
  std::vector<uint64_t> ids(f.ids.begin(), f.ids.end());
  Reg in = b.emit(Op::InSet, b.header(HeaderField::Id), b.int_set(std::move(ids)));
  return f.filter_in ? in : b.bool_not(in);
}

// docs/semantics.md §1.7 (EVENT_NAME and STACKWALK_NAME alike): applies to the named
// events matching its own level/any/all; then (name ∈ names) == filter_in.
Reg name_filter(IrBuilder& b, const EventNameFilter& f) {
  Reg applies = level_keyword(b, f.level, f.any, f.all, false);
  const auto name = uint32_t(ir::HeaderString::EventName);
  Reg unnamed = b.emit(Op::StrIn, name, b.str_set(std::vector<std::string>{""}, false));
  applies = b.bool_and(applies, b.bool_not(unnamed));
  Reg in = b.emit(Op::StrIn, uint32_t(ir::HeaderString::EventName), b.str_set(f.names, false));
  Reg match = f.filter_in ? in : b.bool_not(in);
  return b.bool_or(b.bool_not(applies), match);
}

// The name-scope lists of docs/semantics.md §1.3 (base/scope_kinds.h), indexed from the
// first name scope: the list a session has of kind k (null: none).
constexpr size_t kNameScopes = internal::kScopeKindCount - internal::kFirstNameScope;
const internal::ScopeKindInfo& name_scope(size_t k) {
  return internal::kScopeKinds[internal::kFirstNameScope + k];
}
const std::vector<std::string>* scope_list(const EnableParams& p, size_t kind) {
  const internal::ScopeNames& list = p.*name_scope(kind).names;
  return list ? &*list : nullptr;
}

// The checks that stay one boolean per session (docs/semantics.md §1.3 exe / package /
// app lists of the kinds not `indexed`, §1.7), each noted; returns their AND.
Reg scope_checks(IrBuilder& b, const EnableParams& p, uint32_t slot,
                 const std::array<bool, kNameScopes>& indexed) {
  Reg all = kTrue;
  auto add = [&](ir::Check check, Reg v) {
    b.note(slot, check, v);
    all = b.bool_and(all, v);
  };
  for (size_t k = 0; k < kNameScopes; ++k) {
    const std::vector<std::string>* list = scope_list(p, k);
    if (list == nullptr || indexed[k]) continue;
    const internal::ScopeKind kind = name_scope(k).kind;
    add(ir::scope_check(kind),
        b.emit(Op::StrIn, uint32_t(ir::scope_string(kind)), b.str_set(*list, true)));
  }
  if (p.event_names) add(ir::Check::EventName, name_filter(b, *p.event_names));
  return all;
}

// Notes check `check` of session `slot` as bit `slot` of mask `m`.
void note_mask(IrBuilder& b, uint32_t slot, ir::Check check, MaskVal m) {
  const bool has = (m.bits >> slot) & 1;
  if (m.is_const()) b.note(slot, check, has ? kTrue : kFalse);
  else if (m.is_cond()) b.note(slot, check, has ? m.cond : kFalse);
  else b.note_bit(slot, check, m.reg, slot);
}

// docs/semantics.md §1.6: whether a delivered event gets a stack.
Reg stack_select(IrBuilder& b, const EnableParams& p, bool legacy) {
  if (legacy) return kFalse;  // properties have no effect on legacy providers
  if ((p.properties & enable_property::kStackTrace) == 0) return kFalse;
  Reg st = kTrue;
  if (p.stack_ids) st = b.bool_and(st, id_filter(b, *p.stack_ids));
  if (p.stack_names) st = b.bool_and(st, name_filter(b, *p.stack_names));
  if (p.stack_level_kw) {
    const LevelKeywordFilter& f = *p.stack_level_kw;
    Reg m = level_keyword(b, f.level, f.any, f.all, false);
    st = b.bool_and(st, f.filter_in ? m : b.bool_not(m));
  }
  return st;
}

// A payload-filtered event: (id, version), or a TraceLogging event's name (id and version 0).
struct EventKey {
  uint16_t id = 0;
  uint8_t version = 0;
  std::string name;
  auto operator<=>(const EventKey&) const = default;
  bool of(const PayloadFilter& f) const {
    return f.event_id == id && f.event_version == version && f.event_name == name;
  }
};

struct SessionState {
  const SessionEntry* entry = nullptr;
  Reg filtered = kFalse;  // the event's key is one s has payload filters for
};

bool same_layout(const EventDef& a, const EventDef& b) {
  return std::equal(a.fields.begin(), a.fields.end(), b.fields.begin(), b.fields.end(),
                    [](const FieldDef& x, const FieldDef& y) {
                      return x.type == y.type && x.count.kind == y.count.kind &&
                             x.count.value == y.count.value && x.length.kind == y.length.kind &&
                             x.length.value == y.length.value;
                    });
}

// The layout the key's filters carry (self-contained ETW payload blobs) when the provider's
// schema does not define the event: the longest one, which every other must be a prefix
// of; null when none carries one or two disagree (docs/etw.md "Payload filter blob").
const EventDef* carried_layout(const EventKey& key, const std::vector<size_t>& users,
                               const std::vector<SessionState>& ss) {
  const EventDef* best = nullptr;
  for (size_t i : users) {
    for (const PayloadFilter& f : ss[i].entry->params->payload) {
      if (!key.of(f)) continue;
      if (!f.layout) return nullptr;
      if (best == nullptr || f.layout->fields.size() > best->fields.size()) best = f.layout.get();
    }
  }
  if (best == nullptr) return nullptr;
  for (size_t i : users) {
    for (const PayloadFilter& f : ss[i].entry->params->payload) {
      if (!key.of(f)) continue;
      EventDef prefix = *best;
      prefix.fields.resize(f.layout->fields.size());
      if (!same_layout(prefix, *f.layout)) return nullptr;
    }
  }
  return best;
}

// `f` on the filter layout of a TraceLogging event (runtime/tlg_filter.h): its fields one
// further, and AND-ed with "the conformance byte (field 0) is 1".
PayloadFilter on_filter_layout(const PayloadFilter& f) {
  PayloadFilter out = f;
  for (PayloadPredicate& p : out.expr.preds) {
    ++p.field;
    if (p.op >= PayloadOp::FieldEq && p.op <= PayloadOp::FieldGe) ++p.value.lo;
  }
  const auto conform = static_cast<uint32_t>(out.expr.nodes.size());
  out.expr.preds.push_back(PayloadPredicate{0, PayloadOp::Eq, PayloadValue{.lo = 1}});
  out.expr.nodes.push_back(
      {PayloadExpr::Node::Kind::Pred, static_cast<uint32_t>(out.expr.preds.size() - 1), 0});
  const auto kids = static_cast<uint32_t>(out.expr.kids.size());
  out.expr.kids.push_back(conform);
  if (conform > 0) out.expr.kids.push_back(conform - 1);  // the old root
  out.expr.nodes.push_back({PayloadExpr::Node::Kind::And, kids, conform > 0 ? 2u : 1u});
  return out;
}

// The event a key's filters are lowered for: the schema's, the carried layout, or a
// TraceLogging event's filter layout (built in `storage`); null when there is none.
const EventDef* key_event(const ProgramSpec& spec, const EventKey& key,
                          const std::vector<size_t>& users, const std::vector<SessionState>& ss,
                          EventDef& storage) {
  if (key.name.empty()) {
    const EventDef* event = spec.provider.find_event(key.id, key.version);
    return event != nullptr ? event : carried_layout(key, users, ss);
  }
  const EventDef* declared = tlg::declared_event(spec, key.name);
  if (declared == nullptr) return nullptr;
  storage = tlg::filter_layout(*declared);
  return &storage;
}

// Whether the event has the key: its id and version, or a TraceLogging event's name.
Reg key_test(IrBuilder& b, const EventKey& key) {
  if (!key.name.empty()) {
    return b.emit(Op::StrIn, uint32_t(ir::HeaderString::EventName),
                  b.str_set(std::vector<std::string>{key.name}, false));
  }
  // Sequenced explicitly: the output must not depend on argument evaluation order.
  const Reg id_is = b.cmp(b.header(HeaderField::Id), Cond::Eq, key.id);
  const Reg version_is = b.cmp(b.header(HeaderField::Version), Cond::Eq, key.version);
  return b.bool_and(id_is, version_is);
}

// One guarded region per payload-filtered event key (docs/semantics.md §2.1): skipped unless the
// event has that key and some session filtering it passed its header checks.
// `passed` accumulates the sessions whose filters for the event's key passed.
Result<void> lower_key(IrBuilder& b, MaskLowering& ml, MaskVal header, const ProgramSpec& spec,
                       const EventKey& key, const std::vector<size_t>& users,
                       std::vector<SessionState>& ss, MaskVal& passed, bool indexing) {
  EventDef storage;
  const EventDef* event = key_event(spec, key, users, ss, storage);
  if (event == nullptr && !key.name.empty()) {
    return make_error("payload filter for undeclared TraceLogging event '" + key.name +
                      "' (or filters carrying different layouts for it)");
  }
  if (event == nullptr) {
    return make_error("payload filter for unknown event id " + std::to_string(key.id) +
                      " version " + std::to_string(key.version) +
                      " (or filters carrying different layouts for it)");
  }
  Reg is_key = key_test(b, key);
  uint64_t user_bits = 0;
  for (size_t i : users) user_bits |= uint64_t{1} << ss[i].entry->slot;
  const Reg gate = b.bool_and(is_key, ml.any_of(header, user_bits));
  b.begin_region(gate);
  uint32_t first_reg = b.num_regs();
  internal::PayloadLowering payload(b, *event);
  std::vector<internal::KeyFilters> filters;
  std::deque<PayloadFilter> adjusted;  // TraceLogging filters on the filter layout
  for (size_t i : users) {
    filters.push_back({ss[i].entry->slot, {}});
    for (const PayloadFilter& f : ss[i].entry->params->payload) {
      if (!key.of(f)) continue;
      if (!key.name.empty()) adjusted.push_back(on_filter_layout(f));
      filters.back().filters.push_back(key.name.empty() ? &f : &adjusted.back());
    }
  }
  auto results = internal::lower_key_filters(b, ml, payload, *event, filters, indexing);
  if (!results) return std::unexpected(results.error());
  // Region registers read 0 for other keys, so their results become the region's mask
  // inside it (one value leaves the region); anything else must be tied to the key. The
  // mask is built after all of them (folding each in as it is known cut instructions but
  // ran slower: docs/ir.md §4). The indexed sessions' mask is made of
  // region registers only (each has a mask.range term).
  std::vector<std::pair<uint32_t, Reg>> inside, outside;
  for (const auto& [slot, r] : results->bools) {
    const bool in_region = r >= first_reg && r != kTrue && r != kFalse;
    (in_region ? inside : outside).emplace_back(slot, r);
  }
  MaskVal region = ml.bit_or(ml.from_bools(inside, /*unlisted_pass=*/false), results->indexed);
  if (!region.is_const() && !region.is_cond()) region = MaskVal::of(ml.reg(region));
  b.end_region();
  passed = ml.bit_or(passed, region);
  for (const auto& [slot, r] : outside)
    passed = ml.bit_or(passed, MaskVal::when(b.bool_and(is_key, r), uint64_t{1} << slot));
  for (size_t i : users) ss[i].filtered = b.bool_or(ss[i].filtered, is_key);
  return {};
}

// The scope lists of every session (none on legacy providers), by kind; `indexed[k]`: kind k
// is lowered for all sessions at once (sessions have two different lists of that kind or
// more; when they all have the same one, its one str.in serves them all).
struct ScopeLists {
  std::array<std::vector<internal::StrListRule>, kNameScopes> rules;
  std::array<bool, kNameScopes> indexed{};
};

ScopeLists scope_lists(const std::vector<SessionState>& ss, bool legacy, bool indexing) {
  ScopeLists out;
  for (const SessionState& s : ss)
    for (size_t k = 0; k < kNameScopes && !legacy; ++k)
      if (const auto* list = scope_list(*s.entry->params, k))
        out.rules[k].push_back({s.entry->slot, list});
  for (size_t k = 0; k < kNameScopes && indexing; ++k) {
    const auto& rules = out.rules[k];
    out.indexed[k] = std::any_of(rules.begin(), rules.end(), [&](const internal::StrListRule& r) {
      return *r.values != *rules.front().values;
    });
  }
  return out;
}

// The indexed scope lists as one mask, each check noted.
MaskVal indexed_scopes(IrBuilder& b, MaskLowering& ml, const ScopeLists& lists) {
  MaskVal out = ml.all();
  for (size_t k = 0; k < kNameScopes; ++k) {
    if (!lists.indexed[k]) continue;
    const internal::ScopeKind kind = name_scope(k).kind;
    const MaskVal m = ml.str_list(ir::scope_string(kind), lists.rules[k]);
    for (const internal::StrListRule& r : lists.rules[k])
      note_mask(b, r.slot, ir::scope_check(kind), m);
    out = ml.bit_and(out, m);
  }
  return out;
}

// Every session's checks of docs/semantics.md §1.1–§1.4 and §1.7 (legacy providers: level
// and keyword only, on legacy_effective_params), as one session mask; each check noted.
MaskVal header_masks(IrBuilder& b, MaskLowering& ml, const std::vector<SessionState>& ss,
                     bool legacy, bool index_scopes) {
  std::vector<std::pair<uint32_t, uint8_t>> levels;
  std::vector<internal::KeywordRule> keywords;
  std::vector<internal::ListRule> pids, ids;
  std::vector<std::pair<uint32_t, Reg>> scopes;
  const ScopeLists lists = scope_lists(ss, legacy, index_scopes);
  for (const SessionState& s : ss) {
    const uint32_t slot = s.entry->slot;
    EnableParams storage;
    const EnableParams& p = effective_params(*s.entry->params, legacy, storage);
    const bool ignore_kw0 = !legacy && (p.properties & enable_property::kIgnoreKeyword0) != 0;
    levels.emplace_back(slot, p.level);
    keywords.push_back({slot, p.any, p.all, ignore_kw0});
    if (legacy) continue;
    if (p.pids) pids.push_back({slot, {p.pids->begin(), p.pids->end()}, true});
    if (p.event_ids)
      ids.push_back(
          {slot, {p.event_ids->ids.begin(), p.event_ids->ids.end()}, p.event_ids->filter_in});
    scopes.emplace_back(slot, scope_checks(b, p, slot, lists.indexed));
  }
  for (auto* rules : {&pids, &ids})
    for (internal::ListRule& r : *rules) std::sort(r.values.begin(), r.values.end());
  const MaskVal level = ml.level(levels);
  const MaskVal keyword = ml.keyword(keywords);
  const MaskVal pid = ml.list(HeaderField::Pid, pids);
  const MaskVal id = ml.list(HeaderField::Id, ids);
  for (const SessionState& s : ss) {
    const uint32_t slot = s.entry->slot;
    note_mask(b, slot, ir::Check::Level, level);
    note_mask(b, slot, ir::Check::Keyword, keyword);
  }
  for (const internal::ListRule& r : pids) note_mask(b, r.slot, ir::Check::Pid, pid);
  for (const internal::ListRule& r : ids) note_mask(b, r.slot, ir::Check::EventId, id);
  const MaskVal level_keyword = ml.bit_and(level, keyword);  // sequenced: deterministic
  const MaskVal pid_id = ml.bit_and(pid, id);
  const MaskVal indexed = indexed_scopes(b, ml, lists);  // sequenced: deterministic
  const MaskVal scope = ml.bit_and(ml.from_bools(scopes), indexed);
  return ml.bit_and(ml.bit_and(level_keyword, pid_id), scope);
}

Result<std::vector<SessionState>> sorted_sessions(const ProgramSpec& spec) {
  std::vector<SessionState> ss;
  uint64_t used = 0;
  for (const SessionEntry& e : spec.sessions) {
    if (e.slot >= 64)
      return make_error("session slot " + std::to_string(e.slot) + " is not below 64");
    if (used & (uint64_t{1} << e.slot)) {
      return make_error("session slot " + std::to_string(e.slot) + " is used twice");
    }
    used |= uint64_t{1} << e.slot;
    ss.push_back(SessionState{&e});
  }
  std::sort(ss.begin(), ss.end(), [](const SessionState& a, const SessionState& b) {
    return a.entry->slot < b.entry->slot;
  });
  return ss;
}

}  // namespace

Result<ir::Program> lower(const ProgramSpec& spec, const LowerOptions& options) {
  auto sessions = sorted_sessions(spec);
  if (!sessions) return std::unexpected(sessions.error());
  std::vector<SessionState>& ss = *sessions;
  bool legacy = spec.provider.legacy;
  IrBuilder b;
  b.defer_string_databases(options.defer_string_databases);
  uint64_t slots = 0;
  for (const SessionState& s : ss) slots |= uint64_t{1} << s.entry->slot;
  MaskLowering ml(b, slots);
  const MaskVal header = header_masks(b, ml, ss, legacy, options.index_scopes);

  std::map<EventKey, std::vector<size_t>> keys;  // key → sessions filtering it, by slot
  size_t payload_size = 0;
  for (size_t i = 0; i < ss.size() && !legacy; ++i) {
    for (const PayloadFilter& f : ss[i].entry->params->payload) {
      std::vector<size_t>& users = keys[{f.event_id, f.event_version, f.event_name}];
      if (users.empty() || users.back() != i) users.push_back(i);
      payload_size += f.expr.preds.size() + f.expr.nodes.size();
    }
  }
  // About one instruction per predicate and one per join, plus each session's checks: a
  // close estimate for large filters, where the growing vector's slack would cost most.
  b.reserve(payload_size + 64 * ss.size() + 64);
  MaskVal passed = MaskVal::constant(0);
  for (const auto& [key, users] : keys) {
    auto r = lower_key(b, ml, header, spec, key, users, ss, passed, options.index_predicates);
    if (!r) return std::unexpected(r.error());
  }
  // Payload check of session s: !filtered_s | passed_s, as one mask: the sessions whose
  // filtered keys the event does not have (one mask.if per distinct key test), or each
  // session's filter result.
  std::vector<std::pair<uint32_t, Reg>> unfiltered;
  unfiltered.reserve(ss.size());
  for (SessionState& s : ss) unfiltered.emplace_back(s.entry->slot, b.bool_not(s.filtered));
  const MaskVal payload_ok = ml.bit_or(ml.from_bools(unfiltered), passed);
  for (SessionState& s : ss)
    if (s.filtered != kFalse) note_mask(b, s.entry->slot, ir::Check::Payload, payload_ok);
  const MaskVal deliver = ml.bit_and(header, payload_ok);
  if (deliver.is_cond() && std::has_single_bit(deliver.bits))  // one session: one bit
    b.deliver(deliver.cond, uint32_t(std::countr_zero(deliver.bits)));
  else if (!deliver.is_const() || deliver.bits != 0) b.deliver_mask(ml.reg(deliver));
  for (SessionState& s : ss) b.stack(stack_select(b, *s.entry->params, legacy), s.entry->slot);
  return b.finish();
}

}  // namespace pfc
