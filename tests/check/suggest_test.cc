// tests/check/suggest_test.cc — closest-name suggestions (base/suggest.h).
#include "base/suggest.h"

#include <gtest/gtest.h>

#include <vector>

namespace pfc::internal {
namespace {

TEST(EditDistance, Table) {
  struct Row {
    std::string_view a, b;
    size_t want;
  };
  const Row rows[] = {
      {"", "", 0},           {"abc", "abc", 0},       {"abc", "ABC", 0},
      {"Levle", "Level", 1}, {"ca", "abc", 3},        {"kitten", "sitting", 3},
      {"", "abcd", 4},       {"uint23", "uint32", 1}, {"stack_trce", "stack_trace", 1},
      {"ab", "ba", 1},       {"abcdef", "badcfe", 3},
  };
  for (const Row& r : rows) {
    EXPECT_EQ(edit_distance(r.a, r.b, 100), r.want) << r.a << " / " << r.b;
    EXPECT_EQ(edit_distance(r.b, r.a, 100), r.want) << r.b << " / " << r.a;
  }
  // The limit cuts the computation short and reports limit + 1.
  EXPECT_EQ(edit_distance("kitten", "sitting", 1), 2u);
  EXPECT_EQ(edit_distance("a", "abcdefgh", 3), 4u);
}

TEST(ClosestName, OffersWithinThreshold) {
  const std::vector<std::string_view> names = {"Initiator", "Level", "Levels", "Title"};
  EXPECT_EQ(closest_name("Levle", names), 1u);
  EXPECT_EQ(closest_name("level", names), 1u);   // case-insensitive
  EXPECT_EQ(closest_name("Levelz", names), 1u);  // tie Level/Levels → first declared
  EXPECT_EQ(closest_name("Initiatr", names), 0u);
  EXPECT_EQ(closest_name("Xyz", names), std::nullopt);
  EXPECT_EQ(closest_name("Tx", names), std::nullopt);     // 2 edits > max(1, 2/3)
  EXPECT_EQ(closest_name("Level", names), std::nullopt);  // exact: not a misspelling
  EXPECT_EQ(closest_name(std::string(300, 'a'), names), std::nullopt);
  EXPECT_EQ(closest_name("x", std::vector<std::string_view>{}), std::nullopt);
}

TEST(DidYouMean, Text) {
  const std::vector<std::string_view> names = {"stack_trace", "sid"};
  EXPECT_EQ(did_you_mean("stack_trce", names), "; did you mean 'stack_trace'?");
  EXPECT_EQ(did_you_mean("zzzzzz", names), "");
}

}  // namespace
}  // namespace pfc::internal
