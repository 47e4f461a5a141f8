// io/json_scan.h — lexical scanning of JSON text without parsing it: where a value ends
// (strings, escapes and nesting tracked, nothing validated), where a top-level member's key
// starts, and line/column positions. The JSON event sources use it to split a JSON array
// into elements without holding the array, and to place carets on keys.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace pfc::io {

// Resumable state of scan_json_value over text that may arrive in pieces.
struct JsonScan {
  size_t pos = 0;      // next byte to look at
  uint32_t depth = 0;  // open '{' / '[' (not checked for matching pairs)
  bool in_string = false;
  bool escape = false;  // the previous string byte was a backslash
};

// Advances `scan` over `text` until a ',', ']' or '}' outside strings at depth 0 (true;
// scan.pos points at it) or the end of `text` (false; call again with more text).
bool scan_json_value(std::string_view text, JsonScan& scan);

// The number of ',', '[' and '{' outside strings in `text` (an upper bound of the JSON
// values it holds, less one), counting no further than `stop_after` + 1.
uint64_t count_json_separators(std::string_view text, uint64_t stop_after);

// Byte offset of the key (its opening quote) of the `nth` (0-based) member called `key` of
// the object that `object_text` holds, scanning only its top level; npos when absent (or
// the key is written with escapes).
size_t member_key_offset(std::string_view object_text, std::string_view key, unsigned nth = 0);

// A position in text: lines and columns from 1, columns in code points (a byte that is not
// valid UTF-8 counts as one), as in grammar/source.h.
struct TextPos {
  uint64_t line = 1;
  uint64_t column = 1;
};

// The position after `text` when it starts at `pos`.
TextPos advance_pos(TextPos pos, std::string_view text);

}  // namespace pfc::io
