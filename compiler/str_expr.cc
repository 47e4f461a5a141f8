// compiler/str_expr.cc — see str_expr.h.
#include "compiler/str_expr.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "runtime/glob.h"

namespace pfc::internal {
namespace {

void put_byte(std::string& out, uint8_t b) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += "\\x";
  out += kHex[b >> 4];
  out += kHex[b & 15];
}

// Alternatives of byte sequences matching exactly the generalised UTF-8 of the code points
// [lo, hi] (the split of Go's regexp/syntax: one length class, then ranges whose lower
// bytes each span [80-BF]).
void utf8_ranges(char32_t lo, char32_t hi, std::vector<std::string>& alts) {
  static constexpr char32_t kLast[] = {0x7F, 0x7FF, 0xFFFF};
  for (char32_t last : kLast) {
    if (lo <= last && hi > last) {
      utf8_ranges(lo, last, alts);
      utf8_ranges(last + 1, hi, alts);
      return;
    }
  }
  for (int i = 1; i < 4; ++i) {
    const char32_t m = (char32_t{1} << (6 * i)) - 1;
    if ((lo & ~m) == (hi & ~m)) continue;
    if ((lo & m) != 0) {
      utf8_ranges(lo, lo | m, alts);
      utf8_ranges((lo | m) + 1, hi, alts);
      return;
    }
    if ((hi & m) != m) {
      utf8_ranges(lo, (hi & ~m) - 1, alts);
      utf8_ranges(hi & ~m, hi, alts);
      return;
    }
  }
  std::string a, b, out;
  put_cp(a, lo);
  put_cp(b, hi);
  for (size_t j = 0; j < a.size(); ++j) {
    if (a[j] == b[j]) {
      put_byte(out, uint8_t(a[j]));
      continue;
    }
    out += '[';
    put_byte(out, uint8_t(a[j]));
    out += '-';
    put_byte(out, uint8_t(b[j]));
    out += ']';
  }
  alts.push_back(std::move(out));
}

// The code points glob class token `code[i]` matches, as sorted disjoint ranges.
std::vector<std::pair<char32_t, char32_t>> class_ranges(const std::u32string& code, size_t i) {
  std::vector<std::pair<char32_t, char32_t>> r;
  r.reserve(code[i + 1]);
  for (size_t k = 0; k < code[i + 1]; ++k) r.emplace_back(code[i + 2 + 2 * k], code[i + 3 + 2 * k]);
  std::sort(r.begin(), r.end());
  std::vector<std::pair<char32_t, char32_t>> merged;
  for (const auto& [lo, hi] : r) {
    if (lo > hi) continue;
    if (!merged.empty() && lo <= merged.back().second + 1)
      merged.back().second = std::max(merged.back().second, hi);
    else merged.emplace_back(lo, hi);
  }
  if (code[i] == kGlobClass) return merged;
  std::vector<std::pair<char32_t, char32_t>> out;  // the complement within [0, U+10FFFF]
  char32_t next = 0;
  for (const auto& [lo, hi] : merged) {
    if (lo > 0x10FFFF) break;
    if (lo > next) out.emplace_back(next, lo - 1);
    next = std::min<char32_t>(hi, 0x10FFFF) + 1;
  }
  if (next <= 0x10FFFF) out.emplace_back(next, 0x10FFFF);
  return out;
}

}  // namespace

void put_cp(std::string& out, char32_t c) {
  uint8_t bytes[4];
  out.append(reinterpret_cast<const char*>(bytes), size_t(put_cp_raw(bytes, c) - bytes));
}

bool ends_at_end(PayloadOp op) {
  return op == PayloadOp::EndsWith || op == PayloadOp::EndsWithCs || op == PayloadOp::Is ||
         op == PayloadOp::IsCs;
}

bool starts_at_start(PayloadOp op) {
  return op == PayloadOp::StartsWith || op == PayloadOp::StartsWithCs || op == PayloadOp::Is ||
         op == PayloadOp::IsCs;
}

std::string literal_expr(PayloadOp op, const std::string& bytes) {
  std::string out;
  if (starts_at_start(op)) out += "\\A";
  for (char c : bytes) put_byte(out, uint8_t(c));
  return out;
}

// `?` is any one encoded code point, a class the alternatives of its ranges' byte
// sequences, `*` any bytes (every later token starts at a lead byte, so it resumes at a
// code point).
std::string glob_utf8_expr(const std::u32string& code) {
  static constexpr char kAny[] =
      "(?:[\\x00-\\x7f]|[\\xc0-\\xdf][\\x80-\\xbf]|[\\xe0-\\xef][\\x80-\\xbf]{2}|"
      "[\\xf0-\\xf7][\\x80-\\xbf]{3})";
  std::string out = "\\A";
  for (size_t i = 0; i < code.size();) {
    const char32_t t = code[i];
    if (t == kGlobStar) {
      out += ".*";
      ++i;
    } else if (t == kGlobAny) {
      out += kAny;
      ++i;
    } else if (t == kGlobClass || t == kGlobNotClass) {
      std::vector<std::string> alts;
      for (const auto& [lo, hi] : class_ranges(code, i)) utf8_ranges(lo, hi, alts);
      if (alts.empty()) return "";
      out += "(?:";
      for (size_t a = 0; a < alts.size(); ++a) out += (a ? "|" : "") + alts[a];
      out += ')';
      i += 2 + 2 * code[i + 1];
    } else {
      std::string bytes;
      put_cp(bytes, t);
      for (char c : bytes) put_byte(out, uint8_t(c));
      ++i;
    }
  }
  return out;
}

}  // namespace pfc::internal
