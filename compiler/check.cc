// compiler/check.cc — the semantic checker's entry point (check.h): runs the schema, session
// and payload checks over the AST and returns the checked script with every diagnostic,
// sorted by position. The rules are listed in docs/semantics.md.
#include "compiler/check.h"

#include <algorithm>

#include "compiler/check_context.h"

namespace pfc {

bool CheckOutput::ok() const {
  return std::none_of(diagnostics.begin(), diagnostics.end(),
                      [](const Diagnostic& d) { return d.severity == Severity::Error; });
}

namespace internal {

void CheckContext::error(SourcePos pos, std::string message) {
  out.diagnostics.push_back(Diagnostic{Severity::Error, pos, std::move(message)});
}

void CheckContext::warning(SourcePos pos, std::string message) {
  out.diagnostics.push_back(Diagnostic{Severity::Warning, pos, std::move(message)});
}

std::string int_literal_text(const ast::Int& v) {
  return (v.negative && v.magnitude != 0 ? "-" : "") + std::to_string(v.magnitude);
}

bool check_unsigned(CheckContext& cx, const ast::Int& v, uint64_t max, std::string_view what) {
  if ((v.negative && v.magnitude != 0) || v.magnitude > max) {
    cx.error(v.pos, std::string(what) + " value " + int_literal_text(v) + " is out of range (0.." +
                        std::to_string(max) + ")");
    return false;
  }
  return true;
}

}  // namespace internal

CheckOutput check_script(const ast::Script& script) { return check_script(script, {}); }

CheckOutput check_script(const ast::Script& script, const std::vector<ManifestImport>& imports) {
  CheckOutput out;
  internal::CheckContext cx{out, {}, {}};
  internal::check_providers(script.providers, cx);
  internal::add_imported_providers(imports, cx);
  internal::check_sessions(script.sessions, cx);
  std::stable_sort(out.diagnostics.begin(), out.diagnostics.end(),
                   [](const Diagnostic& a, const Diagnostic& b) {
                     if (a.pos.line != b.pos.line) return a.pos.line < b.pos.line;
                     return a.pos.column < b.pos.column;
                   });
  return out;
}

}  // namespace pfc
