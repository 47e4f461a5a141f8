// tests/base/stable_sort_test.cc — base/stable_sort.h: sorted by the order, equal keys in
// their original order, on empty, single, all-equal and random inputs with many ties.
#include "base/stable_sort.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <utility>
#include <vector>

namespace pfc {
namespace {

using Item = std::pair<int, int>;  // key, original position
bool by_key(const Item& a, const Item& b) { return a.first < b.first; }

TEST(StableSort, EmptyAndSingle) {
  std::vector<Item> none;
  stable_sort_by(none, by_key);
  EXPECT_TRUE(none.empty());
  std::vector<Item> one{{3, 0}};
  stable_sort_by(one, by_key);
  EXPECT_EQ(one, (std::vector<Item>{{3, 0}}));
}

TEST(StableSort, EqualKeysKeepTheirOrder) {
  std::vector<Item> all{{1, 0}, {1, 1}, {1, 2}, {1, 3}};
  stable_sort_by(all, by_key);
  EXPECT_EQ(all, (std::vector<Item>{{1, 0}, {1, 1}, {1, 2}, {1, 3}}));
  std::vector<Item> mixed{{2, 0}, {1, 1}, {2, 2}, {0, 3}, {1, 4}};
  stable_sort_by(mixed, by_key);
  EXPECT_EQ(mixed, (std::vector<Item>{{0, 3}, {1, 1}, {1, 4}, {2, 0}, {2, 2}}));
}

// Random keys from a small range (many ties): the result is ordered by (key, position),
// which is exactly what a stable sort by key gives.
TEST(StableSort, RandomInputsWithTies) {
  std::mt19937 rng(7);
  for (int n : {2, 3, 10, 100, 1000}) {
    std::vector<Item> items;
    items.reserve(size_t(n));
    for (int i = 0; i < n; ++i) items.emplace_back(int(rng() % 7), i);
    stable_sort_by(items, by_key);
    for (size_t i = 1; i < items.size(); ++i)
      ASSERT_LT(items[i - 1], items[i]) << "n " << n << " at " << i;
  }
}

TEST(StableSort, MovesElements) {
  std::vector<std::string> words{"bb", "a", "cc", "d"};
  stable_sort_by(words,
                 [](const std::string& a, const std::string& b) { return a.size() < b.size(); });
  EXPECT_EQ(words, (std::vector<std::string>{"a", "d", "bb", "cc"}));
}

}  // namespace
}  // namespace pfc
