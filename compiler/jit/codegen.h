// compiler/jit/codegen.h — IR (compiler/ir.h) → LLVM IR: one function per routing program.
// Internal to compiler/jit/; the public entry points are in jit.h.
//
// Calling convention of the generated function (documented in docs/jit.md):
//   i64 @<name>(ptr %event, ptr %stack) — %event is a `const pfc::EventView*`; the function
//   returns the deliver mask and stores `stack & deliver` into the i64 at %stack, i.e. the
//   C++ type NativeRouteFn (jit.h). The function is nounwind, never allocates, reads only
//   the event, its payload and strings, writes only *%stack, and calls only the helpers of
//   native_helpers() (compiler/native_file.h).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "base/error.h"
#include "compiler/ir.h"
#include "compiler/native_file.h"

namespace llvm {
class LLVMContext;
class Module;
}  // namespace llvm

namespace pfc::internal {

// Int sets whose sorted values fit in at most this many windows of 64 consecutive values
// are tested with one bit test per window; others with an unrolled branch-free binary
// search (ceil(log2 n) load/compare/select steps) over a constant table of their values
// when they have at most kConstSetValues values (32 KB; 16 KB when every value fits 32
// bits), else over the program's own IntSet::values, by address (no copy per compile).
// Neither form branches or calls.
inline constexpr size_t kInlineSetWindows = 8;
inline constexpr size_t kConstSetValues = 4096;
// Mask maps whose keys span fewer values than this become a constant table indexed by the
// key; sparse maps of at most kInlineMaskKeys keys a select chain; others call
// pfc_ir_mask_map (with the address of `program`'s MaskMap).
inline constexpr uint64_t kDenseMaskSpan = 1024;
inline constexpr size_t kInlineMaskKeys = 16;
// Range maps (mask.range) of at most kSelectRangeStarts starts are a chain of selects of
// constant masks, one compare each (the compares are independent; a table lookup after a
// count or a search made the chain of dependent loads the critical path, and IntPayload8
// ran slower than before indexing; beyond 16 starts the chain's compile time shows, e.g.
// 2,100 selects in the Thousand set); up to kInlineRangeStarts an unrolled branch-free
// binary search over a constant table of the starts, then a load from a constant table of
// the masks. Larger maps call pfc_ir_mask_range (the interpreter's binary search, by
// address).
inline constexpr size_t kSelectRangeStarts = 16;
inline constexpr size_t kInlineRangeStarts = 4096;

// How generated code reaches what has an address only in one process: the runtime helpers
// (native_helpers()) and pool entries of the ir::Program (string sets, mask and range maps,
// the values of sets beyond kConstSetValues, RE2 objects).
enum class CodegenMode : uint8_t {
  // As constants: helpers are external symbols the JIT defines as absolute addresses, pool
  // entries their addresses in this process. For code run in this process only.
  Jit,
  // Through `pfc_table`, a protected [N x ptr] global in writable data read PC-relative
  // (one load per use, marked invariant): each helper call is an indirect call through its
  // slot, each pool address a load of its slot. The function is protected `pfc_route`
  // (`fn_name` is ignored); the code holds no absolute address. For shared code
  // (compiler/native_file.h), whose loader fills the table in each process.
  Table,
};

// Builds a module holding one function called `fn_name` that implements `program`. The
// module's small pool data (folded needles, GUID bytes) are private constant globals; the
// helpers that take C++ pool objects (pfc_ir_str_in, pfc_ir_mask_map, pfc_ir_mask_range) and the
// search of sets beyond kConstSetValues values get the address of `program`'s own pool entry
// (Jit mode: as a constant, so `program` must outlive the compiled code and must not be moved
// or modified; Table mode: from the table). In Table mode `slots` receives the table's
// slots in order (each distinct helper or pool entry once). Runs the IR verifier
// (compiler/verify.h) first and fails with its error, so codegen is total on any input;
// codegen itself asserts nothing more. Thread-safe for distinct contexts.
Result<std::unique_ptr<llvm::Module>> generate_module(const ir::Program& program,
                                                      llvm::LLVMContext& context,
                                                      const std::string& fn_name,
                                                      CodegenMode mode = CodegenMode::Jit,
                                                      std::vector<TableSlot>* slots = nullptr);

}  // namespace pfc::internal
