// compiler/str_expr.h — string-map patterns as Hyperscan expressions over generalised
// UTF-8 text (compiler/str_match.cc scans them; the exactness argument is docs/jit.md
// "String indexing"): literals as escaped bytes with their operator's start anchor, globs
// as exact byte-level translations. End anchors are never written: matches that must end
// at the text's end are checked where they are reported.
#pragma once

#include <cstdint>
#include <string>

#include "base/payload_ops.h"

namespace pfc::internal {

// Generalised UTF-8: the UTF-8 bit layout for every value up to U+10FFFF, surrogates too.
inline uint8_t* put_cp_raw(uint8_t* o, char32_t c) {
  if (c < 0x80) {
    *o++ = uint8_t(c);
  } else if (c < 0x800) {
    *o++ = uint8_t(0xC0 | (c >> 6));
    *o++ = uint8_t(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    *o++ = uint8_t(0xE0 | (c >> 12));
    *o++ = uint8_t(0x80 | ((c >> 6) & 0x3F));
    *o++ = uint8_t(0x80 | (c & 0x3F));
  } else {
    *o++ = uint8_t(0xF0 | (c >> 18));
    *o++ = uint8_t(0x80 | ((c >> 12) & 0x3F));
    *o++ = uint8_t(0x80 | ((c >> 6) & 0x3F));
    *o++ = uint8_t(0x80 | (c & 0x3F));
  }
  return o;
}

// Appends `c` in generalised UTF-8.
void put_cp(std::string& out, char32_t c);

// Whether a literal operator anchors its needle at the text's end (ENDSWITH, IS): such a
// pattern is compiled without an end anchor and its matches count only when they end at
// the text's end: the database holds no end anchors at all.
bool ends_at_end(PayloadOp op);
// Whether a literal operator anchors its needle at the text's start.
bool starts_at_start(PayloadOp op);

// A literal's expression over `bytes` with the operator's start anchor.
std::string literal_expr(PayloadOp op, const std::string& bytes);

// A glob's exact expression over generalised UTF-8 text (HS_FLAG_DOTALL; no end anchor: its
// matches count at the text's end only, as ends_at_end's), the text folded when the glob
// is; "" for a glob with a class that is empty. `code` is the glob's compiled form
// (runtime/glob.h).
std::string glob_utf8_expr(const std::u32string& code);

}  // namespace pfc::internal
