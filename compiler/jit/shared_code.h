// compiler/jit/shared_code.h — compiles an ir::Program into a compiled-program file
// (compiler/native_file.h) that any process of the namespace can load: code generation in
// table mode (helpers and pool addresses through `pfc_table`, never as constants), object
// emission with LLVM, and a link into a shared object with lld (ld.lld-19). Used by the
// namespace's compile service; docs/namespace.md "Compiled programs", docs/jit.md.
#pragma once

#include <string>

#include "base/error.h"
#include "compiler/ir.h"
#include "compiler/jit/jit.h"
#include "compiler/native_file.h"

namespace pfc {

// The complete file bytes (write_native_file) for `program` under `key`, whose code
// routes exactly as the interpreter does. Fails on a program the verifier rejects, an
// LLVM or linker failure, or a result check_shared_object refuses (never written then).
// `cancelled` as in Jit::compile. Thread-safe.
Result<std::string> compile_shared(const ir::Program& program, const ProgramKey& key,
                                   OptLevel level = kDefaultOptLevel,
                                   const CancelCheck& cancelled = {});

}  // namespace pfc
