// pfc/diagnostic.h — positions and diagnostics: the problems a script has, reported as data
// (docs/style.md §3: diagnostics are data, not errors). Used by the front end and the
// public API (pfc/filter.h). C++20.
#pragma once

#include <cstdint>
#include <string>

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

}  // namespace pfc
