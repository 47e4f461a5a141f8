// runtime/glob.cc — the glob compiler of glob.h. Works on the pattern's code points; error
// offsets are mapped back to bytes for diagnostics.
#include "runtime/glob.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "base/utf8.h"
#include "runtime/casefold.h"

namespace pfc {
namespace {

struct Reader {
  std::u32string cps;
  std::vector<size_t> bytes;  // byte offset of each code point (and one past the end)
  size_t i = 0;
  bool done() const { return i >= cps.size(); }
};

Reader read_pattern(std::string_view pattern) {
  Reader r;
  const auto* p = reinterpret_cast<const uint8_t*>(pattern.data());
  const uint8_t* end = p + pattern.size();
  const uint8_t* start = p;
  while (p < end) {
    r.bytes.push_back(static_cast<size_t>(p - start));
    r.cps.push_back(decode_utf8_step(p, end));
  }
  r.bytes.push_back(pattern.size());
  return r;
}

using Ranges = std::vector<std::pair<char32_t, char32_t>>;

// What a case-insensitive class matches, for the folded text (docs/semantics.md §2.2): a
// character c is in it iff c or a character with c's simple case folding is a member as
// written, i.e. iff fold(c) is a member or the folding of one. So the members as written
// plus their foldings, sorted and merged. (Members that do not fold to themselves never
// meet folded text and need not be removed; folding is idempotent.)
Ranges folded_members(const Ranges& written) {
  Ranges all = written;
  for (const auto& [lo, hi] : written) {
    Ranges more = foldings_in(lo, hi);
    all.insert(all.end(), more.begin(), more.end());
  }
  std::sort(all.begin(), all.end());
  Ranges merged;
  for (const auto& [lo, hi] : all) {
    if (!merged.empty() && lo <= merged.back().second + 1)
      merged.back().second = std::max(merged.back().second, hi);
    else merged.emplace_back(lo, hi);
  }
  return merged;
}

// One `[...]` starting after the `[` (r.i); appends its token. False on an unterminated class
// or a reversed range (error set).
bool compile_class(Reader& r, bool fold, GlobResult& out) {
  const size_t open = r.i - 1;
  bool negate = false;
  if (!r.done() && (r.cps[r.i] == U'!' || r.cps[r.i] == U'^')) negate = true, ++r.i;
  Ranges ranges;
  bool first = true;
  while (true) {
    if (r.done()) {
      out.error = "unterminated '[' in glob pattern";
      out.error_at = r.bytes[open];
      return false;
    }
    char32_t c = r.cps[r.i++];
    if (c == U']' && !first) break;
    first = false;
    if (c == U'\\' && !r.done()) c = r.cps[r.i++];
    char32_t hi = c;
    if (r.i + 1 < r.cps.size() && r.cps[r.i] == U'-' && r.cps[r.i + 1] != U']') {
      r.i += 1;
      hi = r.cps[r.i++];
      if (hi == U'\\' && !r.done()) hi = r.cps[r.i++];
      if (hi < c) {
        out.error = "empty range in glob pattern class";
        out.error_at = r.bytes[open];
        return false;
      }
    }
    ranges.emplace_back(c, hi);
  }
  if (fold) ranges = folded_members(ranges);
  out.code.push_back(negate ? kGlobNotClass : kGlobClass);
  out.code.push_back(static_cast<char32_t>(ranges.size()));
  for (const auto& [lo, hi] : ranges) out.code += {lo, hi};
  return true;
}

}  // namespace

bool glob_code_ok(std::u32string_view code) {
  for (size_t i = 0; i < code.size(); ++i) {
    if (code[i] != kGlobClass && code[i] != kGlobNotClass) continue;
    if (i + 1 >= code.size() || code[i + 1] > (code.size() - i - 2) / 2) return false;
    i += 1 + 2 * size_t{code[i + 1]};
  }
  return true;
}

GlobResult compile_glob(std::string_view pattern, bool fold) {
  GlobResult out;
  Reader r = read_pattern(pattern);
  while (!r.done()) {
    const char32_t c = r.cps[r.i++];
    if (c == U'*') {
      if (out.code.empty() || out.code.back() != kGlobStar) out.code.push_back(kGlobStar);
    } else if (c == U'?') {
      out.code.push_back(kGlobAny);
    } else if (c == U'[') {
      if (!compile_class(r, fold, out)) return out;
    } else if (c == U'\\') {
      if (r.done()) {
        out.error = "glob pattern ends with '\\'";
        out.error_at = r.bytes[r.i - 1];
        return out;
      }
      const char32_t lit = r.cps[r.i++];
      out.code.push_back(fold ? fold_case(lit) : lit);
    } else {
      out.code.push_back(fold ? fold_case(c) : c);
    }
  }
  return out;
}

}  // namespace pfc
