// compiler/check_interval.cc — IntervalSet (check_interval.h).
#include "compiler/check_interval.h"

#include <algorithm>

namespace pfc::internal {
namespace {

constexpr uint64_t kSignBit = uint64_t{1} << 63;

uint64_t min_of(bool is_signed) { return is_signed ? kSignBit : 0; }
uint64_t max_of(bool is_signed) { return is_signed ? kSignBit - 1 : ~uint64_t{0}; }
// Order-preserving map of the signed order onto the unsigned one.
uint64_t key(bool is_signed, uint64_t v) { return is_signed ? v ^ kSignBit : v; }

}  // namespace

void IntervalSet::add(uint64_t lo, uint64_t hi) {
  if (!parts_.empty()) {
    auto& last = parts_.back();
    if (last.second == ~uint64_t{0} || last.second + 1 >= lo) {
      last.second = std::max(last.second, hi);
      return;
    }
  }
  parts_.emplace_back(lo, hi);
}

IntervalSet IntervalSet::range(bool is_signed, uint64_t lo, uint64_t hi) {
  IntervalSet s;
  if (key(is_signed, lo) > key(is_signed, hi)) return s;
  if (!is_signed || (lo & kSignBit) == (hi & kSignBit)) {
    s.add(lo, hi);
  } else {  // negative lo, non-negative hi: [0, hi] and [lo, 2^64 - 1]
    s.add(0, hi);
    s.add(lo, ~uint64_t{0});
  }
  return s;
}

IntervalSet IntervalSet::domain(InType t) {
  const uint32_t bytes = in_type_fixed_size(t);
  if (bytes == 0 || bytes >= 8) return all();
  const uint32_t bits = bytes * 8;
  if (!in_type_is_signed(t)) return range(false, 0, (uint64_t{1} << bits) - 1);
  const uint64_t max = (uint64_t{1} << (bits - 1)) - 1;
  return range(true, ~max, max);  // ~max is -2^(bits-1) sign-extended
}

bool IntervalSet::of_pred(PayloadOp op, bool sg, uint64_t lo, uint64_t hi, IntervalSet& out) {
  const uint64_t mn = min_of(sg);
  const uint64_t mx = max_of(sg);
  switch (op) {
    case PayloadOp::Eq: out = point(lo); return true;
    case PayloadOp::Ne: out = point(lo).complement(); return true;
    case PayloadOp::Le: out = range(sg, mn, lo); return true;
    case PayloadOp::Ge: out = range(sg, lo, mx); return true;
    case PayloadOp::Lt: out = lo == mn ? none() : range(sg, mn, lo - 1); return true;
    case PayloadOp::Gt: out = lo == mx ? none() : range(sg, lo + 1, mx); return true;
    case PayloadOp::Between: out = range(sg, lo, hi); return true;
    case PayloadOp::NotBetween: out = range(sg, lo, hi).complement(); return true;
    default: return false;
  }
}

IntervalSet IntervalSet::intersect(const IntervalSet& o) const {
  IntervalSet s;
  size_t i = 0;
  size_t j = 0;
  while (i < parts_.size() && j < o.parts_.size()) {
    const uint64_t lo = std::max(parts_[i].first, o.parts_[j].first);
    const uint64_t hi = std::min(parts_[i].second, o.parts_[j].second);
    if (lo <= hi) s.add(lo, hi);
    (parts_[i].second < o.parts_[j].second ? i : j)++;
  }
  return s;
}

IntervalSet IntervalSet::unite(const IntervalSet& o) const {
  std::vector<std::pair<uint64_t, uint64_t>> all_parts = parts_;
  all_parts.insert(all_parts.end(), o.parts_.begin(), o.parts_.end());
  std::sort(all_parts.begin(), all_parts.end());
  IntervalSet s;
  for (const auto& [lo, hi] : all_parts) s.add(lo, hi);
  return s;
}

bool IntervalSet::holds(uint64_t v) const {
  auto it = std::upper_bound(parts_.begin(), parts_.end(), v,
                             [](uint64_t x, const auto& part) { return x < part.first; });
  return it != parts_.begin() && v <= std::prev(it)->second;
}

IntervalSet IntervalSet::complement() const {
  IntervalSet s;
  uint64_t next = 0;  // first value not yet covered
  bool done = false;
  for (const auto& [lo, hi] : parts_) {
    if (lo > next) s.add(next, lo - 1);
    if (hi == ~uint64_t{0}) {
      done = true;
      break;
    }
    next = hi + 1;
  }
  if (!done) s.add(next, ~uint64_t{0});
  return s;
}

}  // namespace pfc::internal
