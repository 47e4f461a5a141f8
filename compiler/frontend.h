// compiler/frontend.h — parse + check in one call, for the CLI and embedders.
#pragma once

#include "compiler/check.h"
#include "grammar/parse.h"

namespace pfc {

// The front end's result. The AST is not kept: nothing after checking reads it (`pfc
// compile --emit ast` parses on its own).
struct FrontendOutput {
  CheckOutput checked;                  // empty when parsing failed
  std::vector<Diagnostic> diagnostics;  // parse diagnostics, or the checker's
  bool ok() const;
};

FrontendOutput compile_script(const SourceFile& source);

}  // namespace pfc
