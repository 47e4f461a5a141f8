// grammar/source.h — source text, positions and diagnostics shared by every stage that
// reports problems in user input (docs/style.md §3: diagnostics are data, not errors).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "pfc/diagnostic.h"

namespace pfc {

// The UTF-8 byte-order mark. A source text starting with it is read from just after it
// (docs/language.md §1); columns on line 1 do not count it.
inline constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";

// The part of a long line echoed under a diagnostic: at most this many bytes each side of
// the caret (a 50 MB one-line script or a 40 MiB event line is not printed whole).
inline constexpr size_t kMaxEchoSide = 160;

// Narrows [begin, end) of `text` to at most kMaxEchoSide bytes each side of byte `at`
// (begin <= at <= end), moving the bounds inwards to UTF-8 sequence starts.
void echo_window(std::string_view text, size_t at, size_t& begin, size_t& end);

// A named source text. Owns the text; positions refer into it.
class SourceFile {
 public:
  SourceFile(std::string name, std::string text);

  const std::string& name() const { return name_; }
  const std::string& text() const { return text_; }
  // Position of a byte offset (clamped to the text's end).
  SourcePos position(size_t offset) const;
  // Bytes of a leading UTF-8 byte-order mark: 3 or 0.
  size_t bom_size() const { return bom_; }
  // The text of 1-based line `line` without its line terminator (nor a leading BOM).
  std::string_view line_text(uint32_t line) const;
  // "FILE:LINE:COL: error: MESSAGE\n<source line>\n<caret line>\n" (docs/cli.md "Diagnostics").
  // Control bytes and invalid UTF-8 in the echoed line are shown as '?'; the caret line
  // reproduces tabs so the caret lines up. A line longer than 2 × kMaxEchoSide bytes is
  // echoed only around the caret (echo_window).
  std::string render(const Diagnostic& d) const;

 private:
  std::string name_;
  std::string text_;
  size_t bom_ = 0;
  std::vector<uint32_t> line_starts_;

  // Byte index of `d`'s caret in `line` (the text of line d.pos.line).
  size_t caret_byte(const Diagnostic& d, std::string_view line) const;
  // (offset, column) checkpoints inside long lines, sorted by offset, so position() scans
  // at most kColumnStride bytes plus one sequence (linear-time parsing of one-line files).
  std::vector<std::pair<uint32_t, uint32_t>> column_marks_;
};

std::string_view severity_name(Severity s);

}  // namespace pfc
