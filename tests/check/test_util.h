// tests/check/test_util.h — helpers for the checker tests: run parse + check on script text
// and render diagnostics as "LINE:COL: severity: message" lines.
#pragma once

#include <string>
#include <string_view>

#include "compiler/frontend.h"

namespace pfc::test {

// parse + check; the parse must succeed (a parse diagnostic fails the calling test).
FrontendOutput compile_text(std::string_view text);
// Every diagnostic of `out`, one "LINE:COL: error|warning: message" line each, '\n'-joined.
std::string render_diagnostics(const FrontendOutput& out);

}  // namespace pfc::test
