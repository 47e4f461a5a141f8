// tests/check/interval_test.cc — IntervalSet (compiler/check_interval.h): holds() on the
// edges of every part, in the gaps, at 0 and at the top of the 64-bit range, against a
// linear scan of parts().
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "compiler/check_interval.h"

namespace pfc::internal {
namespace {

bool scan(const IntervalSet& s, uint64_t v) {
  for (const auto& [lo, hi] : s.parts())
    if (lo <= v && v <= hi) return true;
  return false;
}

TEST(IntervalSet, HoldsAgreesWithTheParts) {
  const IntervalSet a = IntervalSet::range(false, 10, 20)
                            .unite(IntervalSet::point(40))
                            .unite(IntervalSet::range(false, 100, 200));
  const std::vector<IntervalSet> sets = {IntervalSet::none(), IntervalSet::all(), a, a.complement(),
                                         IntervalSet::range(true, -5, 5)};
  for (const IntervalSet& s : sets) {
    std::vector<uint64_t> probes = {0, 1, ~uint64_t{0}, ~uint64_t{0} - 1};
    for (const auto& [lo, hi] : s.parts())
      for (const uint64_t v : {lo - 1, lo, lo + 1, hi - 1, hi, hi + 1}) probes.push_back(v);
    for (const uint64_t v : probes) EXPECT_EQ(s.holds(v), scan(s, v)) << v;
  }
  EXPECT_TRUE(a.holds(40));
  EXPECT_FALSE(a.holds(41));
  EXPECT_FALSE(IntervalSet::none().holds(0));
  EXPECT_TRUE(IntervalSet::all().holds(~uint64_t{0}));
  EXPECT_TRUE(IntervalSet::range(true, -5, 5).holds(static_cast<uint64_t>(-3)));
}

}  // namespace
}  // namespace pfc::internal
