// compiler/frontend.cc — parse + check in one call (frontend.h): the checker runs only on a
// script that parsed; the diagnostics are the parser's or the checker's.
#include "compiler/frontend.h"

#include <algorithm>

namespace pfc {

bool FrontendOutput::ok() const {
  return std::none_of(diagnostics.begin(), diagnostics.end(),
                      [](const Diagnostic& d) { return d.severity == Severity::Error; });
}

FrontendOutput compile_script(const SourceFile& source) {
  FrontendOutput out;
  ParseOutput parsed = parse_script(source);
  out.ast = std::move(parsed.script);
  if (!parsed.ok()) {
    out.diagnostics = std::move(parsed.diagnostics);
    return out;
  }
  out.checked = check_script(out.ast);
  out.diagnostics = out.checked.diagnostics;
  return out;
}

}  // namespace pfc
