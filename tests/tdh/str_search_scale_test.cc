// tests/tdh/str_search_scale_test.cc — CONTAINS costs O(field + needle) (issue B9): a
// 4,001-character needle (4,000 'a' then 'b') against 32,000 'a' — the naive search's worst
// case, 105 ms per event before — 300 times over, in UTF-16 (terminated and with a length)
// and 8-bit fields. Linear: about 0.1 s in all; ctest's 30 s timeout (several hundred
// times that) fails the quadratic search, which needed minutes.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "pfc/enable.h"
#include "runtime/casefold.h"
#include "runtime/str_search.h"
#include "runtime/tdh.h"

namespace pfc {
namespace {

TEST(StrSearchScale, WorstCaseNeedleIsLinear) {
  const std::u32string needle = fold_utf8(std::string(4000, 'a') + "b");
  const std::vector<uint32_t> links = needle_links(needle);
  std::vector<uint8_t> wide;
  for (int i = 0; i < 32000; ++i) wide.insert(wide.end(), {'A', 0});
  wide.insert(wide.end(), {0, 0});
  const std::vector<uint8_t> narrow(32000, 'a');
  const auto op = uint32_t(PayloadOp::Contains);
  int hits = 0;
  for (int i = 0; i < 100; ++i) {
    hits += pfc_tdh_str_pred(wide.data(), wide.size(), 0, 1, PFC_TDH_NO_LENGTH, op, needle.data(),
                             needle.size(), links.data());
    hits += pfc_tdh_str_pred(wide.data(), wide.size(), 0, 1, 32000, op, needle.data(),
                             needle.size(), links.data());
    hits += pfc_tdh_str_pred(narrow.data(), narrow.size(), 0, 2, 32000, op, needle.data(),
                             needle.size(), links.data());
  }
  EXPECT_EQ(hits, 0);
  wide[2 * 31999] = 'b';  // now the field ends with the needle
  EXPECT_EQ(pfc_tdh_str_pred(wide.data(), wide.size(), 0, 1, PFC_TDH_NO_LENGTH, op, needle.data(),
                             needle.size(), links.data()),
            1);
}

// The vector search of an ASCII needle in UTF-16 verifies candidates whose first and last
// units match: a needle with a late mismatch in its middle makes every unit such a
// candidate, and the search must still be linear (it hands over to KMP), in both case forms.
TEST(StrSearchScale, MiddleMismatchNeedleIsLinearInUtf16) {
  const std::u32string needle = fold_utf8(std::string(2000, 'a') + "b" + std::string(2000, 'a'));
  const std::vector<uint32_t> links = needle_links(needle);
  std::vector<uint8_t> wide;
  for (int i = 0; i < 32000; ++i) wide.insert(wide.end(), {'a', 0});
  wide.insert(wide.end(), {0, 0});
  int hits = 0;
  for (int i = 0; i < 100; ++i) {
    for (const PayloadOp op : {PayloadOp::Contains, PayloadOp::ContainsCs}) {
      hits += pfc_tdh_str_pred(wide.data(), wide.size(), 0, 1, PFC_TDH_NO_LENGTH, uint32_t(op),
                               needle.data(), needle.size(), links.data());
      hits += pfc_tdh_str_pred(wide.data(), wide.size(), 0, 1, 32000, uint32_t(op), needle.data(),
                               needle.size(), links.data());
    }
  }
  EXPECT_EQ(hits, 0);
  wide[2 * 29000] = 'B';  // now the field holds the needle (units 27000..31000)
  EXPECT_EQ(
      pfc_tdh_str_pred(wide.data(), wide.size(), 0, 1, PFC_TDH_NO_LENGTH,
                       uint32_t(PayloadOp::Contains), needle.data(), needle.size(), links.data()),
      1);
}

}  // namespace
}  // namespace pfc
