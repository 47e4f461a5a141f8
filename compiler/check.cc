// compiler/check.cc — the semantic checker's entry point (check.h): runs the schema, session
// and payload checks over the AST and returns the checked script with every diagnostic,
// sorted by position. The rules are listed in docs/semantics.md.
#include "compiler/check.h"

#include <algorithm>
#include <tuple>
#include <vector>

#include "base/stable_sort.h"
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

// Orders diagnostics by position, keeping discovery order at equal positions.
void sort_by_position(std::vector<Diagnostic>& diagnostics) {
  stable_sort_by(diagnostics, [](const Diagnostic& x, const Diagnostic& y) {
    return std::tie(x.pos.line, x.pos.column) < std::tie(y.pos.line, y.pos.column);
  });
}

}  // namespace internal

CheckOutput check_script(const ast::Script& script) { return check_script(script, {}); }

CheckOutput check_script(const ast::Script& script, const std::vector<ManifestImport>& imports,
                         const SourceFile* source) {
  CheckOutput out = check_declarations(script, imports, source);
  add_dead_filter_warnings(out, source);
  return out;
}

CheckOutput check_declarations(const ast::Script& script,
                               const std::vector<ManifestImport>& imports,
                               const SourceFile* source) {
  CheckOutput out;
  internal::CheckContext cx{out, {}, {}, source};
  internal::check_providers(script.providers, cx);
  internal::add_imported_providers(imports, cx);
  internal::check_sessions(script.sessions, cx);
  internal::sort_by_position(out.diagnostics);
  return out;
}

// The warnings are appended and the whole list sorted again: the sort keeps discovery order
// at equal positions, so the result equals sorting everything once.
void add_dead_filter_warnings(CheckOutput& out, const SourceFile* source) {
  if (!out.ok()) return;
  internal::CheckContext cx{out, {}, {}, source};
  const size_t before = out.diagnostics.size();
  internal::warn_dead_filters(cx);
  if (out.diagnostics.size() != before) internal::sort_by_position(out.diagnostics);
}

}  // namespace pfc
