// compiler/lower_mask.cc — session masks for the header checks of all sessions at once
// (lower_mask.h, docs/ir.md §4 "Session masks").
#include "compiler/lower_mask.h"

#include <algorithm>
#include <map>

#include "base/ascii.h"

namespace pfc::internal {

using ir::Op;
using ir::Reg;

namespace {

uint64_t bit(uint32_t slot) { return uint64_t{1} << slot; }

// Keyword rules tested one by one up to this many distinct (any, all, ignore_kw0).
constexpr size_t kBooleanKeywordRules = 2;

// The map of a dense 256-entry table: its most frequent mask is `other`, the rest are keys.
ir::MaskMap compress(const std::vector<uint64_t>& table) {
  std::map<uint64_t, uint32_t> counts;
  for (uint64_t m : table) ++counts[m];
  ir::MaskMap out;
  out.other = std::max_element(counts.begin(), counts.end(), [](const auto& x, const auto& y) {
                return x.second < y.second;
              })->first;
  for (size_t k = 0; k < table.size(); ++k) {
    if (table[k] == out.other) continue;
    out.keys.push_back(k);
    out.masks.push_back(table[k]);
  }
  return out;
}

}  // namespace

Reg level_check(IrBuilder& b, uint8_t level) {
  return level == 0 ? kTrue : b.cmp(b.header(ir::HeaderField::Level), ir::Cond::ULe, level);
}

Reg keyword_check(IrBuilder& b, uint64_t any, uint64_t all, bool ignore_kw0) {
  if (any == 0 && !ignore_kw0) return kTrue;
  Reg kw = b.header(ir::HeaderField::Keyword);
  if (any == 0) return b.cmp(kw, ir::Cond::Ne, 0);  // IGNORE_KEYWORD_0; MatchAll ignored
  Reg masked = any == ~uint64_t{0} ? kw : b.and_imm(kw, any);
  Reg pass = b.cmp(masked, ir::Cond::Ne, 0);
  if (all != 0) pass = b.bool_and(pass, b.cmp(b.and_imm(kw, all), ir::Cond::Eq, all));
  if (!ignore_kw0) pass = b.bool_or(b.cmp(kw, ir::Cond::Eq, 0), pass);
  return pass;
}

MaskVal MaskVal::when(Reg v, uint64_t bits) {
  if (v == kFalse || bits == 0) return constant(0);
  if (v == kTrue) return constant(bits);
  return MaskVal{ir::kNoReg, v, bits};
}

MaskVal MaskLowering::shared_bool(Reg v, uint64_t bits, uint64_t always) {
  return bit_or(MaskVal::when(v, bits), MaskVal::constant(always));
}

MaskVal MaskLowering::bit_and(MaskVal x, MaskVal y) {
  if (x.is_const() && y.is_const()) return MaskVal::constant(x.bits & y.bits);
  if (y.is_const()) std::swap(x, y);
  if (x.is_const()) {
    if ((x.bits & sessions_) == sessions_) return y;
    if (y.is_cond()) return MaskVal::when(y.cond, y.bits & x.bits);
    if (x.bits == 0) return MaskVal::constant(0);
    return MaskVal::of(b_.and_imm(y.reg, x.bits));
  }
  if (x.is_cond() && y.is_cond() && x.bits == y.bits)
    return MaskVal::when(b_.bool_and(x.cond, y.cond), x.bits);
  const Reg a = reg(x), c = reg(y);
  if (a == c) return x;
  return MaskVal::of(b_.emit(Op::And, std::min(a, c), std::max(a, c)));
}

MaskVal MaskLowering::bit_or(MaskVal x, MaskVal y) {
  if (x.is_const() && y.is_const()) return MaskVal::constant(x.bits | y.bits);
  if (y.is_const()) std::swap(x, y);
  if (x.is_const()) {
    if (x.bits == 0) return y;
    if ((x.bits & sessions_) == sessions_) return all();
  }
  if (x.is_cond() && y.is_cond() && x.bits == y.bits)
    return MaskVal::when(b_.bool_or(x.cond, y.cond), x.bits);
  const Reg a = reg(x), c = reg(y);
  if (a == c) return x;
  return MaskVal::of(b_.emit(Op::Or, std::min(a, c), std::max(a, c)));
}

Reg MaskLowering::reg(MaskVal m) {
  if (m.is_const()) return b_.constant(m.bits);
  if (m.is_cond()) return b_.emit(Op::MaskIf, m.cond, 0, 0, m.bits);
  return m.reg;
}

MaskVal MaskLowering::from_bools(const std::vector<std::pair<uint32_t, Reg>>& per_slot,
                                 bool unlisted_pass) {
  uint64_t always = unlisted_pass ? sessions_ : 0;
  for (const auto& [slot, v] : per_slot) always &= ~bit(slot);
  std::vector<std::pair<Reg, uint64_t>> groups;  // in order of first use: deterministic
  for (const auto& [slot, v] : per_slot) {
    if (v == kTrue) always |= bit(slot);
    if (v == kTrue || v == kFalse) continue;
    auto it =
        std::find_if(groups.begin(), groups.end(), [v](const auto& g) { return g.first == v; });
    if (it == groups.end()) groups.emplace_back(v, bit(slot));
    else it->second |= bit(slot);
  }
  MaskVal out = MaskVal::constant(always);
  for (const auto& [r, bits] : groups) out = bit_or(out, MaskVal::when(r, bits));
  return out;
}

Reg MaskLowering::any_of(MaskVal m, uint64_t bits) {
  if (m.is_const()) return (m.bits & bits) != 0 ? kTrue : kFalse;
  if (m.is_cond()) return (m.bits & bits) != 0 ? m.cond : kFalse;
  const Reg v = (bits & sessions_) == sessions_ ? m.reg : b_.and_imm(m.reg, bits);
  return b_.cmp(v, ir::Cond::Ne, 0);
}

MaskVal MaskLowering::level(const std::vector<std::pair<uint32_t, uint8_t>>& levels) {
  uint8_t top = 0;
  for (const auto& [slot, l] : levels) top = std::max(top, l);
  if (top == 0) return all();
  uint64_t zero = 0, top_bits = 0;  // sessions of level 0 / of the highest level
  for (const auto& [slot, l] : levels) {
    if (l == 0) zero |= bit(slot);
    if (l == top) top_bits |= bit(slot);
  }
  if ((zero | top_bits) == sessions_)  // one level besides 0: one compare
    return shared_bool(level_check(b_, top), top_bits, zero);
  ir::MaskMap m;
  for (uint32_t e = 0; e <= top; ++e) {
    uint64_t mask = 0;
    for (const auto& [slot, l] : levels)
      if (e == 0 || l == 0 || e <= l) mask |= bit(slot);
    m.keys.push_back(e);
    m.masks.push_back(mask);
  }
  for (const auto& [slot, l] : levels)
    if (l == 0) m.other |= bit(slot);
  return MaskVal::of(b_.emit(Op::MaskMap, b_.header(ir::HeaderField::Level), b_.mask_map(m)));
}

Reg MaskLowering::byte_lookup(Reg value, uint32_t byte, const std::vector<uint64_t>& table) {
  return b_.emit(Op::MaskByte, value, byte, b_.mask_map(compress(table)));
}

// For a non-zero keyword: (OR_j any_j[byte j] | always) & AND_j all_j[byte j] over the
// bytes j some rule names (one combined table when there is one such byte); keyword 0:
// the sessions without IGNORE_KEYWORD_0.
MaskVal MaskLowering::keyword(const std::vector<KeywordRule>& rules) {
  uint64_t always = 0, zero = 0, used = 0;
  for (const KeywordRule& r : rules) {
    if (r.any == 0) always |= bit(r.slot);
    if (!r.ignore_kw0) zero |= bit(r.slot);
    if (r.any != 0) used |= r.any | r.all;
  }
  if ((always & zero) == sessions_) return all();
  // Up to kBooleanKeywordRules distinct rules besides those that always pass: each rule's
  // own test, shared by its sessions (cheaper than a table lookup).
  std::vector<const KeywordRule*> distinct;
  for (const KeywordRule& r : rules) {
    auto same = [&r](const KeywordRule* d) {
      return d->any == r.any && d->all == r.all && d->ignore_kw0 == r.ignore_kw0;
    };
    if ((r.any != 0 || r.ignore_kw0) && std::none_of(distinct.begin(), distinct.end(), same))
      distinct.push_back(&r);
  }
  if (distinct.size() <= kBooleanKeywordRules) {
    std::vector<std::pair<uint32_t, Reg>> tests;
    tests.reserve(rules.size());
    for (const KeywordRule& r : rules)
      tests.emplace_back(r.slot, keyword_check(b_, r.any, r.all, r.ignore_kw0));
    return from_bools(tests);
  }
  std::vector<uint32_t> bytes;
  for (uint32_t j = 0; j < 8; ++j)
    if ((used >> (8 * j)) & 0xFF) bytes.push_back(j);
  const Reg kw = b_.header(ir::HeaderField::Keyword);
  MaskVal any = MaskVal::constant(always), all_of = all();
  for (uint32_t j : bytes) {
    std::vector<uint64_t> a(256, 0), l(256, 0);
    for (uint64_t v = 0; v < 256; ++v) {
      const uint64_t k = v << (8 * j), in_byte = uint64_t{0xFF} << (8 * j);
      for (const KeywordRule& r : rules) {
        if (r.any != 0 && (k & r.any) != 0) a[v] |= bit(r.slot);
        if (r.any == 0 || (k & r.all) == (r.all & in_byte)) l[v] |= bit(r.slot);
      }
      if (bytes.size() == 1) a[v] = (a[v] | always) & l[v];
    }
    if (bytes.size() == 1) {
      any = MaskVal::of(byte_lookup(kw, j, a));
      break;
    }
    any = bit_or(any, MaskVal::of(byte_lookup(kw, j, a)));
    if (std::any_of(l.begin(), l.end(), [&](uint64_t m) { return m != sessions_; }))
      all_of = bit_and(all_of, MaskVal::of(byte_lookup(kw, j, l)));
  }
  const MaskVal nonzero = bit_and(any, all_of);
  if (nonzero.is_const() && nonzero.bits == zero) return nonzero;
  const Reg is_zero = b_.cmp(kw, ir::Cond::Eq, 0);
  const Reg if_nonzero = reg(nonzero);  // sequenced: deterministic order
  const Reg if_zero = reg(MaskVal::constant(zero));
  return MaskVal::of(b_.emit(Op::Select, is_zero, if_zero, if_nonzero));
}

MaskVal MaskLowering::list(ir::HeaderField field, const std::vector<ListRule>& rules) {
  if (rules.empty()) return all();
  if (rules.size() == 1) {  // one session: the set test itself
    std::vector<uint64_t> v = rules[0].values;
    Reg in = b_.emit(Op::InSet, b_.header(field), b_.int_set(std::move(v)));
    return shared_bool(rules[0].filter_in ? in : b_.bool_not(in), bit(rules[0].slot),
                       sessions_ & ~bit(rules[0].slot));
  }
  uint64_t without = sessions_;
  std::vector<uint64_t> keys;
  for (const ListRule& r : rules) {
    without &= ~bit(r.slot);
    keys.insert(keys.end(), r.values.begin(), r.values.end());
  }
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  ir::MaskMap m;
  m.keys = keys;
  m.masks.assign(keys.size(), without);
  m.other = without;
  for (const ListRule& r : rules) {
    if (!r.filter_in) m.other |= bit(r.slot);
    for (size_t k = 0; k < keys.size(); ++k) {
      const bool listed = std::binary_search(r.values.begin(), r.values.end(), keys[k]);
      if (listed == r.filter_in) m.masks[k] |= bit(r.slot);
    }
  }
  return MaskVal::of(b_.emit(Op::MaskMap, b_.header(field), b_.mask_map(std::move(m))));
}

// Position k + 1 of the union set (what str.index yields for its k-th value): the sessions
// listing that value, and those without a list; `other` (0: not listed) only the latter.
// A value is in a session's folded list iff its folded form is, so each session's bit is
// set exactly where its own str.in would hold.
MaskVal MaskLowering::str_list(ir::HeaderString which, const std::vector<StrListRule>& rules) {
  uint64_t without = sessions_;
  std::vector<std::string> values;
  for (const StrListRule& r : rules) {
    without &= ~bit(r.slot);
    values.insert(values.end(), r.values->begin(), r.values->end());
  }
  const uint32_t set = b_.str_set(std::move(values), /*case_insensitive=*/true);
  const std::vector<std::string>& keys = b_.str_set_values(set);  // folded, sorted, unique
  ir::MaskMap m;
  m.other = without;
  m.masks.assign(keys.size(), without);
  for (size_t k = 0; k < keys.size(); ++k) m.keys.push_back(k + 1);
  for (const StrListRule& r : rules) {
    for (const std::string& v : *r.values) {
      auto at = std::lower_bound(keys.begin(), keys.end(), to_ascii_lower(v));
      m.masks[size_t(at - keys.begin())] |= bit(r.slot);
    }
  }
  const Reg index = b_.emit(Op::StrIndex, uint32_t(which), set);
  return MaskVal::of(b_.emit(Op::MaskMap, index, b_.mask_map(std::move(m))));
}

}  // namespace pfc::internal
