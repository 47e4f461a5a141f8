// io/json_scan.cc — lexical JSON scanning (io/json_scan.h).
#include "io/json_scan.h"

#include "base/ascii.h"
#include "base/utf8.h"

namespace pfc::io {

bool scan_json_value(std::string_view text, JsonScan& s) {
  for (; s.pos < text.size(); ++s.pos) {
    const char c = text[s.pos];
    if (s.in_string) {
      if (s.escape) {
        s.escape = false;
      } else if (c == '\\') {
        s.escape = true;
      } else if (c == '"') {
        s.in_string = false;
      }
      continue;
    }
    switch (c) {
      case '"': s.in_string = true; break;
      case '{':
      case '[': ++s.depth; break;
      case '}':
      case ']':
        if (s.depth == 0) return true;
        --s.depth;
        break;
      case ',':
        if (s.depth == 0) return true;
        break;
      default: break;
    }
  }
  return false;
}

uint64_t count_json_separators(std::string_view text, uint64_t stop_after) {
  uint64_t n = 0;
  bool in_string = false, escape = false;
  for (size_t i = 0; i < text.size() && n <= stop_after; ++i) {
    const char c = text[i];
    if (in_string) {
      if (escape) escape = false;
      else if (c == '\\') escape = true;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == ',' || c == '[' || c == '{') {
      ++n;
    }
  }
  return n;
}

namespace {

size_t skip_space(std::string_view t, size_t i) {
  while (i < t.size() && is_ascii_space(t[i])) ++i;
  return i;
}

// The end (one past the closing quote) of the string starting at t[i] == '"', or npos.
size_t string_end(std::string_view t, size_t i) {
  JsonScan s{i + 1, 0, true, false};
  for (; s.pos < t.size() && s.in_string; ++s.pos) {
    const char c = t[s.pos];
    if (s.escape) s.escape = false;
    else if (c == '\\') s.escape = true;
    else if (c == '"') s.in_string = false;
  }
  return s.in_string ? std::string_view::npos : s.pos;
}

}  // namespace

size_t member_key_offset(std::string_view t, std::string_view key, unsigned nth) {
  size_t i = skip_space(t, 0);
  if (i >= t.size() || t[i] != '{') return std::string_view::npos;
  for (i = skip_space(t, i + 1); i < t.size() && t[i] == '"'; i = skip_space(t, i + 1)) {
    const size_t end = string_end(t, i);
    if (end == std::string_view::npos) break;
    if (t.substr(i + 1, end - i - 2) == key && nth-- == 0) return i;
    i = skip_space(t, end);
    if (i >= t.size() || t[i] != ':') break;
    JsonScan s{skip_space(t, i + 1)};
    if (!scan_json_value(t, s) || t[s.pos] != ',') break;
    i = s.pos;
  }
  return std::string_view::npos;
}

TextPos advance_pos(TextPos pos, std::string_view text) {
  const auto* p = reinterpret_cast<const uint8_t*>(text.data());
  for (size_t i = 0; i < text.size();) {
    if (p[i] == '\n') {
      ++pos.line;
      pos.column = 1;
      ++i;
      continue;
    }
    i += p[i] < 0x80 ? 1 : utf8_step_length(p + i, text.size() - i);
    ++pos.column;
  }
  return pos;
}

}  // namespace pfc::io
