// compiler/ir_wire.h — an ir::Program as bytes and back (docs/ir.md "Wire form"): what a
// provider hands to the namespace's compile service and hashes into a program's content
// key (compiler/native_file.h). No LLVM.
#pragma once

#include <string>
#include <string_view>

#include "base/error.h"
#include "compiler/ir.h"

namespace pfc::ir {

// The program's bytes: deterministic (equal programs give equal bytes, on every host of
// the same byte order and build), versioned (a leading magic and format number), and
// complete — everything both engines read, including every pool. Derived members are not
// written: StrPred::links and StrPred::regex are rebuilt by decode_program.
std::string encode_program(const Program& program);

// The inverse of encode_program. Any malformed input — a wrong magic or version, a count
// or length past the end, an enum value out of range, trailing bytes, a regex RE2 rejects,
// a program the IR verifier (compiler/verify.h) rejects — is an Error naming the byte
// offset and what was expected there; never a crash, an assertion or an allocation larger
// than the input justifies.
Result<Program> decode_program(std::string_view bytes);

}  // namespace pfc::ir
