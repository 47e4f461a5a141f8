// tests/grammar/test_util.h — helpers shared by the grammar tests: parse a script and give
// back its AST dump or its diagnostic as "LINE:COL: message".
#pragma once

#include <string>
#include <string_view>

#include "grammar/ast.h"
#include "grammar/parse.h"

namespace pfc::test {

// The dump of a script that must parse; a diagnostic as "error: L:C: msg" otherwise.
std::string dump_of(std::string_view script);

// "L:C: message" of the script's diagnostic, or "ok" when it parses.
std::string diag_of(std::string_view script, const ParseLimits& limits = {});

// Calls f(pos) for every SourcePos stored in the AST.
template <typename F>
void for_each_pos(const ast::Script& s, F&& f);

}  // namespace pfc::test

#include "tests/grammar/test_util_inl.h"
