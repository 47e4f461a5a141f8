// grammar/parse.h — the one parse call: script text → AST + diagnostics. Catches every
// tao::pegtl::parse_error here (docs/style.md §4); nothing else in pfc sees PEGTL.
#pragma once

#include <cstdint>
#include <vector>

#include "grammar/ast.h"
#include "grammar/source.h"

namespace pfc {

struct ParseLimits {
  uint32_t max_nesting = 200;             // parentheses + `not` in `where` expressions
  uint64_t max_source_bytes = 64u << 20;  // larger sources are rejected with a diagnostic
};

struct ParseOutput {
  ast::Script script;                   // complete only when diagnostics is empty
  std::vector<Diagnostic> diagnostics;  // parsing stops at the first error: at most one
                                        // error, then at most one note ("to match this '{'")
  bool ok() const { return diagnostics.empty(); }
};

// Never throws, never crashes, on any input (NUL bytes, invalid UTF-8, deep nesting).
ParseOutput parse_script(const SourceFile& source, const ParseLimits& limits = {});

}  // namespace pfc
