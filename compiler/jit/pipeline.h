// compiler/jit/pipeline.h — the optimisation and code-emission pipeline shared by the JIT
// and `pfc compile --emit llvm|asm`: host TargetMachine per optimisation level, new-pass-
// manager IR pipeline, and object/assembly emission. Internal to compiler/jit/.
#pragma once

#include <memory>
#include <string>

#include "base/error.h"
#include "compiler/jit/jit.h"

namespace llvm {
class Module;
class TargetMachine;
}  // namespace llvm

namespace pfc::internal {

// Initialises LLVM's native target once per process (thread-safe); fails when the host has
// no registered target.
Result<void> init_native_target();

// The calling thread's TargetMachine for the host CPU (features detected) at the codegen
// level of `level` (O0 → None, O1 → None, O2 → Default); created on first use, owned by
// the thread (machines are never shared between threads), valid until the thread exits.
Result<llvm::TargetMachine*> host_target_machine(OptLevel level);

// Runs the IR pipeline of `level` on `module` (whose data layout and triple are set to
// `tm`'s): O0 = none; O1 = EarlyCSE, SimplifyCFG on each function; O2 = LLVM's per-module
// default O2 pipeline. Then, at every level, cuts basic blocks longer than 512
// instructions (the fast register allocator is quadratic in a block's length).
void optimize_module(llvm::Module& module, llvm::TargetMachine& tm, OptLevel level);

enum class EmitKind : uint8_t { Object, Assembly };

// Machine code for `module` (already optimised) as an ELF object or assembly text.
Result<std::string> emit_machine_code(llvm::Module& module, llvm::TargetMachine& tm, EmitKind kind);

}  // namespace pfc::internal
