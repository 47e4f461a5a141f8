// compiler/lower_mask.h — internal to the lowering: session-mask values and the header
// checks of all sessions at once (docs/ir.md §4 "Session masks"): level, keyword, PID,
// event-ID and scope-list checks become a few table lookups whatever the number of sessions.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "compiler/lower_builder.h"

namespace pfc::internal {

// A session mask during lowering, one of: a register holding the mask (`reg`); a boolean
// register `cond` standing for `cond ? bits : 0`, not yet turned into a mask.if (so one
// session's checks stay booleans); or the constant `bits` (both kNoReg). Every mask the
// lowering builds only has bits of existing sessions.
struct MaskVal {
  ir::Reg reg = ir::kNoReg;
  ir::Reg cond = ir::kNoReg;
  uint64_t bits = 0;
  bool is_const() const { return reg == ir::kNoReg && cond == ir::kNoReg; }
  bool is_cond() const { return reg == ir::kNoReg && cond != ir::kNoReg; }
  static MaskVal constant(uint64_t bits) { return MaskVal{ir::kNoReg, ir::kNoReg, bits}; }
  static MaskVal of(ir::Reg r) { return MaskVal{r, ir::kNoReg, 0}; }
  // `v ? bits : 0` for a boolean v (a register or kTrue / kFalse).
  static MaskVal when(ir::Reg v, uint64_t bits);
};

// docs/semantics.md §1.1 for one level, as a boolean (kTrue when level is 0).
ir::Reg level_check(IrBuilder& b, uint8_t level);
// docs/semantics.md §1.2 for one (any, all), as a boolean (kTrue when it always passes).
ir::Reg keyword_check(IrBuilder& b, uint64_t any, uint64_t all, bool ignore_kw0);

// One session's keyword rule (docs/semantics.md §1.2).
struct KeywordRule {
  uint32_t slot = 0;
  uint64_t any = 0;
  uint64_t all = 0;
  bool ignore_kw0 = false;
};

// One session's list check on an integer header field (sessions without the check have no
// rule): it passes iff (value ∈ values) == filter_in.
struct ListRule {
  uint32_t slot = 0;
  std::vector<uint64_t> values;
  bool filter_in = true;
};

// One session's list on an event string (docs/semantics.md §1.3 exe / package_id /
// app_id): it passes iff the string is listed, ASCII case-insensitively.
struct StrListRule {
  uint32_t slot = 0;
  const std::vector<std::string>* values = nullptr;
};

class MaskLowering {
 public:
  // `sessions`: the bits of every session slot of the program.
  MaskLowering(IrBuilder& b, uint64_t sessions) : b_(b), sessions_(sessions) {}

  MaskVal all() const { return MaskVal::constant(sessions_); }
  MaskVal bit_and(MaskVal x, MaskVal y);
  MaskVal bit_or(MaskVal x, MaskVal y);
  ir::Reg reg(MaskVal m);  // a register holding m
  // Bit `slot` set iff the session's boolean (a register or kTrue / kFalse) is non-zero;
  // sessions sharing a register share one mask.if; sessions not listed are set iff
  // `unlisted_pass`.
  MaskVal from_bools(const std::vector<std::pair<uint32_t, ir::Reg>>& per_slot,
                     bool unlisted_pass = true);
  // Boolean (register or kTrue / kFalse): m & bits != 0.
  ir::Reg any_of(MaskVal m, uint64_t bits);

  // docs/semantics.md §1.1: the sessions whose level (by slot) accepts the event's level.
  MaskVal level(const std::vector<std::pair<uint32_t, uint8_t>>& levels);
  // §1.2: the sessions whose keyword rule accepts the event's keyword.
  MaskVal keyword(const std::vector<KeywordRule>& rules);
  // §1.3 / §1.4: sessions without a rule pass; the others per their list.
  MaskVal list(ir::HeaderField field, const std::vector<ListRule>& rules);
  // §1.3 string lists of several sessions on one event string: one str.index over the
  // union of their lists, then one mask.map keyed by the position (docs/ir.md §4); sessions
  // without a rule pass.
  MaskVal str_list(ir::HeaderString which, const std::vector<StrListRule>& rules);

 private:
  // One boolean shared by the sessions `bits` (others: `always`), as a mask.
  MaskVal shared_bool(ir::Reg v, uint64_t bits, uint64_t always);
  ir::Reg byte_lookup(ir::Reg value, uint32_t byte, const std::vector<uint64_t>& table);

  IrBuilder& b_;
  uint64_t sessions_;
};

}  // namespace pfc::internal
