// compiler/frontend.h — parse + check in one call, for the CLI and embedders.
#pragma once

#include <string>

#include "base/error.h"
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

// compile_script of `text` named `name` (its imports read relative to the directory of
// `name`): the checked script, or its first error as one line "NAME:LINE:COL: error:
// MESSAGE" (for callers with no source to print diagnostics against, PfcEnableTraceScript).
Result<CheckedScript> check_script_text(std::string name, std::string text);

}  // namespace pfc
