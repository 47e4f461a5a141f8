// compiler/check_interval.h — sets of 64-bit integer values as sorted, disjoint, closed
// intervals, for the checker's interval analysis of lowered payload predicates
// (compiler/check_absint.h). Values are the IR's: a field's bits zero- or sign-extended to
// 64; signed ranges that cross zero become two unsigned intervals. Internal to compiler/.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "pfc/enable.h"
#include "pfc/schema.h"

namespace pfc::internal {

class IntervalSet {
 public:
  static IntervalSet none() { return {}; }
  static IntervalSet all() { return range(false, 0, ~uint64_t{0}); }
  // {v : lo <= v <= hi}, ordered signed (as int64) or unsigned; empty when lo > hi.
  static IntervalSet range(bool is_signed, uint64_t lo, uint64_t hi);
  static IntervalSet point(uint64_t v) { return range(false, v, v); }
  // Every value a scalar integer field of type `t` can hold (after extension to 64 bits).
  static IntervalSet domain(InType t);
  // Sets `out` to the values v for which the IR's integer predicate `op` (lo, hi) holds,
  // compared signed or unsigned; false (out untouched) for an operator intervals cannot
  // describe (modulo).
  static bool of_pred(PayloadOp op, bool is_signed, uint64_t lo, uint64_t hi, IntervalSet& out);

  IntervalSet intersect(const IntervalSet& o) const;
  IntervalSet unite(const IntervalSet& o) const;
  IntervalSet complement() const;  // within all 64-bit values
  bool empty() const { return parts_.empty(); }
  // The closed intervals [lo, hi], sorted, disjoint and not adjacent.
  const std::vector<std::pair<uint64_t, uint64_t>>& parts() const { return parts_; }
  bool contains(const IntervalSet& o) const { return o.intersect(*this) == o; }
  bool holds(uint64_t v) const;  // v is in the set (a binary search)
  friend bool operator==(const IntervalSet&, const IntervalSet&) = default;

 private:
  void add(uint64_t lo, uint64_t hi);  // appends, merging with the last part (sorted input)
  std::vector<std::pair<uint64_t, uint64_t>> parts_;  // sorted, disjoint, not adjacent
};

}  // namespace pfc::internal
