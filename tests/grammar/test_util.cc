// tests/grammar/test_util.cc — parse helpers for the grammar test tables.
#include "tests/grammar/test_util.h"

#include "grammar/dump.h"

namespace pfc::test {

std::string dump_of(std::string_view script) {
  const SourceFile source("t.pfs", std::string(script));
  const ParseOutput out = parse_script(source);
  if (!out.ok()) {
    const Diagnostic& d = out.diagnostics.front();
    return "error: " + std::to_string(d.pos.line) + ":" + std::to_string(d.pos.column) + ": " +
           d.message;
  }
  return dump_ast(out.script);
}

std::string diag_of(std::string_view script, const ParseLimits& limits) {
  const SourceFile source("t.pfs", std::string(script));
  const ParseOutput out = parse_script(source, limits);
  if (out.ok()) return "ok";
  const Diagnostic& d = out.diagnostics.front();
  return std::to_string(d.pos.line) + ":" + std::to_string(d.pos.column) + ": " + d.message;
}

}  // namespace pfc::test
