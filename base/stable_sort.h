// base/stable_sort.h — a stable sort of a vector by a strict weak order. Not std::stable_sort:
// libstdc++ 12 implements it with std::get_temporary_buffer, which is deprecated in C++23 and
// breaks clang -Werror builds. Sorts positions with std::sort, ties broken by position, then
// moves the elements into that order: O(n log n) time, n positions and n elements of memory.
#pragma once

#include <algorithm>
#include <cstddef>
#include <numeric>
#include <utility>
#include <vector>

namespace pfc {

template <class T, class Less>
void stable_sort_by(std::vector<T>& items, Less less) {
  std::vector<size_t> order(items.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::sort(order.begin(), order.end(), [&](size_t i, size_t j) {
    if (less(items[i], items[j])) return true;
    if (less(items[j], items[i])) return false;
    return i < j;
  });
  std::vector<T> sorted;
  sorted.reserve(items.size());
  for (size_t i : order) sorted.push_back(std::move(items[i]));
  items = std::move(sorted);
}

}  // namespace pfc
