// compiler/native_fn.h — the calling convention of generated routing code (docs/jit.md),
// shared by the in-process JIT (compiler/jit/jit.h) and the compiled-program files a
// provider loads (compiler/native_file.h). No LLVM.
#pragma once

#include <cstdint>

#include "pfc/event.h"

namespace pfc {

// The generated function: returns the deliver mask of one event and stores `stack &
// deliver` into *stack (a plain i64 return keeps FastISel from handing the return block to
// SelectionDAG, which a two-register struct return would; docs/jit.md).
using NativeRouteFn = uint64_t (*)(const EventView* event, uint64_t* stack);

// For functions that call a NativeRouteFn: clang's -fsanitize=function reads a type hash in
// front of every indirect callee, which JIT code does not have.
#if defined(__clang__)
#define PFC_CALLS_JIT_CODE __attribute__((no_sanitize("function")))
#else
#define PFC_CALLS_JIT_CODE
#endif

// Calls generated code and returns {deliver, stack & deliver}. The generated function
// always stores *stack, so the slot is not zeroed first.
PFC_CALLS_JIT_CODE inline RouteResult call_native(NativeRouteFn fn,
                                                  const EventView& event) noexcept {
  uint64_t stack;
  const uint64_t deliver = fn(&event, &stack);
  return RouteResult{deliver, stack};
}

}  // namespace pfc
