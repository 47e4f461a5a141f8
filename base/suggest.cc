// base/suggest.cc — closest-name suggestions for diagnostics (see suggest.h).
#include "base/suggest.h"

#include <algorithm>
#include <vector>

#include "base/ascii.h"

namespace pfc::internal {

size_t edit_distance(std::string_view a, std::string_view b, size_t limit) {
  const size_t n = a.size();
  const size_t m = b.size();
  if ((n > m ? n - m : m - n) > limit) return limit + 1;
  // Three rolling rows: before-previous (for transpositions), previous, current.
  std::vector<size_t> prev2(m + 1), prev(m + 1), cur(m + 1);
  for (size_t j = 0; j <= m; ++j) prev[j] = j;
  for (size_t i = 1; i <= n; ++i) {
    cur[0] = i;
    size_t row_min = cur[0];
    for (size_t j = 1; j <= m; ++j) {
      const bool same = ascii_lower(a[i - 1]) == ascii_lower(b[j - 1]);
      size_t d = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (same ? 0 : 1)});
      if (i > 1 && j > 1 && ascii_lower(a[i - 1]) == ascii_lower(b[j - 2]) &&
          ascii_lower(a[i - 2]) == ascii_lower(b[j - 1])) {
        d = std::min(d, prev2[j - 2] + 1);
      }
      cur[j] = d;
      row_min = std::min(row_min, d);
    }
    if (row_min > limit) return limit + 1;  // every later row is at least this large
    std::swap(prev2, prev);
    std::swap(prev, cur);
  }
  return std::min(prev[m], limit + 1);
}

std::optional<size_t> closest_name(std::string_view wrong,
                                   std::span<const std::string_view> candidates) {
  if (wrong.size() > kMaxSuggestLength) return std::nullopt;
  const size_t limit = std::max<size_t>(1, wrong.size() / 3);
  std::optional<size_t> best;
  size_t best_distance = limit + 1;
  for (size_t i = 0; i < candidates.size(); ++i) {
    if (candidates[i] == wrong) return std::nullopt;  // not a misspelling
    const size_t d = edit_distance(wrong, candidates[i], limit);
    if (d < best_distance) {
      best_distance = d;
      best = i;
    }
  }
  return best;
}

std::string did_you_mean(std::string_view wrong, std::span<const std::string_view> candidates) {
  const std::optional<size_t> i = closest_name(wrong, candidates);
  if (!i) return {};
  return "; did you mean '" + std::string(candidates[*i]) + "'?";
}

}  // namespace pfc::internal
