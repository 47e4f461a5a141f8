// compiler/ir_dump.h — the IR's text form: one line per instruction, then the constant
// pools. Used by `pfc compile --emit ir` and golden tests; format documented in docs/ir.md.
#pragma once

#include <string>

#include "compiler/ir.h"

namespace pfc {

// Renders `prog` as text (stable: golden tests compare it byte for byte). Works on any
// program, verified or not (out-of-range operands print as "?"). Pure and thread-safe.
std::string dump_ir(const ir::Program& prog);

}  // namespace pfc
