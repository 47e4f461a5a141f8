// tests/oracle/oracle_pattern.cc — the oracle's own glob and regex matchers, written from
// docs/semantics.md §2.2 with no code shared with runtime/glob.cc, runtime/tdh.cc or RE2:
// globs by dynamic programming over (pattern token, text position), regexes of a small
// RE2-compatible subset by backtracking (patterns are tiny, so exponential time is fine).
#include <map>

#include "tests/oracle/oracle_internal.h"

namespace pfc::oracle_internal {
namespace {

struct Token {
  enum Kind { Lit, Any, Star, Set } kind = Lit;
  char32_t c = 0;
  std::vector<std::pair<char32_t, char32_t>> ranges;
  bool negate = false;
  char32_t quant = 0;  // regex only: 0, '*', '+' or '?'
};

char32_t maybe_fold(char32_t c, bool fold_case) { return fold_case ? fold(c) : c; }

bool in_ranges(const Token& t, char32_t c) {
  for (const auto& [lo, hi] : t.ranges)
    if (lo <= c && c <= hi) return true;
  return false;
}

// The code points that fold to f other than f itself, from one pass over all of them.
const std::vector<char32_t>& unfolded(char32_t f) {
  static const auto* inverse = [] {
    auto* m = new std::map<char32_t, std::vector<char32_t>>;
    for (char32_t c = 0; c < 0x110000; ++c)
      if (fold(c) != c) (*m)[fold(c)].push_back(c);
    return m;
  }();
  static const std::vector<char32_t> kNone;
  auto it = inverse->find(f);
  return it == inverse->end() ? kNone : it->second;
}

// Set membership of c; sets keep their ranges as written. Case-insensitively c is in the
// set when c, its folding or another character with that folding is.
bool in_set(const Token& t, char32_t c, bool fold_case) {
  bool hit = in_ranges(t, c);
  if (fold_case) {
    hit = hit || in_ranges(t, fold(c));
    for (char32_t x : unfolded(fold(c))) hit = hit || in_ranges(t, x);
  }
  return hit != t.negate;
}

// Glob tokens; nullopt for a pattern the checker rejects.
std::optional<std::vector<Token>> glob_tokens(const std::u32string& p, bool fold_case) {
  std::vector<Token> out;
  for (size_t i = 0; i < p.size(); ++i) {
    Token t;
    if (p[i] == U'*') t.kind = Token::Star;
    else if (p[i] == U'?') t.kind = Token::Any;
    else if (p[i] == U'\\') {
      if (++i == p.size()) return std::nullopt;
      t.c = maybe_fold(p[i], fold_case);
    } else if (p[i] == U'[') {
      t.kind = Token::Set;
      size_t j = i + 1;
      if (j < p.size() && (p[j] == U'!' || p[j] == U'^')) t.negate = true, ++j;
      for (bool first = true;; first = false) {
        if (j >= p.size()) return std::nullopt;
        if (p[j] == U']' && !first) break;
        char32_t lo = p[j] == U'\\' && j + 1 < p.size() ? p[++j] : p[j];
        ++j;
        char32_t hi = lo;
        if (j + 1 < p.size() && p[j] == U'-' && p[j + 1] != U']') {
          j += 1;
          hi = p[j] == U'\\' && j + 1 < p.size() ? p[++j] : p[j];
          ++j;
          if (hi < lo) return std::nullopt;
        }
        t.ranges.emplace_back(lo, hi);
      }
      i = j;
    } else {
      t.c = maybe_fold(p[i], fold_case);
    }
    out.push_back(std::move(t));
  }
  return out;
}

bool one(const Token& t, char32_t c, bool fold_case) {
  switch (t.kind) {
    case Token::Any: return true;
    case Token::Set: return in_set(t, c, fold_case);
    default: return t.c == c;
  }
}

}  // namespace

bool glob_match(const std::string& pattern, const std::u32string& text, bool fold_case) {
  auto toks = glob_tokens(decode_utf8(pattern), fold_case);
  if (!toks) return false;
  std::u32string s = text;
  for (char32_t& c : s) c = maybe_fold(c, fold_case);
  // ok[j]: the first i tokens match the first j code points.
  std::vector<bool> ok(s.size() + 1, false);
  ok[0] = true;
  for (const Token& t : *toks) {
    std::vector<bool> next(s.size() + 1, false);
    for (size_t j = 0; j <= s.size(); ++j) {
      if (t.kind == Token::Star) next[j] = ok[j] || (j > 0 && next[j - 1]);
      else next[j] = j > 0 && ok[j - 1] && one(t, s[j - 1], fold_case);
    }
    ok = std::move(next);
  }
  return ok[s.size()];
}

namespace {

// The regex subset the generator writes: [^] { atom [*+?] } [$]; atom = literal | '\' punct |
// '.' | '[' lowercase/digit ranges ']'.
struct Regex {
  bool begin = false;
  bool end = false;
  std::vector<Token> atoms;
};

std::optional<Regex> parse_regex(const std::u32string& p) {
  Regex r;
  size_t i = 0;
  if (i < p.size() && p[i] == U'^') r.begin = true, ++i;
  for (; i < p.size(); ++i) {
    if (p[i] == U'$' && i + 1 == p.size()) {
      r.end = true;
      break;
    }
    Token t;
    if (p[i] == U'.') t.kind = Token::Any;
    else if (p[i] == U'\\' && i + 1 < p.size()) t.c = p[++i];
    else if (p[i] == U'[') {
      t.kind = Token::Set;
      for (++i; i < p.size() && p[i] != U']'; ++i) {
        char32_t lo = p[i];
        char32_t hi = lo;
        if (i + 2 < p.size() && p[i + 1] == U'-' && p[i + 2] != U']') hi = p[i + 2], i += 2;
        t.ranges.emplace_back(lo, hi);
      }
      if (i >= p.size()) return std::nullopt;
    } else if (p[i] == U'*' || p[i] == U'+' || p[i] == U'?' || p[i] == U'(' || p[i] == U'|') {
      return std::nullopt;  // outside the subset
    } else {
      t.c = p[i];
    }
    if (i + 1 < p.size() && (p[i + 1] == U'*' || p[i + 1] == U'+' || p[i + 1] == U'?'))
      t.quant = p[++i];
    r.atoms.push_back(std::move(t));
  }
  return r;
}

// RE2 in UTF-8 mode matches nothing against an invalid byte (decoded here as U+DC00 + b);
// `.` matches every other code point but '\n'. Case-insensitively a literal matches the
// code points with its simple folding, and a set matches the code points with the folding
// of one of its members.
bool atom(const Token& t, char32_t c, bool fold_case, bool eight_bit) {
  if (eight_bit && c >= 0xDC80 && c <= 0xDCFF) return false;
  switch (t.kind) {
    case Token::Any: return c != U'\n';
    case Token::Set: return in_set(t, c, fold_case);
    default: return fold_case ? fold(t.c) == fold(c) : t.c == c;
  }
}

struct Matcher {
  const Regex& r;
  const std::u32string& s;
  bool fold_case;
  bool eight_bit;
  bool at(size_t k, size_t j) const {
    if (k == r.atoms.size()) return !r.end || j == s.size();
    const Token& t = r.atoms[k];
    const size_t min = t.quant == U'*' || t.quant == U'?' ? 0 : 1;
    const size_t max = t.quant == U'*' || t.quant == U'+' ? s.size() - j : 1;
    size_t n = 0;
    while (n < max && j + n < s.size() && atom(t, s[j + n], fold_case, eight_bit)) ++n;
    for (size_t m = n + 1; m-- > min;) {
      if (at(k + 1, j + m)) return true;
    }
    return false;
  }
};

}  // namespace

std::optional<bool> regex_match(const std::string& pattern, const std::u32string& text,
                                bool fold_case, bool eight_bit) {
  auto r = parse_regex(decode_utf8(pattern));
  if (!r) return std::nullopt;
  Matcher m{*r, text, fold_case, eight_bit};
  for (size_t j = 0; j <= text.size(); ++j) {
    if (m.at(0, j)) return true;
    if (r->begin) break;
  }
  return false;
}

}  // namespace pfc::oracle_internal
