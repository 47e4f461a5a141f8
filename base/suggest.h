// base/suggest.h — "did you mean ...?" suggestions for misspelt names in scripts: the
// closest candidate by case-insensitive Damerau-Levenshtein distance (optimal string
// alignment). Used by compiler/check and the parser (grammar/parse.cc) for unknown types, fields,
// events, providers, properties.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace pfc::internal {

// Names longer than this get no suggestion (keeps the O(n·m) distance bounded).
inline constexpr size_t kMaxSuggestLength = 256;

// Case-insensitive (ASCII) optimal-string-alignment distance between `a` and `b`: the number
// of single-byte insertions, deletions, substitutions and adjacent transpositions. Stops early
// and returns `limit + 1` once the distance is known to exceed `limit`.
size_t edit_distance(std::string_view a, std::string_view b, size_t limit);

// The candidate closest to `wrong`, offered only when its distance is at most
// max(1, wrong.size() / 3); ties go to the earliest candidate. Returns the index into
// `candidates`, or nullopt (also for names longer than kMaxSuggestLength, and for an exact
// case-sensitive match, which is not a misspelling). Pure; thread-safe.
std::optional<size_t> closest_name(std::string_view wrong,
                                   std::span<const std::string_view> candidates);

// "; did you mean 'X'?" for the closest candidate, or "" when there is none.
std::string did_you_mean(std::string_view wrong, std::span<const std::string_view> candidates);

}  // namespace pfc::internal
