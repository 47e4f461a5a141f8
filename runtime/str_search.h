// runtime/str_search.h — the linear-time substring search of the string predicates
// (CONTAINS / DOESNTCONTAIN, runtime/tdh.h): Knuth–Morris–Pratt over the case-folded code
// points of the field, so an event costs O(field + needle) whatever the needle. The
// needle's failure links are computed once, when a program is built (ir::StrPred), and
// passed to pfc_tdh_str_pred with the needle; both engines call that one implementation.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace pfc {

// KMP failure links of `needle`: links[i] is the length of the longest proper prefix of
// needle[0..i] that is also a suffix of it. O(needle.size()). Needles are shorter than
// 2^32 code points (scripts are at most 64 MiB, ETW filter values far less).
// needle_links into `links` (needle.size() entries), without allocating.
inline void needle_links_into(std::u32string_view needle, uint32_t* links) {
  if (needle.empty()) return;
  links[0] = 0;
  uint32_t k = 0;
  for (size_t i = 1; i < needle.size(); ++i) {
    while (k > 0 && needle[i] != needle[k]) k = links[k - 1];
    if (needle[i] == needle[k]) ++k;
    links[i] = k;
  }
}

inline std::vector<uint32_t> needle_links(std::u32string_view needle) {
  std::vector<uint32_t> links(needle.size(), 0);
  needle_links_into(needle, links.data());
  return links;
}

// One KMP step: `matched` code points of the needle (fewer than its length) matched before
// the text code point `c`; returns how many are matched after it. Amortized O(1): the loop
// only shortens a match that earlier steps lengthened one code point at a time.
inline uint64_t kmp_step(const char32_t* needle, const uint32_t* links, uint64_t matched,
                         char32_t c) {
  while (matched > 0 && needle[matched] != c) matched = links[matched - 1];
  return needle[matched] == c ? matched + 1 : 0;
}

}  // namespace pfc
