// compiler/native_fn.h — the calling convention of generated routing code (docs/jit.md),
// shared by the in-process JIT (compiler/jit/jit.h) and the compiled-program files a
// provider loads (compiler/native_file.h). No LLVM. NativeRouteFn, PFC_CALLS_JIT_CODE and
// call_native are runtime/routing_program.h's: the router calls native code directly too
// (RoutingProgram::native_slot).
#pragma once

#include "runtime/routing_program.h"
