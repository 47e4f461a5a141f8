// base/ascii.h — ASCII-only character classes, case mapping, case-insensitive comparison
// and trimming, for any character type (char, unsigned char, char16_t, char32_t). Bytes and
// code units outside ASCII are left alone (Unicode case folding is runtime/casefold.h).
// Header-only, constexpr, thread-safe.
#pragma once

#include <algorithm>
#include <concepts>
#include <string>
#include <string_view>

namespace pfc {

// Any character or code-unit type (char, uint8_t, char16_t, char32_t, ...).
template <class C>
concept CharLike = std::integral<C>;

template <CharLike C>
constexpr bool is_ascii_upper(C c) {
  return c >= C('A') && c <= C('Z');
}

template <CharLike C>
constexpr bool is_ascii_lower(C c) {
  return c >= C('a') && c <= C('z');
}

template <CharLike C>
constexpr bool is_ascii_alpha(C c) {
  return is_ascii_upper(c) || is_ascii_lower(c);
}

template <CharLike C>
constexpr bool is_ascii_digit(C c) {
  return c >= C('0') && c <= C('9');
}

template <CharLike C>
constexpr bool is_ascii_alnum(C c) {
  return is_ascii_alpha(c) || is_ascii_digit(c);
}

// Space, \t, \n, \v, \f, \r.
template <CharLike C>
constexpr bool is_ascii_space(C c) {
  return c == C(' ') || (c >= C('\t') && c <= C('\r'));
}

// 'A'..'Z' → 'a'..'z'; every other value unchanged.
template <CharLike C>
constexpr C ascii_lower(C c) {
  return is_ascii_upper(c) ? C(c + ('a' - 'A')) : c;
}

// 'a'..'z' → 'A'..'Z'; every other value unchanged.
template <CharLike C>
constexpr C ascii_upper(C c) {
  return is_ascii_lower(c) ? C(c - ('a' - 'A')) : c;
}

// `text` with every ASCII upper-case letter lower-cased.
inline std::string to_ascii_lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = ascii_lower(c);
  return out;
}

namespace ascii_detail {
template <class C>
constexpr bool iequals(std::basic_string_view<C> a, std::basic_string_view<C> b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](C x, C y) {
           return ascii_lower(x) == ascii_lower(y);
         });
}
}  // namespace ascii_detail

// Equal after ASCII lower-casing (non-ASCII units compare exactly).
constexpr bool iequals_ascii(std::string_view a, std::string_view b) {
  return ascii_detail::iequals(a, b);
}
constexpr bool iequals_ascii(std::u16string_view a, std::u16string_view b) {
  return ascii_detail::iequals(a, b);
}

// `text` without ASCII whitespace (is_ascii_space) at either end.
constexpr std::string_view trim_ascii_space(std::string_view text) {
  while (!text.empty() && is_ascii_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_ascii_space(text.back())) text.remove_suffix(1);
  return text;
}

}  // namespace pfc
