// grammar/dump.h — one-line S-expression dump of the AST (`pfc compile S --emit ast`),
// used by golden tests. Format documented in docs/language.md ("AST dump").
#pragma once

#include <string>

#include "grammar/ast.h"

namespace pfc {

// One line per provider and per session, each an S-expression, '\n'-terminated.
std::string dump_ast(const ast::Script& script);

}  // namespace pfc
