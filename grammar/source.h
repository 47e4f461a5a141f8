// grammar/source.h — source text, positions and diagnostics shared by every stage that
// reports problems in user input (docs/style.md §3: diagnostics are data, not errors).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace pfc {

// A position in a source file. Lines and columns count from 1; columns count Unicode code
// points (a byte that is not valid UTF-8 counts as one column). `offset` is in bytes.
struct SourcePos {
  uint32_t line = 1;
  uint32_t column = 1;
  uint32_t offset = 0;
};

enum class Severity : uint8_t { Error, Warning, Note };

struct Diagnostic {
  Severity severity = Severity::Error;
  SourcePos pos;
  std::string message;  // one line, no trailing period needed, no newline
  std::string fixit;    // text to insert at pos (shown under the caret, as clang does), or ""
};

// The UTF-8 byte-order mark. A source text starting with it is read from just after it
// (docs/language.md §1); columns on line 1 do not count it.
inline constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";

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
  // reproduces tabs so the caret lines up.
  std::string render(const Diagnostic& d) const;

 private:
  std::string name_;
  std::string text_;
  size_t bom_ = 0;
  std::vector<uint32_t> line_starts_;
  // (offset, column) checkpoints inside long lines, sorted by offset, so position() scans
  // at most kColumnStride bytes plus one sequence (linear-time parsing of one-line files).
  std::vector<std::pair<uint32_t, uint32_t>> column_marks_;
};

std::string_view severity_name(Severity s);

}  // namespace pfc
