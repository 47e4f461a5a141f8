// compiler/lower_payload.h — internal to the lowering: payload filters of one event
// (id, version), lowered inside that event's guarded region (docs/semantics.md §2).
#pragma once

#include <cstdint>
#include <expected>
#include <optional>
#include <string>
#include <vector>

#include "base/error.h"
#include "compiler/lower_builder.h"
#include "pfc/enable.h"
#include "pfc/schema.h"

namespace pfc::internal {

// The pool entry of string predicate `op` `text` (folded unless `.cs`; MATCHES: the compiled
// glob; REGEX: the compiled RE2 object), or what is wrong with the pattern.
std::expected<ir::StrPred, std::string> string_pred(PayloadOp op, const std::string& text);

// Field offsets, loaded count/length values and predicates of one event, each computed once
// and shared by every session's filters. Offsets of leading fixed-size fields are folded to
// constants; later ones come from Skip. Use only between begin_region/end_region of the
// event's guard. Not thread-safe; lives for one region.
class PayloadLowering {
 public:
  PayloadLowering(IrBuilder& b, const EventDef& event)
      : b_(b), event_(event), off_(event.fields.size(), ir::kNoReg),
        const_(event.fields.size(), kNotConst), value_(event.fields.size(), ir::kNoReg) {}

  // One session's filters for this event: every group_all filter passes and (no group_any
  // filter exists, or one passes).
  Result<ir::Reg> session_filters(const std::vector<const PayloadFilter*>& filters);
  // The boolean of node `root` of `e` and the nodes below it (docs/semantics.md §2).
  Result<ir::Reg> expr(const PayloadExpr& e, uint32_t root);
  // mask.range over scalar integer field `field` with `map` (docs/ir.md §4 "Predicate
  // indexing"): a session mask.
  Result<ir::Reg> mask_range(uint32_t field, ir::RangeMap map);
  // A pattern of mask.strs: a string predicate on the field and the sessions it passes.
  struct StrPattern {
    const PayloadPredicate* pred;
    uint64_t mask;
  };
  // mask.strs over scalar string field `field` (docs/ir.md §4 "String indexing"): `base`
  // or'ed with the masks of the patterns that hold (equal predicates share one pattern).
  Result<ir::Reg> mask_strs(uint32_t field, const std::vector<StrPattern>& patterns, uint64_t base);

 private:
  Result<ir::Reg> expr(const PayloadExpr& e);
  Result<std::vector<bool>> reached(const PayloadExpr& e, uint32_t root);
  Result<ir::Reg> predicate(const PayloadPredicate& p);
  Result<ir::StrPred> str_pred(const PayloadPredicate& p);
  Result<ir::Reg> decodable(uint32_t field);
  Result<ir::Reg> field_compare(const PayloadPredicate& p);
  std::optional<uint32_t> set_field(const PayloadExpr& e, const PayloadExpr::Node& n);
  Result<ir::Reg> set_test(const PayloadExpr& e, const PayloadExpr::Node& n, uint32_t field);
  Result<ir::Reg> offset_of(uint32_t field);
  Result<ir::Reg> value_of(uint32_t field);
  Result<ir::Reg> extent_reg(const Extent& e, uint32_t field);
  Result<uint32_t> desc_of(uint32_t field);

  IrBuilder& b_;
  const EventDef& event_;
  static constexpr uint64_t kNotConst = ~uint64_t{0};
  std::vector<ir::Reg> off_;     // offset register per field (kNoReg = not yet)
  std::vector<uint64_t> const_;  // constant offset per field, or kNotConst
  std::vector<ir::Reg> value_;   // LoadField register per count/length source field
  uint32_t next_ = 0;            // offsets known for fields [0, next_)
};

}  // namespace pfc::internal
