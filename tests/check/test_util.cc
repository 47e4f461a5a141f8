// tests/check/test_util.cc — see test_util.h.
#include "tests/check/test_util.h"

#include <gtest/gtest.h>

namespace pfc::test {

FrontendOutput compile_text(std::string_view text) {
  SourceFile source("test.pfs", std::string(text));
  FrontendOutput out = compile_script(source);
  if (out.checked.diagnostics.empty() && !out.diagnostics.empty()) {
    ADD_FAILURE() << "parse failed: " << render_diagnostics(out) << "\nin:\n" << text;
  }
  return out;
}

std::string render_diagnostics(const FrontendOutput& out) {
  std::string s;
  for (const Diagnostic& d : out.diagnostics) {
    if (!s.empty()) s += '\n';
    s += std::to_string(d.pos.line) + ":" + std::to_string(d.pos.column) + ": " +
         std::string(severity_name(d.severity)) + ": " + d.message;
  }
  return s;
}

}  // namespace pfc::test
